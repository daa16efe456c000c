"""Per-client limits on what costs the server: writes, PDF renders and previews. Counted in Django's cache
(shared across workers when the cache is Redis), in fixed one-minute windows."""
from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache

from .errors import answer


def bucket(request) -> str | None:
    if request.path.endswith(".pdf"):
        return "pdf"
    if request.path.startswith(("/preview/", "/api/preview")):
        return "preview"
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        return "write"
    return None


def client_ip(request) -> str:
    if settings.HARDPOINT_TRUST_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()  # the address our own proxy saw
    return request.META.get("REMOTE_ADDR", "")


class RateLimit:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        kind = bucket(request) if settings.HARDPOINT_RATE_LIMITS else None
        if kind is not None:
            limit, window = settings.HARDPOINT_RATE_LIMITS[kind]
            now = time.time()
            start = int(now // window)
            key = f"ratelimit:{kind}:{client_ip(request)}:{start}"
            cache.add(key, 0, timeout=window + 1)
            try:
                count = cache.incr(key)
            except ValueError:  # expired between add and incr
                count = 1
            if count > limit:
                response = answer(request, 429, f"too many {kind} requests: at most {limit} a minute")
                response["Retry-After"] = str(max(1, int((start + 1) * window - now) + 1))
                return response
        return self.get_response(request)
