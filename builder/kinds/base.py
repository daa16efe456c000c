"""The web half of a (ruleset, kind): what its builder page, share page, PDF sheet and preview panel show.

Each kind subclasses `KindPage` in builder/kinds/<ruleset>/<kind>.py and keeps its templates in
templates/builder/<ruleset>/<kind>/; a template it does not have falls back to templates/builder/<name>.html.
Generic views call only the methods below.
"""
from __future__ import annotations

import hashlib
import json
import re
from urllib.parse import urlencode
from functools import cache as once, cached_property
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import engines
from django.template.loader import render_to_string, select_template
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.safestring import mark_safe
from django_htmx.http import trigger_client_event

from catalogue.loader import catalogue_for, latest_pack_with
from catalogue.rulesets import house_rules
from catalogue.rulesets.base import BUILD_FORMAT, BuildError, Catalogue, pack_refs
from catalogue.rulesets.spec import Kind, Ruleset

from .. import changes, forms, live, presets, store
from ..charts import qr_data_uri
from ..rosters import Roster
from ..session import has_builds
from ..text import Text


class KindPage:
    # Rule codes that only say a required part is not chosen yet (see `common`).
    to_fit: tuple[str, ...] = ()
    # The meters the sticky summary under the name always shows, with a short label; any meter over its limit
    # shows there too.
    summary_meters: dict[str, str] = {}
    # The preview form's on/off conditions, by group: (legend, ((field, label, checked at first), ...)).
    preview_flags: tuple[tuple[str, tuple[tuple[str, str, bool], ...]], ...] = ()
    # What its share link masks (Kind.secrecy), as its pages name it.
    secret_label = "secret items"
    # The document's fields whose edits reshape nothing on the builder but the live fragments (see builder.live).
    value_fields: tuple[str, ...] = ("name", "notes")
    # The add boxes of a roster kind (builder/rosters.py): where members are searched for and added.
    rosters: tuple[Roster, ...] = ()
    # Fragments (.jinja, each an element with an id, swapped out of band) a value edit sends besides the title,
    # badges, side panel and fingerprints that every kind's do.
    live_fragments: tuple[str, ...] = ()
    # Where on the builder page an issue at a path belongs: (path pattern, element id), the first match wins. In a
    # pattern `{name}` is one step of the path (an index or a key) and a trailing `*` allows more steps after it:
    # ("mechs[{i}]*", "mech-{i}") sends `mechs[2].pilot` to #mech-2; "*" alone matches every path.
    anchors: tuple[tuple[str, str], ...] = ()

    def __init__(self, ruleset: Ruleset, kind: Kind):
        self.ruleset, self.kind = ruleset, kind

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.ruleset.key}/{self.kind.key}>"

    @property
    def exchanges(self) -> list:
        """Other apps' formats this kind of build exports to (COMP/CON's pilots)."""
        return [e for e in self.ruleset.exchanges if e.kind == self.kind.key]

    # --- templates, by path convention -----------------------------------------------------------

    def template(self, name: str) -> str:
        """The kind's own template of this name, or the shared one."""
        names = [f"builder/{self.ruleset.key}/{self.kind.key}/{name}.html", f"builder/{name}.html"]
        return select_template(names).template.name

    @cached_property
    def side_template(self) -> str:
        """The side panel (verdict, budgets, stats): the kind's side.jinja, or the verdict alone."""
        names = [f"builder/{self.ruleset.key}/{self.kind.key}/side.jinja", "partials/legality.jinja"]
        return engines["fragments"].env.select_template(names).name

    # --- documents -----------------------------------------------------------------------------

    def header(self, pack_ref: str) -> dict[str, Any]:
        """The fields every document of this kind starts with; `pack_ref` may be a set (base, then extensions)."""
        pack, *extensions = pack_refs(pack_ref)
        return {"format": BUILD_FORMAT, "ruleset": self.ruleset.key, "kind": self.kind.key, "pack": pack,
                **({"extensions": extensions} if extensions else {})}

    def blank(self, pack_ref: str) -> dict[str, Any]:
        return {**self.header(pack_ref), "name": f"New {self.kind.label}"}

    def document_from_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                           notices: list[str] | None = None) -> dict[str, Any]:
        """The build document a builder form describes, with the form's action (add, remove, …) applied."""
        raise NotImplementedError

    def read_post(self, post, pack_ref: str, catalogue: Catalogue, request=None,
                  notices: list[str] | None = None) -> dict[str, Any]:
        """The kind's document from its form, with the House rules panel's choices, which every kind shares."""
        field, _, token = str(post.get("roster-pick", "")).partition(" ")
        if self.roster_for(field) is not None:
            post = post.copy()
            post[field] = token  # a search result picked: what its add box names now
        document = self.document_from_post(post, pack_ref, catalogue, request, notices)
        removed = forms.json_field(post, "removed", None)
        if removed is not None and post.get("action") != "dismiss_removed":
            document["removed"] = removed  # HP-UPGRADE notes ride along every edit until dismissed
        options = self.house_rule_options()
        chosen = forms.house_rules(post, options)
        if post.get("action") == "apply_preset":
            chosen = {key: value for key, value in presets.choices_of(post.get("hr-preset", ""), self.ruleset).items()
                      if key in options or key == "severity"}
        return {**document, "house_rules": chosen} if chosen else {k: v for k, v in document.items()
                                                                   if k != "house_rules"}

    def house_rules_panel(self, document: dict[str, Any]) -> dict[str, Any]:
        """The House rules panel: each declared option with the build's value, and its severity overrides."""
        chosen = document.get("house_rules", {})
        rules, options = self.ruleset.rules(), self.house_rule_options()
        return {"options": [{"option": o, "value": chosen.get(o.key, o.default)}
                            for o in sorted(options.values(), key=house_rules.panel_order)],
                "overrides": sorted(chosen.get("severity", {}).items()), "rule_ids": [(rule.id, rule.title) for rule in rules.values()],
                "levels": [("rulebook", "as the rulebook"), ("error", "an error"), ("warning", "a warning"),
                           ("info", "a note"), ("off", "ignored")],
                "in_use": house_rules.in_use(options, rules, chosen)}

    def house_rule_options(self) -> dict[str, house_rules.Option]:
        return house_rules.for_kind(self.ruleset.house_rules(), self.kind.key)

    def structure(self, document: dict[str, Any]) -> dict[str, Any]:
        """What shapes the builder's form (its rows and pickers): an edit that changes it redraws the workbench."""
        return {k: v for k, v in document.items() if k not in self.value_fields}

    def describe(self, document: dict[str, Any]) -> str:
        """One line that tells builds of this kind apart (a Task, a callsign); shown beside the name."""
        return ""

    # --- pages ---------------------------------------------------------------------------------

    def anchor(self, path: str) -> str:
        """The id of the element on the builder page that an issue at `path` belongs to ("" for none)."""
        return anchor_of(self.anchors, path)

    def rules_url(self) -> str:
        """The rule index page each issue links to by its rule ID ("" for a ruleset without one)."""
        return reverse("rules", args=[self.ruleset.key]) if self.ruleset.rules() else ""

    def headline(self, checked, build=None) -> dict[str, Any]:
        """What the title bar shows of a build: its verdict and budgets. A build never saved is in progress: its
        `to_fit` errors (a part not chosen yet) read as work to do, not as broken rules, until it is saved; an empty
        build's legality panel lists all its errors so (the panel is redrawn on every edit)."""
        report = checked.report
        to_fit = set(self.to_fit) if build is None else set()
        verdict = store.verdict(checked, to_fit)
        return {"page": self, "document": checked.document, "report": report,
                "budgets": [{"meter": m, "label": self.summary_meters.get(m.key, m.label)} for m in report.meters
                            if m.key in self.summary_meters or m.over],
                "to_fit": to_fit, "unfitted": sum(i.code in to_fit for i in report.errors), "verdict": verdict,
                "broken": [i for i in report.errors if i.code not in to_fit]}

    def common(self, checked, build=None) -> dict[str, Any]:
        """What every page of a build shows."""
        document, report = checked.document, checked.report
        return {**self.headline(checked, build), "stats": report.stats, "meters": report.meters,
                "house_rules": self.house_rules_panel(document),
                "pack": checked.catalogue, "subtitle": self.describe(document), "rules_url": self.rules_url(),
                "issue_links": [{"issue": i, "anchor": self.anchor(i.path)} for i in report.issues],
                "removed_json": json.dumps(document["removed"]) if document.get("removed") else ""}

    def context(self, request, checked, build=None) -> dict[str, Any]:
        """What the builder shows beyond `common`."""
        return {}

    def share_context(self, request, checked, build) -> dict[str, Any]:
        return self.context(request, checked, build)

    def render(self, request, checked, status: int = 200, **extra):
        """The builder: the whole page, or for htmx the workbench it swaps, or a live view (see builder.live)."""
        build = extra.get("build")
        view = request.POST.get("view") if request.htmx and request.method == "POST" else None
        fingerprints = live.fingerprints(checked, self.structure(checked.document))
        if view in live.VIEWS and not (view == "live" and self.reshaped(request.POST, checked, fingerprints)):
            if view == "live" and request.POST.get("shown") == fingerprints["shown"]:
                context = {**self.headline(checked, build), **extra, **fingerprints, "editing": True, "unmoved": True}
                return build_changed(live.live_response(request, context, status))
            if view == "chooser":  # a compare table draws from the pickers alone
                return live.chooser_response(request, checked, {"pickers": live.pickers(checked)}, status)
            context = {**self.common(checked, build), **self.live_context(request, checked, build), **extra,
                       **fingerprints, "editing": True}
            if view == "live":
                return build_changed(live.live_response(request, context, status))
            context["pickers"] = live.pickers(checked)
            return live.pickers_response(request, context, status)
        # A whole page (the first load, or a post without JavaScript) shows each choice tried; a redraw of the
        # workbench does not wait for the trials, and its pickers ask for them as they load. So does a first load
        # with more choices than a moment's trials (without JavaScript, they come with the first post).
        pickers = live.pickers(checked, tried=not request.htmx,
                               at_once=live.TRY_AT_ONCE if request.method == "GET" else None)
        context = {**self.common(checked, build), **self.context(request, checked, build), **extra, **fingerprints,
                   "pickers": pickers, "pickers_pending": live.pending(pickers),
                   "newer": changes.newer_packs(build.pack_ref) if build else [], "editing": True,
                   # the owner's own sheet and JSON show it whole; a reveal link to hand out when something is secret
                   "reveal": build.reveal_token if build and store.public_view(build) is not build else ""}
        if request.htmx:
            response = render(request, self.template("workbench"), context, status=status)
            return build_changed(live.whole_workbench(response) if view == "live" else response)
        context["workbench_template"] = self.template("workbench")
        if self.previews:
            context.update(self.preview_context(request, checked.document, extra.get("build")),
                           preview_form_template=self.template("preview_form"))
        return render(request, self.template("page"), context, status=status)

    def reshaped(self, post, checked, fingerprints: dict[str, str]) -> bool:
        """Whether a live edit must redraw the workbench: the structure moved, or a picker or roster added something
        (its box must be empty again, whatever else moved)."""
        adds = [place.field for place in live.places(checked).values() if place.adds]
        return (post.get("structure") != fingerprints["structure"]
                or any(post.get(field) for field in adds)
                or any(post.get(roster.field) for roster in self.rosters))

    def roster_for(self, field: str) -> Roster | None:
        """The roster whose add box is this form field, if any."""
        return next((roster for roster in self.rosters if roster.field == field), None)

    def live_context(self, request, checked, build=None) -> dict[str, Any]:
        """What the live fragments and pickers show beyond `common`: by default all the builder shows."""
        return self.context(request, checked, build)

    def render_share(self, request, build, reveal: str = ""):
        """The share page: the build's part rendered once per version of it and of the builds it names (the
        check and the templates are most of the work), inside a frame that depends on the visitor. `build` is its
        public view (`store.shown`), or the whole build with the `reveal` token that opened it.

        A visitor with no builds on this browser and no messages waiting sees the frame every such visitor sees,
        but for the form token: then the whole page is kept, with a stand-in for the token."""
        newer = changes.newer_packs(build.pack_ref)
        key = "share:" + hashlib.sha256(json.dumps([store.link_versions(build), [p.ref for p in newer],
                                                    getattr(build, "masked", False), reveal,
                                                    site_of(request)]).encode()).hexdigest()
        if has_builds(request) or len(get_messages(request)):
            return self.share_page(request, build, key, newer=newer, reveal=reveal)
        html = cache.get(f"{key}:page")
        if html is None:
            html = self.share_page(request, build, key, csrf_token=token_stand_in(), newer=newer,
                                   reveal=reveal).content.decode()
            cache.set(f"{key}:page", html, settings.HARDPOINT_SHARE_CACHE_SECONDS)
        return HttpResponse(html.replace(token_stand_in(), get_token(request)))

    def share_page(self, request, build, key: str, **extra):
        parts, checked = cache.get(key), None
        if parts is None:
            checked = store.check_saved(build)
            context = {**self.common(checked, build), **self.share_context(None, checked, build), "build": build,
                       "reveal": extra.get("reveal", "")}
            parts = {name: render_to_string(template, context) for name, template in
                     (("head", "builder/share_head.html"), ("body", self.template("share")))}
            cache.set(key, parts, settings.HARDPOINT_SHARE_CACHE_SECONDS)
        context = {"page": self, "build": build, **{name: mark_safe(html) for name, html in parts.items()},
                   "versions": store.versions_of(build), "text": self.text(build, site_of(request), checked),
                   "text_query": version_query(build, extra.get("reveal", "")), **extra}
        if self.previews:
            context.update(self.preview_context(request, build.document, build), share_only=True,
                           preview_form_template=self.template("preview_form"))
        return render(request, "builder/share_page.html", context)

    # --- text to paste ---------------------------------------------------------------------------

    def text(self, build, site: str, checked=None) -> dict[str, str]:
        """The build as text to paste (builder.text), {"plain": ..., "markdown": ...}, its links on `site`: worded
        once per version of it and of the builds it names (from `checked` when the caller has its check)."""
        key = "text:" + hashlib.sha256(json.dumps([store.link_versions(build), getattr(build, "masked", False),
                                                   site]).encode()).hexdigest()
        words = cache.get(key)
        if words is None:
            written = Text.of(self, checked or store.check_saved(build), build, site)
            words = {"plain": written.plain(), "markdown": written.markdown()}
            cache.set(key, words, settings.HARDPOINT_SHARE_CACHE_SECONDS)
        return words

    # --- printed sheets ------------------------------------------------------------------------

    def sheet_context(self, checked, build) -> dict[str, Any]:
        return self.share_context(None, checked, build)

    def sheet_sections(self, build, checked, share_url: str) -> list[str]:
        """The HTML of this build's printed pages (builds it owns print after it, see builder.pdf)."""
        context = {**self.common(checked, build), **self.sheet_context(checked, build), "build": build,
                   "share_url": share_url, "qr": qr_data_uri(share_url)}
        return [render_to_string(self.template("sheet"), context)]

    # --- combat preview ------------------------------------------------------------------------

    @property
    def previews(self) -> bool:
        """Whether the kind has a combat preview (Kind.previewer): then its page overrides `preview_request`."""
        return self.kind.previewer is not None

    def preview_context(self, request, document, build) -> dict[str, Any]:
        """The preview form's choices (targets, conditions): the base gives the document for no-JS posts, and the
        targets the kind's preview may pick from a pack (Preview.targets_from), from its newest version."""
        context = {"document_json": json.dumps(document)}
        if category := self.kind.previewer.targets_from:
            pack = latest_pack_with(self.ruleset.key, category)
            context["preview_targets"] = catalogue_for(pack).of(category) if pack else []
        return context

    def preview_request(self, fields) -> dict[str, Any]:
        """The preview request (`target`, `situation`: what Kind.preview reads) from the preview form's fields
        (`preview-` taken off)."""
        raise BuildError([{"path": "preview", "message": f"{self.kind.label} builds have no combat preview"}])


def version_query(build, reveal: str) -> str:
    """The query that keeps a share page's files (JSON, text) on the version and reveal link it shows."""
    asked = {**({"version": build.version} if getattr(build, "snapshot", False) else {}),
             **({"reveal": reveal} if reveal else {})}
    return f"?{urlencode(asked)}" if asked else ""


def site_of(request) -> str:
    """The scheme and host this site's links start with, as the request reached it."""
    return f"{request.scheme}://{request.get_host()}"


def build_changed(response):
    """Tells the page the build it shows changed (its combat preview runs again)."""
    trigger_client_event(response, "build-changed", after="settle")
    return response


@once
def token_stand_in() -> str:
    """Stands for the form token in a kept share page: the same in every process of a site (the secret key's),
    and no text a visitor could guess and type into a build."""
    return salted_hmac("hardpoint.share-page", "form-token").hexdigest()


def anchor_of(anchors: tuple[tuple[str, str], ...], path: str) -> str:
    """The element id the first matching pattern of `anchors` gives `path` (see KindPage.anchors); "" for none."""
    for pattern, target in anchors:
        if found := anchor_pattern(pattern).fullmatch(path):
            return target.format(**found.groupdict())
    return ""


@once
def anchor_pattern(pattern: str) -> re.Pattern:
    """An `anchors` path pattern as a regular expression; "*" alone matches every path."""
    if pattern == "*":
        return re.compile(".*")
    rest = pattern.endswith("*")
    steps = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^.\\[\\]]+)", re.escape(pattern.removesuffix("*")))
    return re.compile(steps + (r"(?:[.\[].*)?" if rest else ""))
