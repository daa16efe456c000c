"""The web half of every registered (ruleset, kind), found by path: builder/kinds/<ruleset>/<kind>.py has `Page`."""
from importlib import import_module

from django.http import Http404

from catalogue.rulesets import ACTIVE

from .base import KindPage

PAGES: dict[tuple[str, str], KindPage] = {
    (ruleset.key, kind.key): import_module(f"{__name__}.{ruleset.key}.{kind.key}").Page(ruleset, kind)
    for ruleset in ACTIVE.values() for kind in ruleset.kinds
}


def page_for(ruleset: str, kind: str) -> KindPage:
    page = PAGES.get((ruleset, kind))
    if page is None:
        raise Http404("No such ruleset or kind")
    return page
