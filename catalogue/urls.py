from django.urls import path

from . import views

urlpatterns = [
    path("<slug:ruleset>/", views.browse, name="catalogue"),
]
