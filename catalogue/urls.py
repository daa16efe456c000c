from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="catalogue-index"),
    path("<slug:ruleset>/", views.browse, name="catalogue"),
    path("<slug:ruleset>/rules/", views.rules, name="rules"),
    path("<slug:ruleset>/export.csv", views.export_csv, name="catalogue-csv"),
]
