"""Template context every page gets: the builders the header offers, from the active rulesets."""
from django.urls import reverse

from catalogue.rulesets import ACTIVE


def builders(request) -> dict:
    return {"new_builders": [(reverse("build-new", args=[m.KEY, kind]), f"New {label}")
                             for m in ACTIVE.values() for kind, label in m.KINDS.items()]}
