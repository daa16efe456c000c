"""Packs between YAML files, the database and the rules engine."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import asdict, dataclass, field
import time
from functools import lru_cache

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from pydantic import TypeAdapter

from .models import Item, Pack, Ruleset, UserPack
from .rulesets import ACTIVE
from .rulesets.base import PACK_SET_SEPARATOR, Catalogue, Collision, PackError, pack_refs
from .rulesets.packs import PackData, Skipped, read_pack, read_upload


@dataclass
class LoadResult:
    ref: str
    status: str  # "created" or "unchanged"
    items: int
    skipped: list[Skipped] = field(default_factory=list)  # the entries left out, each with why


def load_all() -> list[LoadResult]:
    """Load every pack of every active ruleset, and the released versions kept beside them (`data/released/`), so
    that builds pinned to an older version still open; running it again changes nothing."""
    results = []
    for ruleset in ACTIVE.values():
        for path in sorted(ruleset.data_dir.glob("*.yaml")):
            results.append(load_pack(read_pack(path, ACTIVE)))
        for path in sorted(ruleset.data_dir.glob("released/*.yaml")):
            data = read_pack(path, ACTIVE)
            # A released version is frozen: a copy loaded before (even one spelled in an older schema) stands.
            loaded = Pack.objects.filter(name=data.header.name, version=data.header.version).first()
            results.append(LoadResult(data.header.ref, "unchanged", loaded.items.count()) if loaded
                           else load_pack(data))
    return results


@transaction.atomic
def load_pack(data: PackData, user_pack: UserPack | None = None) -> LoadResult:
    header = data.header
    spec = ACTIVE[header.ruleset]
    ruleset, _ = Ruleset.objects.update_or_create(key=spec.key, defaults={"name": spec.name, "tagline": spec.tagline})
    existing = Pack.objects.filter(name=header.name, version=header.version).first()
    if existing is not None:
        if existing.content_hash != data.content_hash:
            # Saved builds pin name@version: the same version must always mean the same parts.
            raise PackError(f"{data.path}: {header.ref} is already loaded with different content; "
                            f"bump the pack's version to publish a change")
        return LoadResult(header.ref, "unchanged", existing.items.count(),
                          [Skipped(**entry) for entry in existing.skipped])
    pack = Pack.objects.create(
        ruleset=ruleset, name=header.name, version=header.version, source=header.source,
        title=header.title, description=header.description, content_hash=data.content_hash,
        examples=data.examples, skipped=[asdict(entry) for entry in data.skipped], user_pack=user_pack,
        extends=find_pack(header.extends) if header.extends else None)
    Item.objects.bulk_create(
        Item(pack=pack, category=data.catalogue.categories[key], key=key, name=item.name,
             stats=item.model_dump(mode="json"))
        for key, item in data.catalogue.items.items())
    forget(header.ref)
    return LoadResult(header.ref, "created", len(data.catalogue.items), data.skipped)


class PackConflict(PackError):
    """A readable pack that cannot be published under its name or version (taken, or not newer)."""


@dataclass
class Published:
    result: LoadResult
    user_pack: UserPack
    own_items: int  # the pack's own, without the base's it extends
    extends: str | None

    @property
    def skipped(self) -> list[Skipped]:
        """The entries the upload left out: the pack loaded, with problems."""
        return self.result.skipped


@transaction.atomic
def publish(raw: bytes, filename: str, header: dict | None = None, edit_token: str | None = None,
            owner_note: str = "") -> Published:
    """Load an uploaded pack as a user pack. A new name makes a new UserPack with its own links; a name that
    exists takes a new version only through its edit link. PackError (PackUnreadable for bytes that are no
    pack at all) names what is wrong; nothing is saved then. Entries that could not be read are left out and
    listed in `skipped`: the rest loads."""
    data = read_upload(raw, filename, ACTIVE, header=header, base=catalogue_by_ref,
                       versions=lambda name: list(Pack.objects.filter(name=name).values_list("version", flat=True)))
    name = data.header.name
    owner = UserPack.objects.select_for_update().filter(name=name).first()
    if edit_token is not None and (owner is None or owner.edit_token != edit_token):
        raise PackConflict(f"{filename}: name: this edit link publishes versions of "
                           f"{_pack_named_by(edit_token)}, not '{name}'; keep the pack's name")
    if owner is None:
        if Pack.objects.filter(name=name).exists():
            raise PackConflict(f"{filename}: name: '{name}' is a Hardpoint pack; choose another name")
        try:
            with transaction.atomic():
                owner = UserPack.objects.create(name=name, owner_note=owner_note[:200])
        except IntegrityError:  # another upload took the name a moment ago
            raise PackConflict(f"{filename}: name: '{name}' is already taken; choose another name") from None
    elif edit_token is None:
        raise PackConflict(f"{filename}: name: '{name}' is already taken; choose another name, or publish a new "
                           f"version through that pack's edit link")
    newest = max((p.semver for p in owner.versions.all()), default=None)
    if newest is not None and tuple(map(int, data.header.version.split("."))) <= newest and not owner.versions.filter(
            version=data.header.version, content_hash=data.content_hash).exists():
        raise PackConflict(f"{filename}: version: {data.header.version} is not newer than "
                           f"{'.'.join(map(str, newest))}; give the new version a higher number")
    try:
        with transaction.atomic():
            base = catalogue_by_ref(data.header.extends) if data.header.extends else None
            return Published(load_pack(data, owner), owner, len(data.catalogue.items) - len(base.items if base else ()),
                             data.header.extends)
    except IntegrityError:  # the same version published by another request a moment ago
        raise PackConflict(f"{filename}: version: {data.header.ref} was just published; reload and try a "
                           f"higher version") from None


def _pack_named_by(edit_token: str) -> str:
    owner = UserPack.objects.filter(edit_token=edit_token).first()
    return f"'{owner.name}'" if owner else "no pack (the link is not valid)"


def latest_pack(ruleset_key: str, kind: str | None = None) -> Pack | None:
    """The newest version of the pack that serves this kind of build (the ruleset's first kind by default)."""
    ruleset = ACTIVE.get(ruleset_key)
    found = (ruleset.kind(kind) if kind else ruleset.kinds[0]) if ruleset else None
    return latest_pack_with(ruleset_key, found.pack_category) if found else None


# Every page asks which pack serves a kind; the answer changes only when a pack version is loaded. This
# process forgets it at once when that happens here, other processes within HARDPOINT_PACK_RECHECK_SECONDS.
_latest: dict[tuple[str, str], tuple[float, Pack | None]] = {}


def latest_pack_with(ruleset_key: str, category: str) -> Pack | None:
    """The newest version of a ruleset's pack holding items of this category."""
    key = (ruleset_key, category)
    found = _latest.get(key)
    if found is None or found[0] < time.monotonic():
        # Uploaded packs are never anyone's default: a build uses one only when it names it.
        packs = list(Pack.objects.filter(ruleset__key=ruleset_key, items__category=category,
                                         source__in=Pack.PUBLIC).distinct().select_related("ruleset"))
        found = _latest[key] = (time.monotonic() + settings.HARDPOINT_PACK_RECHECK_SECONDS, max(packs, key=lambda p: p.semver, default=None))
    return found[1]


def newest_version(name: str) -> Pack | None:
    """The newest loaded version of a pack name (asked on every saved build's page, so kept like the above)."""
    key = ("@name", name)
    found = _latest.get(key)
    if found is None or found[0] < time.monotonic():
        found = _latest[key] = (time.monotonic() + settings.HARDPOINT_PACK_RECHECK_SECONDS,
                                max(Pack.objects.filter(name=name), key=lambda p: p.semver, default=None))
    return found[1]


def find_pack(ref: str) -> Pack | None:
    """The pack a ref names; of a build's pack set, its base."""
    name, _, version = pack_refs(ref)[0].partition("@")
    return Pack.objects.filter(name=name, version=version).select_related("ruleset").first()


def catalogue_for(pack: Pack) -> Catalogue:
    return _catalogue(pack.pk, pack.content_hash)


# What this process read, by ref, each with when to ask again whether its packs are still loaded.
_by_ref: dict[str, tuple[float, Catalogue]] = {}
# Pack sets, which anyone may combine in any order: the most recently read are kept.
_sets: OrderedDict[str, tuple[float, Catalogue]] = OrderedDict()
MAX_SETS = 64


def catalogue_by_ref(ref: str) -> Catalogue | None:
    """The catalogue a build pins (a pack, or a pack set). A loaded name@version never changes, so it is read
    once; but it may be deleted on another machine, so whether it is still loaded is asked again (one query)
    every HARDPOINT_PACK_RECHECK_SECONDS. Deleted on this machine, it is forgotten at once (`forget`)."""
    kept = _sets if PACK_SET_SEPARATOR in ref else _by_ref
    now = time.monotonic()
    found = kept.get(ref)
    if found is not None and (found[0] > now or still_loaded(found[1])):
        catalogue = found[1]
    else:
        catalogue = _combined(ref) if kept is _sets else catalogue_for(pack) if (pack := find_pack(ref)) else None
    if catalogue is None:
        kept.pop(ref, None)
        return None
    if found is None or found[0] <= now:
        kept[ref] = (now + settings.HARDPOINT_PACK_RECHECK_SECONDS, catalogue)
    if kept is _sets:
        _sets.move_to_end(ref)
        while len(_sets) > MAX_SETS:
            _sets.popitem(last=False)
    return catalogue


def still_loaded(catalogue: Catalogue) -> bool:
    """Whether every pack a catalogue was read from is still in the database."""
    refs = set(catalogue.refs)
    wanted = Q()
    for ref in refs:
        name, _, version = ref.partition("@")
        wanted |= Q(name=name, version=version)
    return Pack.objects.filter(wanted).count() == len(refs)


def forget(ref: str | None = None) -> None:
    """Drop what this process remembers of a pack that was loaded or deleted (of every pack with no ref)."""
    if ref is None:
        _by_ref.clear()
        _sets.clear()
        _catalogue.cache_clear()
    else:
        _by_ref.pop(ref, None)
        for kept in [k for k in _sets if ref in pack_refs(k)]:  # every set it is part of
            del _sets[kept]
    _latest.clear()


@lru_cache(maxsize=32)
def _catalogue(pack_id: int, content_hash: str) -> Catalogue:
    """Packs never change under a given hash, so their parsed items are kept in memory."""
    pack = Pack.objects.select_related("ruleset", "user_pack").get(pk=pack_id)
    adapters = {category: TypeAdapter(model) for category, model in ACTIVE[pack.ruleset.key].categories.items()}
    items, categories = {}, {}
    for item in pack.items.all():
        items[item.key] = adapters[item.category].validate_python(item.stats)
        categories[item.key] = item.category
    return Catalogue(pack.ruleset.key, pack.ref, items, categories, pack.title, pack.source,
                     shares={pack.ref: pack.user_pack.share_id} if pack.user_pack else {},
                     examples=tuple(pack.examples or ()))


def _combined(ref: str) -> Catalogue | None:
    """A build's base pack with each extension's own items added in order (an extension's base is the base's
    business, not the extension's). An id two packs both define keeps the first pack's item and is named."""
    if pack_set_problems(ref):
        return None
    base_ref, *extensions = pack_refs(ref)
    base = catalogue_by_ref(base_ref)
    items, categories, origins, collisions = dict(base.items), dict(base.categories), {}, []
    titles, sources, shares = {base_ref: base.title}, {base.source}, dict(base.shares)
    for extension_ref in extensions:
        pack = find_pack(extension_ref)
        own = catalogue_for(pack)
        inherited = catalogue_for(pack.extends).items if pack.extends_id else {}
        for key, item in own.items.items():
            if key in inherited:
                continue
            if key in items:
                collisions.append(Collision(key, item.name, origins.get(key, base_ref), extension_ref))
                continue
            items[key], categories[key], origins[key] = item, own.categories[key], extension_ref
        titles[extension_ref] = own.title
        sources.add(own.source)
        shares.update(own.shares)
    # A set with an uploaded pack in it is read as an uploaded pack is: through that pack's link only.
    source = "user" if "user" in sources else base.source
    return Catalogue(base.ruleset, base_ref, items, categories, " + ".join(titles.values()), source,
                     tuple(extensions), origins, tuple(collisions), titles, shares, base.examples)


def pack_set_problems(ref: str) -> list[dict[str, str]]:
    """What keeps a pack set from being read, by field: a pack not loaded, or of another ruleset than the base."""
    base_ref, *extensions = pack_refs(ref)
    base = find_pack(base_ref)
    if base is None:
        return [{"path": "pack", "message": f"pack {base_ref[:60]} is not loaded here"}]
    problems = []
    for i, extension_ref in enumerate(extensions):
        pack = find_pack(extension_ref)
        if pack is None:
            problems.append({"path": f"extensions[{i}]", "message": f"pack {extension_ref[:60]} is not loaded here"})
        elif pack.ruleset_id != base.ruleset_id:
            problems.append({"path": f"extensions[{i}]", "message": f"{extension_ref[:60]} is a "
                                                                    f"{pack.ruleset.name} pack, the build's base "
                                                                    f"{base_ref[:60]} is {base.ruleset.name}"})
    return problems
