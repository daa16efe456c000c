"""Template context every page gets: the builders the header offers, grouped by active ruleset."""
from django.urls import reverse

from catalogue.rulesets import ACTIVE


def builders(request) -> dict:
    return {"new_builders": [(ruleset.name, [(reverse("build-new", args=[ruleset.key, kind.key]), kind.label)
                                             for kind in ruleset.kinds])
                             for ruleset in ACTIVE.values()]}
