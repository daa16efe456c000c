"""House-rule presets: a named set of choices shared by link, which any build of the ruleset can apply."""
from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from catalogue.rulesets import ACTIVE, house_rules
from catalogue.rulesets.base import BuildError

from . import forms
from .errors import bad_input, go_to
from .models import HouseRulePreset


def choices_of(link: str, ruleset) -> dict:
    """The choices of a preset named by its link or id; it must be of the build's ruleset."""
    found = forms.share_id(link, "hr-preset")
    preset = HouseRulePreset.objects.filter(share_id=found, ruleset=ruleset.key).first() if found else None
    if preset is None:
        raise forms.problem("hr-preset", f"no {ruleset.name} house-rule preset at {str(link)[:60]!r}")
    return preset.choices


@require_POST
def create(request, ruleset: str):
    """Make a preset from the House rules panel's choices (the builder form posts here), then show its link."""
    spec = ACTIVE.get(ruleset)
    if spec is None:
        return bad_input(request, forms.problem("ruleset", f"no active ruleset {ruleset[:40]!r}"))
    try:
        choices = forms.house_rules(request.POST, spec.house_rules())
        house_rules.check(spec.house_rules(), spec.rules(), choices)
        name = " ".join(str(request.POST.get("hr-preset-name", "")).split())[:80]
        if not name:
            raise forms.problem("hr-preset-name", "name the preset (a tournament, a table)")
    except BuildError as error:
        return bad_input(request, error)
    preset = HouseRulePreset.objects.create(ruleset=spec.key, name=name, choices=choices)
    return go_to(request, preset.get_absolute_url())


def show(request, share_id: str):
    preset = get_object_or_404(HouseRulePreset, share_id=share_id)
    spec = ACTIVE.get(preset.ruleset)
    lines = house_rules.in_use(spec.house_rules(), spec.rules(), preset.choices) if spec else []
    return render(request, "builder/preset.html", {"preset": preset, "ruleset": spec, "lines": lines,
                                                   "link": request.build_absolute_uri(preset.get_absolute_url())})
