"""Every request is one transaction with its response, and carries an id that ties its logs to its error page."""
from __future__ import annotations

import contextvars
import logging
import secrets

from django.conf import settings
from django.db import transaction

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


class RequestTransaction:
    """Commit what a write request did only when it answers below 400: a refused or failed one saves nothing.

    Exceptions raised by the view are turned into a 500 response inside this block, so they roll back too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            # Reads change no build; taking SQLite's write lock for them would serialise every page view.
            return self.get_response(request)
        with transaction.atomic():
            response = self.get_response(request)
            if response.status_code >= 400:
                transaction.set_rollback(True)
        return response


class PlainText:
    """Refuse a NUL character in the address, a query or a form field, and ignore a cookie holding one: no text a
    player types holds one, and PostgreSQL refuses to store or even look one up (SQLite takes it, so only
    production would fail)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from .errors import answer  # the logging settings load this module before the apps are ready

        if "\x00" in request.path:
            return answer(request, 404)
        for name in [name for name, value in request.COOKIES.items() if "\x00" in name + value]:
            del request.COOKIES[name]
        fields = [request.GET] + ([request.POST] if request.method == "POST" else [])
        for key, values in (pair for data in fields for pair in data.lists()):
            if "\x00" in key or any("\x00" in value for value in values):
                shown = key.replace("\x00", "\\0")[:60]
                return answer(request, 400, f"the field {shown!r} holds a NUL character",
                              [{"path": shown, "message": "a NUL character is not text; remove it"}])
        return self.get_response(request)


class RequestId:
    """An id for the request (logs, error pages, the X-Request-Id header), and the Permissions-Policy header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.id = secrets.token_hex(6)
        token = request_id.set(request.id)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response["X-Request-Id"] = request.id
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every log record (`%(request_id)s`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True
