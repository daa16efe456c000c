"""The combat preview panel: the builder's current document (or a saved build) against what the form describes."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_POST

from catalogue.loader import catalogue_by_ref
from catalogue.rulesets.base import BuildError

from . import store
from .charts import distribution_chart
from .kinds import KindPage, page_for
from .models import Build

FIELD_PREFIX = "preview-"  # the preview form's own fields, kept apart from the builder form it includes


@require_POST
def panel(request, ruleset: str, kind: str):
    """htmx gets the results fragment; without JavaScript, a page with the results."""
    page = page_for(ruleset, kind)
    if not page.previews:
        raise Http404("This kind of build has no combat preview")
    context = {"page": page, "results_template": page.template("preview"),
               "follows_build": bool(request.POST.get("pack"))}  # the builder's form came along
    try:
        fields = {name[len(FIELD_PREFIX):]: value for name, value in request.POST.items() if name.startswith(FIELD_PREFIX)}
        result = run(page, attacker(request, page), page.preview_request(fields))
    except BuildError as error:
        return render(request, "builder/preview_results.html", {**context, "problems": error.problems}, status=422)
    template = "builder/preview_results.html" if request.htmx else "builder/preview_page.html"
    return render(request, template, {**context, "result": result})


def attacker(request, page: KindPage):
    """The builder form's state when htmx includes it; else, without JavaScript, the document the page was
    drawn from, or a saved build by share id (on share pages)."""
    post = request.POST
    if post.get("pack"):
        catalogue = catalogue_by_ref(post["pack"])
        if catalogue is None:
            raise BuildError([{"path": "pack", "message": f"pack {post['pack'][:60]} is not loaded here"}])
        return store.check(page.read_post(post, post["pack"], catalogue, request))
    if post.get("attacker"):
        checked = store.check(store.decode(post["attacker"]))
        if checked.kind is not page.kind:
            raise BuildError([{"path": "attacker", "message": f"not a {page.kind.label}"}])
        return checked
    build = Build.objects.filter(share_id=post.get("attacker_build", ""), ruleset=page.ruleset.key,
                                 kind=page.kind.key).first()
    if build is None:
        raise BuildError([{"path": "attacker_build", "message": f"not a saved {page.kind.label}'s share id"}])
    return store.check(store.shown(build, post.get("reveal"))[0].document)


def run(page: KindPage, checked, request: dict) -> dict:
    result = store.preview(checked, request)
    for attack in attacks_in(result):
        attack["chart"] = distribution_chart(attack)
    return result


def attacks_in(result: dict) -> list[dict]:
    """The result's `attacks`, and those of each group a kind lists them in (a pilot's mechs)."""
    groups = [result] + [group for value in result.values() if isinstance(value, list)
                         for group in value if isinstance(group, dict) and "attacks" in group]
    return [attack for group in groups for attack in group.get("attacks", [])]
