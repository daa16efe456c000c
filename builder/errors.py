"""Error pages: JSON under /api/ (api_models.ErrorAnswer: {"status", "reason", "problems", "request_id"}), a page
elsewhere; each names its request id."""
from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.shortcuts import redirect, render
from django_htmx.http import HttpResponseClientRedirect

from .api_models import ErrorAnswer
from .store import SavedBuildUnreadable

REASONS = {400: "bad request", 403: "forbidden", 404: "no such page or resource", 405: "method not allowed",
           413: "request body too large", 500: "server error: it is logged under this request's id"}


def answer(request, status: int, reason: str = "", problems: list | None = None):
    reason = reason or REASONS.get(status, "error")
    ident = getattr(request, "id", "")
    if request.path.startswith("/api/"):
        return ErrorAnswer(status=status, reason=reason, problems=problems or [], request_id=ident).response(status)
    return render(request, "error.html", {"status": status, "reason": reason, "problems": problems or [],
                                          "request_id": ident}, status=status)


def bad_request(request, exception=None):
    if isinstance(exception, RequestDataTooBig):
        return answer(request, 413)
    return answer(request, 400)


def forbidden(request, exception=None):
    return answer(request, 403)


def not_found(request, exception=None):
    """Our own 404s say why in words written for the player (`Http404("No such example")`); the URL resolver's
    (its routes) and get_object_or_404's (a model's name) are not shown."""
    said = exception.args[0] if exception is not None and exception.args else ""
    return answer(request, 404, said if isinstance(said, str) and "matches the given query" not in said else "")


def server_error(request):
    return answer(request, 500)


class SavedBuildAnswers:
    """A saved build that no longer reads (its pack is gone) is a 409 that says why, on every page and the API."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, SavedBuildUnreadable):
            return answer(request, 409, f"the saved build {exception.build.name!r} cannot be read here",
                          exception.problems)
        return None


def bad_input(request, error):
    """A form that does not describe a build (tampered or stale page): say what, keep nothing."""
    return render(request, "bad_input.html", {"problems": error.problems}, status=422)


def go_to(request, url: str):
    """Navigate there: a redirect, or for htmx the header that makes the browser follow it."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
