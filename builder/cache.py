"""The shared cache (Redis) as the site can live without it: when Redis cannot be reached, every read is a miss and
every write is dropped, with a warning in the log, so pages, saves and PDFs go on (drawn afresh) and rate limits
count nothing (they fail open). Redis back, the next call reconnects."""
from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("hardpoint.cache")
WARN_EVERY = 30  # seconds: one warning per process while Redis stays away, not one per request


class SharedCache(RedisCache):
    _warned = 0.0

    def _missing(self, error: Exception, default=None):
        now = time.monotonic()
        if now - SharedCache._warned > WARN_EVERY:
            SharedCache._warned = now
            log.warning("cache unavailable, serving without it: %s", error)
        return default

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except RedisError as error:
            return self._missing(error, default)

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except RedisError as error:
            return self._missing(error, {})

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except RedisError as error:
            return self._missing(error, False)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except RedisError as error:
            return self._missing(error, False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            super().set(key, value, timeout, version)
        except RedisError as error:
            self._missing(error)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except RedisError as error:
            return self._missing(error, list(data))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().touch(key, timeout, version)
        except RedisError as error:
            return self._missing(error, False)

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except RedisError as error:
            return self._missing(error, False)

    def delete_many(self, keys, version=None):
        try:
            return super().delete_many(keys, version)
        except RedisError as error:
            return self._missing(error)

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except RedisError as error:
            self._missing(error)
            raise ValueError(f"{key!r} is not counted: the cache is unavailable") from None
