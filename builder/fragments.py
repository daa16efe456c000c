"""The fragments a live edit sends back, written for Jinja2 (files ending `.jinja`).

A value edit re-renders about 16 KB of issues, bars, chart and stats; Django's template engine took four
times as long as Jinja2 for it, most of the request (see docs/benchmarks.md). Full pages stay Django templates
and place the same fragments with `{% fragment "name.jinja" key=value %}`, so each fragment is written once.
"""
from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import engines
from jinja2 import ChainableUndefined, Environment


def environment(**options) -> Environment:
    # Undefined names and attributes render as nothing, as in Django templates (in DEBUG too, where Django's
    # backend would ask for DebugUndefined): the same fragments appear on both engines' pages.
    env = Environment(**{**options, "undefined": ChainableUndefined})
    env.filters.update(pluralize=pluralize, signed=signed)
    return env


def pluralize(count: int, suffix: str = "s") -> str:
    return "" if count == 1 else suffix


def signed(number: int) -> str:
    return f"{number:+d}"


def render_fragment(name: str, context: dict[str, Any], request=None) -> str:
    return engines["fragments"].get_template(name).render(context, request)


def fragment_response(request, name: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return HttpResponse(render_fragment(name, context, request), status=status)
