"""The app's URLs plus the smallest possible Django view, the baseline for request timings."""
from django.http import HttpResponse
from django.urls import path

from builder.urls import urlpatterns as app_patterns


def minimal(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/minimal", minimal)] + app_patterns
