"""The app's URLs plus two baselines for request timings: a bare view and a bare page."""
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path

from builder.urls import urlpatterns as app_patterns


def minimal(request):
    return HttpResponse("ok")


def minimal_page(request):
    """The cheapest real page: the site's base template, CSRF token and messages, no content."""
    return render(request, "base.html")


urlpatterns = [path("bench/minimal", minimal), path("bench/page", minimal_page)] + app_patterns
