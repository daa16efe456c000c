"""Pack versions that never break an old build: every released version of a shipped pack is kept in the repository
(`data/released/`) and loaded beside the newest, so a build pinned to it opens with its "what changed" offer; and
an uploaded pack may extend a range of a pack's versions (`^1.0`, `~1.1`, `>=1.0`), settled on the newest loaded
match and recorded exactly."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from builder import changes, store
from catalogue.loader import publish
from catalogue.models import Pack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.packs import read_pack
from tests.web.uploads import DM_HEADER, SPIKE

RELEASED = sorted(Path(__file__).resolve().parents[2].glob("catalogue/rulesets/*/data/released/*.yaml"))


def current(path: Path):
    """The pack file a released version is an earlier version of."""
    released = read_pack(path, ACTIVE).header
    newest = [read_pack(p, ACTIVE).header for p in path.parent.parent.glob("*.yaml")]
    return next(h for h in newest if h.name == released.name), released


def test_every_released_version_is_older_than_the_shipped_one():
    assert {read_pack(p, ACTIVE).header.ref for p in RELEASED} >= {
        "metallurgent-starter@1.0.0", "darkmetal-rulebook@1.0.0", "darkmetal-rulebook@1.1.0"}
    for path in RELEASED:
        shipped, released = current(path)
        assert tuple(map(int, released.version.split("."))) < tuple(map(int, shipped.version.split(".")))


@pytest.mark.parametrize("path", RELEASED, ids=lambda p: p.stem)
def test_a_build_pinned_to_a_released_version_opens_and_is_offered_the_newest(packs, path):
    released = read_pack(path, ACTIVE)
    assert Pack.objects.filter(name=released.header.name, version=released.header.version).exists()
    for example in released.examples:  # builds made on it then
        checked = store.check(example)
        assert checked.catalogue.pack == released.header.ref
        newer = changes.newer_packs(checked.catalogue.ref)
        assert [p.name for p in newer] == [released.header.name] and newer[0].semver > \
            tuple(map(int, released.header.version.split(".")))


def extending(extends: str, name: str = "range-kit") -> bytes:
    return yaml.safe_dump({**DM_HEADER, "name": name, "extends": extends,
                           "items": {"weapon": [SPIKE]}}).encode()


@pytest.mark.parametrize("wanted, settled", [("darkmetal-rulebook@^1.0", "darkmetal-rulebook@1.2.0"),
                                             ("darkmetal-rulebook@~1.1", "darkmetal-rulebook@1.1.0"),
                                             ("darkmetal-rulebook@>=1.0.0", "darkmetal-rulebook@1.2.0"),
                                             ("darkmetal-rulebook@1.0.0", "darkmetal-rulebook@1.0.0")])
def test_a_user_pack_extends_a_range_settled_on_the_newest_match_and_recorded_exactly(packs, wanted, settled):
    published = publish(extending(wanted), "kit.yaml")
    assert published.extends == settled
    assert Pack.objects.get(name="range-kit").extends.ref == settled


def test_a_range_no_loaded_version_meets_is_refused_naming_it(packs):
    with pytest.raises(PackError, match="no loaded version of darkmetal-rulebook meets \\^2.0"):
        publish(extending("darkmetal-rulebook@^2.0"), "kit.yaml")
    assert not Pack.objects.filter(name="range-kit").exists()
