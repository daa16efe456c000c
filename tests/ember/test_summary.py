"""Ember as text to paste (Kind.summary, /s/<id>.txt and .md): a Mech's values, its Part cards by slot and its
Pilot, a squad's Mechs by their links and its Drones, driven by the starter pack's examples. E-R25: the text is the
share link's, so a secret Part is named only on the reveal link (tests/ember/test_secret_surfaces.py holds every
surface, the text among them, to that)."""
import pytest

from builder import store
from catalogue.loader import latest_pack
from catalogue.rulesets.ember.places import SLOT_LABELS

pytestmark = pytest.mark.django_db
SHORT = 1500  # characters: a chat message
VALUES = ("dodge", "electronic", "maneuver", "link", "commands", "ammo")


def examples(kind):
    return [dict(e) for e in latest_pack("ember", kind).examples if e["kind"] == kind]


def summarised(document):
    checked = store.check(document)
    return checked, checked.kind.summarise(checked.build, checked.catalogue, checked.report, checked.linked)


def shown(build):
    """The summary of what the build's share link shows (its public view, as /s/<id>.txt reads it)."""
    return summarised(store.public_view(build).document)


def test_a_mech_gives_its_values_as_its_report_has_them(packs):
    for example in examples("mech"):
        checked, summary = summarised(example)
        assert summary.stats == tuple((checked.report.stats[k].label, checked.report.stats[k].value) for k in VALUES)


def test_a_mech_lists_the_part_card_in_each_slot_and_its_pilot(packs):
    for example in examples("mech"):
        checked, summary = summarised(example)
        items, parts = checked.catalogue.items, dict(summary.parts)
        assert [where for where, _ in summary.parts] == [SLOT_LABELS[s] for s in SLOT_LABELS if s in example["parts"]] \
            + ["Pilot"]
        for slot, key in example["parts"].items():
            assert parts[SLOT_LABELS[slot]] == items[key].name
        pilot = items[example["pilot"]]
        assert parts["Pilot"] == f"{pilot.name}, ID {pilot.id_number}"


def test_a_handheld_part_on_its_discard_side_says_so(packs):
    example = examples("mech")[0]
    checked, _ = summarised(example)
    slot = next(s for s, k in example["parts"].items() if checked.catalogue.items[k].handheld)
    checked, summary = summarised({**example, "discarded": [slot]})
    assert dict(summary.parts)[SLOT_LABELS[slot]] == f"{checked.catalogue.items[example['parts'][slot]].name} " \
                                                     f"(Discard side)"


def test_e_r25_a_secret_part_is_a_filled_slot_on_the_share_link_and_named_on_the_reveal_link(client, packs):
    example = next(e for e in examples("mech") if e.get("secret"))
    build = store.create(store.check(example))
    checked, summary = shown(build)
    [slot] = example["secret"]
    hidden = checked.catalogue.items[example["parts"][slot]].name
    assert dict(summary.parts)[SLOT_LABELS[slot]] == "secret Part"
    assert summary.stats == tuple((checked.report.stats[k].label, checked.report.stats[k].value) for k in VALUES)
    for suffix in ("txt", "md"):
        text = client.get(f"/s/{build.share_id}.{suffix}").content.decode()
        assert "secret Part" in text and hidden.lower() not in text.lower() and example["parts"][slot] not in text
        revealed = client.get(f"/s/{build.share_id}.{suffix}?reveal={build.reveal_token}").content.decode()
        assert hidden in revealed


def test_a_squad_lists_each_mech_with_its_pilot_parts_and_points_and_its_drones(packs):
    for example in examples("squad"):
        checked, summary = summarised(example)
        items = checked.catalogue.items
        assert [m.name for m in summary.members] == [m["mech"]["name"] for m in example["mechs"]]
        for member, row, entry in zip(summary.members, checked.report.detail.roster, example["mechs"]):
            pilot = items[entry["mech"]["pilot"]]
            assert member.line == f"{pilot.name}, ID {pilot.id_number} · {len(entry['mech']['parts'])} Parts · " \
                                  f"{row.points} pts"
            assert member.share_id == ""  # written in: nothing to link
        drones = dict(summary.parts)["Drones"]
        for entry in example["drones"]:
            name = items[entry["drone"]].name
            assert (f"{entry['count']} × {name}" if entry["count"] > 1 else name) in drones
        assert dict(summary.stats) == {"Mechs": len(example["mechs"]),
                                       "Drones": sum(d["count"] for d in example["drones"])}


def test_saved_mechs_are_listed_by_their_share_id_secrets_counted_and_a_deleted_one_does_not_crash(client, packs):
    mechs = [store.create(store.check(e)) for e in examples("mech")]
    secret = next(b for b in mechs if b.document.get("secret"))
    squad = store.create(store.check({**examples("squad")[0], "mechs": [{"build": b.share_id} for b in mechs]}))
    checked, summary = summarised(squad.document)
    assert [(m.name, m.share_id) for m in summary.members] == [(b.name, b.share_id) for b in mechs]
    for member, row in zip(summary.members, checked.report.detail.roster):
        assert f" · {row.points} pts" in member.line
    line = summary.members[mechs.index(secret)].line
    assert line.endswith(f" pts + {len(secret.document['secret'])} secret Part")
    plain = client.get(f"/s/{squad.share_id}.txt").content.decode()
    hidden = [checked.catalogue.items[secret.document["parts"][s]].name for s in secret.document["secret"]]
    assert all(name.lower() not in plain.lower() for name in hidden)
    for mech in mechs:
        assert f"  - {mech.name} · " in plain and f"http://testserver/s/{mech.share_id}/" in plain
    gone = mechs[0].share_id
    mechs[0].delete()
    _, summary = summarised(squad.document)
    assert (summary.members[0].name, summary.members[0].share_id) == (f"missing Mech {gone}", "")
    assert [m.share_id for m in summary.members[1:]] == [b.share_id for b in mechs[1:]]
    plain = client.get(f"/s/{squad.share_id}.txt").content.decode()
    assert f"missing Mech {gone}" in plain and f"/s/{gone}/" not in plain and "HP-LINK" in plain
