"""What a browser keeps: its collection (by link, so on every browser that opened it), its drafts, its packs and its
tables, in its session. No accounts, and no listing of anyone else's."""
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.http import QueryDict
from django.utils import timezone

from catalogue.models import UserPack

from .models import Build, Collection, Draft, Kept, Table

KEPT_DRAFTS = 4  # builder pages with unsaved changes kept per browser
MAX_DRAFT = 64 * 1024  # characters of one draft's form
DRAFT_SKIPS = ("csrfmiddlewaretoken", "draft_for", "view", "chooser", "structure", "mechanics", "shown")
LOST = "collection_lost"  # the session's note that its collection link was replaced on another browser


def collection(request, create: bool = False) -> Collection | None:
    """This browser's collection (see models.Collection); with `create`, a new one if it has none yet. Read once
    a request. A browser whose link was replaced elsewhere is out of it from its next request: it is told so once
    (`lost`) and starts a collection of its own when it next keeps a build."""
    if getattr(request, "_collection", None) is None and (create or not hasattr(request, "_collection")):
        token = request.session.get("collection")
        found = Collection.objects.filter(token=token).first() if token else None
        if token and found is None:
            del request.session["collection"]
            request.session[LOST] = True
        older = request.session.pop("builds", None)  # a browser's list from before collections: moved in whole
        if found is None and (create or older):
            found = join(request, Collection.objects.create())
        if older:
            _put(found, Build.objects.filter(edit_token__in=older))
        request._collection = found
    return request._collection


def join(request, joined: Collection) -> Collection:
    """Make `joined` this browser's collection, bringing along the builds it kept so far (none is lost)."""
    current = getattr(request, "_collection", None) or (
        Collection.objects.filter(token=request.session.get("collection", "")).first())
    if current is not None and current.pk != joined.pk:
        _put(joined, current.builds.all())
    request.session["collection"] = joined.token
    request.session.pop(LOST, None)
    request._collection = joined
    return joined


def lost(request) -> bool:
    """Whether this browser's collection link was replaced on another browser (said once)."""
    collection(request)
    return bool(request.session.pop(LOST, False))


def keep(request, *builds: Build) -> None:
    """Put these builds in this browser's collection (saved, opened by their edit link, copied, imported)."""
    _put(collection(request, create=True), builds)


def _put(into: Collection, builds) -> None:
    Kept.objects.bulk_create([Kept(collection=into, build=b) for b in builds], ignore_conflicts=True)


def forget(request, build: Build) -> None:
    """Take a build out of this browser's collection; the build and its links stay."""
    if (kept := collection(request)) is not None:
        Kept.objects.filter(collection=kept, build=build).delete()


def has_builds(request) -> bool:
    return bool(request.session.get("collection") or request.session.get("builds"))


def mine(request, ruleset: str | None = None, kind: str | None = None) -> list[Build]:
    """This browser's collection, last saved first; of one ruleset and kind when given."""
    if not has_builds(request):
        return []  # most visitors of a share link: no query
    kept = collection(request)
    if kept is None:
        return []
    builds = Build.objects.filter(kept__collection=kept)
    if ruleset:
        builds = builds.filter(ruleset=ruleset)
    if kind:
        builds = builds.filter(kind=kind)
    return list(builds.order_by("-updated_at"))


def keep_draft(request, page: str, post: QueryDict) -> bool:
    """Keep a builder page's unsaved form for this browser; False when too big to keep."""
    form = {key: post.getlist(key) for key in post if key not in DRAFT_SKIPS}
    if len(json.dumps(form)) > MAX_DRAFT:
        return False
    if request.session.session_key is None:
        request.session.save()  # a first visit's edit: the browser gets its session with this answer
        request.session.modified = True
    key, now = request.session.session_key, timezone.now()
    # Every live edit keeps its draft: one UPDATE on the way, the rest only when a page starts one.
    if Draft.objects.filter(session_key=key, page=page).update(form=form, at=now):
        return True
    try:
        with transaction.atomic():
            Draft.objects.create(session_key=key, page=page, form=form, at=now)
    except IntegrityError:  # the same page's beacon got there first
        Draft.objects.filter(session_key=key, page=page).update(form=form, at=now)
    older = Draft.objects.filter(session_key=key).values_list("pk", flat=True)[KEPT_DRAFTS:]
    Draft.objects.filter(pk__in=list(older)).delete()
    return True


def draft(request, page: str) -> tuple[QueryDict, Any] | None:
    """The unsaved form this browser left on this page, and when."""
    kept = _drafts(request).filter(page=page).first()
    if kept is None:
        return None
    form = QueryDict(mutable=True)
    for key, values in kept.form.items():
        form.setlist(key, values)
    return form, kept.at


def latest_draft(request, pages_under: str) -> Draft | None:
    """This browser's newest draft among the pages whose address starts so (a kind's new builds)."""
    return _drafts(request).filter(page__startswith=pages_under).first()


def forget_draft(request, page: str) -> None:
    _drafts(request).filter(page=page).delete()


def _drafts(request):
    return Draft.objects.filter(session_key=request.session.session_key or "")


KEPT_PACKS = 30


def keep_pack(request, user_pack: UserPack, owned: bool = False) -> None:
    """Put an uploaded pack at the top of this browser's packs; `owned` when this browser has its edit link."""
    kept = [p for p in request.session.get("packs", []) if p["share"] != user_pack.share_id]
    was_owned = any(p["share"] == user_pack.share_id and p["edit"] for p in request.session.get("packs", []))
    edit = user_pack.edit_token if owned or was_owned else ""
    request.session["packs"] = [{"share": user_pack.share_id, "edit": edit}, *kept][:KEPT_PACKS]


def may_build_on(request, pack) -> bool:
    """A Hardpoint pack, or an uploaded one whose share link this browser opened: knowing a pack's name is not its
    link, so a new build cannot start on, or show, a pack the player was never given."""
    return pack.source in pack.PUBLIC or (pack.user_pack is not None and pack.user_pack.share_id in opened(request))


def opened(request) -> set[str]:
    """The share ids of the uploaded packs this browser opened."""
    return {kept["share"] for kept in request.session.get("packs", [])}


def my_packs(request, ruleset: str | None = None) -> list[dict]:
    """This browser's packs, newest first: {"pack": UserPack, "latest": Pack, "owned": bool}."""
    kept = request.session.get("packs", [])
    if not kept:
        return []
    owned = {p["share"]: p["edit"] for p in kept}
    found = UserPack.objects.filter(share_id__in=owned).prefetch_related("versions__ruleset")
    rows = []
    for user_pack in sorted(found, key=lambda u: list(owned).index(u.share_id)):
        latest = user_pack.newest()
        if latest is not None and (ruleset is None or latest.ruleset.key == ruleset):
            rows.append({"pack": user_pack, "latest": latest,
                         "owned": owned[user_pack.share_id] == user_pack.edit_token})
    return rows


KEPT_TABLES = 20


def keep_table(request, table: Table) -> None:
    """Put a table this browser opened at the top of its games in progress."""
    kept = request.session.get("tables", [])
    if kept[:1] != [table.token]:
        request.session["tables"] = [table.token, *(t for t in kept if t != table.token)][:KEPT_TABLES]


def my_tables(request) -> list[Table]:
    """The tables this browser opened, newest first."""
    tokens = request.session.get("tables", [])
    if not tokens:
        return []
    found = Table.objects.filter(token__in=tokens).select_related("build")
    return sorted(found, key=lambda t: tokens.index(t.token))
