"""MEGA MERCS as text to paste (Kind.summary, /s/<id>.txt and .md): a unit's stat line and what each hard-point
mounts, a company's units by their links, driven by the starter pack's examples."""
import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.megamercs.schema import LOCATION_LABELS

pytestmark = pytest.mark.django_db
SHORT = 1500  # characters: a chat message


def examples(kind):
    return [dict(e) for e in latest_pack("megamercs", kind).examples if e["kind"] == kind]


def summarised(document):
    checked = store.check(document)
    return checked, checked.kind.summarise(checked.build, checked.catalogue, checked.report, checked.linked)


def where(hardpoint) -> str:
    location = LOCATION_LABELS[hardpoint.location]
    return hardpoint.name if hardpoint.name == location else f"{hardpoint.name} ({location})"


def test_a_unit_gives_its_chassis_stat_line_and_credits_as_its_report_has_them(packs):
    for example in examples("unit"):
        checked, summary = summarised(example)
        stats, chassis = dict(summary.stats), checked.catalogue.items[example["chassis"]]
        report = checked.report.stats
        assert stats["Chassis"] == f"{report['chassis'].value} ({chassis.role})"
        assert stats["HP"] == report["hp"].value and stats["Agility"] == report["agility"].value
        assert stats["Movement"] == f"{report['movement'].value} hexes" and stats["E-War"] == report["ewar"].value
        assert stats["Credits"] == f"{report['credits'].value} cr"
        assert 4 <= len(stats) <= 7, example["name"]


def test_a_unit_lists_what_each_hardpoint_mounts_with_its_ammunition_and_what_is_integrated(packs):
    for example in examples("unit"):
        checked, summary = summarised(example)
        parts, items = dict(summary.parts), checked.catalogue.items
        chassis = items[example["chassis"]]
        for hardpoint in chassis.hardpoints:
            mounted = [m for m in example["mounts"] if m["hardpoint"] == hardpoint.key]
            assert (where(hardpoint) in parts) == bool(mounted), (example["name"], hardpoint.key)
            for mount in mounted:
                name = items[mount["item"]].name
                assert (f"{name} ({mount['ammo']})" if mount.get("ammo") else name) in parts[where(hardpoint)]
        assert parts.get("Integrated", "") == ", ".join(items[k].name for k in chassis.integrated)
        assert len(summary.parts) == len({m["hardpoint"] for m in example["mounts"]}) + bool(chassis.integrated)
    assert any("(AP)" in what for e in examples("unit") for _, what in summarised(e)[1].parts)


def test_a_company_lists_each_unit_with_its_chassis_hp_and_credits_and_its_support(packs):
    for example in examples("company"):
        checked, summary = summarised(example)
        items = checked.catalogue.items
        assert [m.name for m in summary.members] == [u["unit"]["name"] for u in example["units"]]
        for member, row, entry in zip(summary.members, checked.report.detail.roster, example["units"]):
            chassis = items[entry["unit"]["chassis"]]
            assert member.line == f"{chassis.name} ({chassis.role}) · HP {chassis.hp} · {row.credits} cr"
            assert member.share_id == ""  # written in: nothing to link
        stats, parts = dict(summary.stats), dict(summary.parts)
        # A budget's meter shows the credits in the text; without one, the stats do.
        assert stats.get("Credits") == (None if example.get("credit_budget")
                                        else f"{checked.report.stats['credits'].value} cr")
        assert stats["Units"] == len(example["units"])
        for field, label in (("drones", "Drones"), ("infantry", "Infantry"), ("aircraft", "Aircraft")):
            for entry in example.get(field, []):
                assert items[entry.get("drone") or entry["item"]].name in parts[label], (example["name"], label)
            assert (label in parts) == bool(example.get(field))
    iron = summarised(next(e for e in examples("company") if e["name"] == "Iron Kestrels"))[1]
    assert dict(iron.parts)["Drones"] == "Mule, 2 × Gnat (docked)"


def saved_company(units):
    """A company of saved units (each by its link) and the first example's written-in units."""
    written = examples("company")[0]
    return {**written, "units": [{"build": b.share_id} for b in units] + written["units"]}


def test_saved_units_are_listed_by_their_share_id_and_a_deleted_one_does_not_crash(client, packs):
    units = [store.create(store.check(e)) for e in examples("unit")[:2]]
    company = store.create(store.check(saved_company(units)))
    checked, summary = summarised(company.document)
    for member, unit in zip(summary.members, units):
        assert (member.name, member.share_id) == (unit.name, unit.share_id)
        assert member.line.endswith(f" · {checked.linked[unit.share_id].report.stats['credits'].value} cr")
    plain = client.get(f"/s/{company.share_id}.txt").content.decode()
    for unit in units:
        assert f"  - {unit.name} · " in plain and f"http://testserver/s/{unit.share_id}/" in plain
    gone = units[0].share_id
    units[0].delete()
    checked, summary = summarised(company.document)
    assert summary.members[0].name == f"missing build {gone}" and summary.members[0].share_id == ""
    assert summary.members[1].share_id == units[1].share_id
    plain = client.get(f"/s/{company.share_id}.txt").content.decode()
    assert f"missing build {gone}" in plain and f"/s/{gone}/" not in plain and "HP-LINK" in plain
