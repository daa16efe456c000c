"""Template context every page gets: the builders the header offers, grouped by active ruleset."""
from functools import cache

from django.urls import get_script_prefix, reverse

from catalogue.rulesets import ACTIVE


def builders(request) -> dict:
    return {"new_builders": new_builders(get_script_prefix())}


@cache
def new_builders(script_prefix: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Worked out once: the URLs never change while the process runs (the prefix is a deployment's)."""
    return [(ruleset.name, [(reverse("build-new", args=[ruleset.key, kind.key]), kind.label) for kind in ruleset.kinds])
            for ruleset in ACTIVE.values()]
