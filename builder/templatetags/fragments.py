"""`{% fragment "partials/issues.jinja" issues=row.issues %}`: a Jinja2 fragment placed in a Django page."""
from django import template
from django.utils.safestring import mark_safe

from ..fragments import render_fragment

register = template.Library()


@register.simple_tag(takes_context=True)
def fragment(context, name: str, **extra):
    return mark_safe(render_fragment(name, {**context.flatten(), **extra}, context.get("request")))


@register.simple_tag(takes_context=True)
def picker(context, field: str):
    """`{% picker "part-core" %}`: the build's picker of that form field (builder.live), with its chooser when it
    offers many choices."""
    pickers = context["pickers"]
    if field not in pickers:
        raise KeyError(f"{field!r} is no place of this build; its kind declares {', '.join(pickers)}")
    return mark_safe(render_fragment("partials/picker_chooser.jinja",
                                     {**context.flatten(), "field": field, "picked": pickers[field]},
                                     context.get("request")))
