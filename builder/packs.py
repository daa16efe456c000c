"""Uploaded packs on the web: upload one, its share page (build with it), and its edit page (publish a new
version). Links are capabilities, as for builds: nothing lists anyone else's packs."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from catalogue.loader import Published, catalogue_for, publish
from catalogue.models import UserPack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.packs import LONE_CSV_HEADER, MAX_UPLOAD, Skipped, left_out
from catalogue.views import items_table

from .kinds import PAGES
from .session import keep_pack, my_packs

SKIPPED_OPEN = 10  # more problems than this are listed collapsed, so that they do not bury the pack's page


# The games' own pack formats, each by its suffix and the ruleset that reads it.
GAME_FORMATS = ", ".join(f"{suffix} ({ruleset.name})" for ruleset in ACTIVE.values() for suffix in ruleset.pack_readers)


class UploadForm(forms.Form):
    file = forms.FileField(label=f"Pack file (.yaml, .csv or .zip{', or ' + GAME_FORMATS if GAME_FORMATS else ''})")
    owner_note = forms.CharField(label="Note to yourself (optional)", max_length=200, required=False)
    # Only a lone CSV needs these: YAML and zip packs carry their own header.
    ruleset = forms.ChoiceField(choices=[("", "—")] + [(k, r.name) for k, r in ACTIVE.items()], required=False)
    name = forms.SlugField(max_length=64, required=False, help_text="lower-case, digits, - and _")
    version = forms.RegexField(r"^\d+\.\d+\.\d+$", max_length=20, required=False, help_text="e.g. 1.0.0")
    title = forms.CharField(max_length=120, required=False)
    category = forms.SlugField(max_length=40, required=False, help_text="blank: the file's name, e.g. weapon.csv")
    extends = forms.CharField(max_length=100, required=False, help_text="name@version of a loaded pack whose parts this one adds to")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(f"The file is {upload.size:,} bytes; a pack is at most {MAX_UPLOAD:,}.")
        return upload

    def csv_fields(self) -> list:
        return [self[field] for field in LONE_CSV_HEADER]

    def header(self) -> dict | None:
        given = {field: self.cleaned_data[field] for field in LONE_CSV_HEADER if self.cleaned_data.get(field)}
        return given or None


def _publish(request, form: UploadForm, edit_token: str | None = None) -> Published | None:
    """Load the form's pack, or put every problem on the form (nothing is saved then)."""
    if not form.is_valid():
        return None
    upload = form.cleaned_data["file"]
    try:
        return publish(upload.read(), upload.name, header=form.header(), edit_token=edit_token,
                       owner_note=form.cleaned_data["owner_note"])
    except PackError as exc:
        for problem in str(exc).split("\n"):
            form.add_error(None, problem)
        return None


def items(published: Published) -> str:
    count = f"{published.own_items} item{'s' if published.own_items != 1 else ''}"
    return f"{count} added to {published.extends}" if published.extends else count


def _left_out(request, published: Published) -> None:
    """Say that the pack loaded without the entries it could not read, which its page lists."""
    if published.skipped:
        count = left_out(published.skipped)
        messages.warning(request, f"Loaded {items(published)}; {count} entr{'ies' if count != 1 else 'y'} could not "
                                  f"be read: see “What this pack could not read” below.")


def upload(request):
    """Upload a new pack; the packs this browser has uploaded or opened are listed beside the form."""
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        published = _publish(request, form)
        if published is not None:
            keep_pack(request, published.user_pack, owned=True)
            messages.success(request, f"Uploaded {published.result.ref} ({items(published)}). "
                                      "Bookmark this page: its address is the link that publishes new versions.")
            _left_out(request, published)
            return redirect(published.user_pack)
    return render(request, "packs/upload.html", {"form": form, "mine": my_packs(request), "max_upload": MAX_UPLOAD, "game_formats": GAME_FORMATS},
                  status=422 if form.errors else 200)


def share(request, share_id: str):
    user_pack = get_object_or_404(UserPack, share_id=share_id)
    keep_pack(request, user_pack)
    return _pack_page(request, user_pack, editing=False)


@never_cache  # the edit link is the key to the pack: no cache keeps a copy of the page
def edit(request, token: str):
    user_pack = get_object_or_404(UserPack, edit_token=token)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        published = _publish(request, form, edit_token=token)
        if published is not None:
            keep_pack(request, user_pack, owned=True)
            verb = "Published" if published.result.status == "created" else "Already published:"
            messages.success(request, f"{verb} {published.result.ref} ({items(published)}).")
            _left_out(request, published)
            return redirect(user_pack)
    keep_pack(request, user_pack, owned=True)
    return _pack_page(request, user_pack, editing=True, form=form)


def _pack_page(request, user_pack: UserPack, editing: bool, form: UploadForm | None = None):
    versions = sorted(user_pack.versions.select_related("ruleset", "extends"), key=lambda p: p.semver, reverse=True)
    if not versions:
        raise Http404("This pack has no versions")
    wanted = request.GET.get("version")
    pack = next((p for p in versions if p.version == wanted), versions[0]) if wanted else versions[0]
    spec = ACTIVE.get(pack.ruleset.key)
    if spec is None:
        raise Http404("This pack's ruleset is not active here")
    catalogue = catalogue_for(pack)
    held = set(catalogue.categories.values())
    # An extending pack's page lists what it adds; its base is in the catalogue, linked from the page.
    own = set(catalogue.items) - set(catalogue_for(pack.extends).items) if pack.extends else set(catalogue.items)
    own_categories = {catalogue.categories[key] for key in own}
    categories = {key: label for key, label in spec.category_labels.items() if key in own_categories}
    category = request.GET.get("category") or next(iter(categories), "")
    if categories and category not in categories:
        raise Http404("No such category in this pack")
    skipped = [Skipped(**entry) for entry in pack.skipped]
    builds = [{"page": page, "url": f"{reverse('build-new', args=[key, kind])}?pack={pack.ref}"}
              for (key, kind), page in PAGES.items() if key == spec.key and page.kind.pack_category in held]
    return render(request, "packs/pack.html", {
        **items_table(request, spec, pack, category, categories, {"version": wanted} if wanted else {}, own),
        "user_pack": user_pack,
        "versions": [{"pack": v, "own": v.items.count() - (v.extends.items.count() if v.extends else 0)}
                     for v in versions], "newest": versions[0], "builds": builds,
        "skipped": skipped, "skipped_entries": left_out(skipped), "skipped_open": len(skipped) <= SKIPPED_OPEN,
        "editing": editing, "form": form, "max_upload": MAX_UPLOAD, "game_formats": GAME_FORMATS,
        "share_url": request.build_absolute_uri(user_pack.share_url()),
        "edit_url": request.build_absolute_uri(user_pack.get_absolute_url()) if editing else "",
    }, status=422 if form is not None and form.errors else 200)

