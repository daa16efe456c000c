"""`{% fragment "partials/issues.jinja" issues=row.issues %}`: a Jinja2 fragment placed in a Django page."""
from django import template
from django.utils.safestring import mark_safe

from ..fragments import render_fragment

register = template.Library()


@register.simple_tag(takes_context=True)
def fragment(context, name: str, **extra):
    return mark_safe(render_fragment(name, {**context.flatten(), **extra}, context.get("request")))
