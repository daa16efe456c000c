"""The DARK METAL effect-text audit (issue 12): every number and condition in the Effect text of every table of
the rulebook is modelled by a pack field, by a rule with its test, or marked text only with a reason. A table
row whose Effect gains a number, or a new item, fails here until someone says how it is handled."""
import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.darkmetal import audit
from tests.helpers.rulebooks import DIGESTS, named_tests

PACK = audit.AUDIT_DIR.parent / "rulebook.yaml"
# The rulebook's tables (their title lines) and the pack category each fills. The Base Trait tables carry the
# trait-level effects (Fate, Reserve dice, the Communication unlocks).
TABLES = {
    "Armor Table": "armor", "Splice Table": "splice", "Cyber Table": "cyber", "Items Table": "item",
    "Weapons Table": "weapon", "Attach Point Weapons": "attach_weapon", "Knowledge Skills Table": "knowledge_ability",
    "Communication Skills Table": "communication_skill", "Injury Table": "injury",
    **{trait: "trait_level" for trait in ("Athletics", "Precision", "Instinct", "Awareness", "Communication")},
}
NAME_COLUMN = {"injury": 1}


def rulebook() -> Path:
    digest = DIGESTS / "darkmetal.md"
    if not digest.exists():
        pytest.skip(f"the digest {digest} is not beside this checkout", allow_module_level=True)  # at collection
    seed = re.search(r"`\.\./(seeds/[^`]+)`", digest.read_text(encoding="utf-8")).group(1)
    if not (DIGESTS.parent / seed).exists():
        pytest.skip(f"the rulebook {DIGESTS.parent / seed} is not beside this checkout", allow_module_level=True)
    return DIGESTS.parent / seed


@cache
def effect_texts() -> dict[tuple[str, str], list[str]]:
    """{(category, row name): [Effect texts]} from the rulebook's tab-separated tables. The Armor Table has no
    Effect column: its starred notes (EvoSuit, Scramble Suit) are its effects."""
    lines = rulebook().read_text(encoding="utf-8").splitlines()
    texts: dict[tuple[str, str], list[str]] = {}
    for number, line in enumerate(lines):
        category = TABLES.get(line.split("\t")[0].strip()) if "\t" in line else None
        if category is None:
            continue
        header = lines[number + 1].split("\t")
        effect = header.index("Effect") if "Effect" in header else None
        for row in lines[number + 2:]:
            cells = row.split("\t")
            if len(cells) < 2:
                break
            text = cells[effect] if effect is not None else next((c for c in cells if c.startswith("*")), "")
            name = cells[NAME_COLUMN.get(category, 0)].strip()
            known = texts.setdefault((category, name), [])
            text = " ".join(text.lstrip("*").split())
            if text and text not in known:  # the four attribute tables print the same effects
                known.append(text)
    return texts


@cache
def pack_items() -> dict[str, dict[str, dict]]:
    items = yaml.safe_load(PACK.read_text(encoding="utf-8"))["items"]
    return {category: {item["key"]: item for item in entries} for category, entries in items.items()}


def rows() -> list[tuple[str, str, list[str]]]:
    """(category, pack key, Effect texts) for every pack item of an audited table."""
    found = []
    for category, items in pack_items().items():
        if category not in TABLES.values():
            continue
        for key, item in items.items():
            found.append((category, key, effect_texts().get((category, item["name"]))))
    return found


def resolve(item: dict, path: str):
    value = item
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value


def values_in(value) -> set[float]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, (int, float)):
        return {abs(float(value))}
    if isinstance(value, str):
        return set(audit.numbers(value))
    if isinstance(value, dict):
        return set().union(*(values_in(v) for v in value.values()), set()) if value else set()
    if isinstance(value, list):
        return set().union(*(values_in(v) for v in value), set()) if value else set()
    return set()


def uncovered(texts: list[str], claims: list[audit.Claim]) -> list[str]:
    """The numbers and conditions of the texts that no claim's fragment covers."""
    missing = []
    for text in texts:
        covered = [False] * len(text)
        for claim in claims:
            for hit in re.finditer(re.escape(claim.says), text, re.IGNORECASE):
                covered[hit.start():hit.end()] = [True] * (hit.end() - hit.start())
        for pattern in (audit.NUMBER, audit.CONDITION):
            missing += [f"{hit.group()!r} in …{text[max(0, hit.start() - 25):hit.end() + 25]}…"
                        for hit in pattern.finditer(text) if not all(covered[hit.start():hit.end()])]
    return missing


def test_the_rulebook_tables_are_read():
    texts = effect_texts()
    assert len([k for k in texts if k[0] == "weapon"]) == 23 and len([k for k in texts if k[0] == "cyber"]) == 16
    assert texts[("splice", "Functional Tail")] == ["Adds 0.5 to Athletics if Bulk = 0."]
    assert texts[("armor", "Scramble Suit")][0].startswith("Allows 100% Stealth")
    assert texts[("trait_level", "1½")][0] == "+1 Attribute Fate"


@pytest.mark.parametrize("category, key, texts", rows(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_number_and_condition_of_every_effect_is_modelled_or_text_only(category, key, texts):
    assert texts is not None, f"{category} {key}: no row of that name in the rulebook's tables"
    claims = audit.load().get(category, {}).get(key)
    if not texts:
        assert not claims, f"{key}: its row has no Effect text, so it needs no audit entry"
        return
    assert claims is not None, f"{category} {key}: its Effect is not audited in data/audit/{category}.yaml"
    assert not uncovered(texts, claims), f"{key}: neither modelled nor text only: {uncovered(texts, claims)}"
    item, index, tests = pack_items()[category][key], ACTIVE["darkmetal"].rules(), named_tests()
    for claim in claims:
        assert any(claim.says.lower() in t.lower() for t in texts), f"{key}: {claim.says!r} is not in its Effect"
        if claim.field is not None:
            values = [resolve(item, path) for path in claim.fields]
            assert all(v not in (None, False, [], {}, "") for v in values), f"{key}: {claim.fields} are not set"
            held = set().union(*(values_in(v) for v in values))
            if claim.test is not None:
                assert claim.test in tests, f"{key}: {claim.test} not found"
            else:
                assert set(audit.numbers(claim.says)) <= held, f"{key}: {claim.says!r} but {claim.fields} = {values}"
        elif claim.rule is not None:
            assert claim.rule in index and claim.test in tests, f"{key}: {claim.rule} / {claim.test} not found"


def test_every_audit_entry_is_an_item_of_its_table():
    for category, entries in audit.load().items():
        assert category in TABLES.values(), f"data/audit/{category}.yaml is not a table"
        assert set(entries) <= set(pack_items()[category]), set(entries) - set(pack_items()[category])


def test_an_uncovered_number_is_reported():
    """The check itself: a Tesla Cracker audit without its 2 Power fails, and names what is missing."""
    text = ["Use 2 Power to fire one Range 3 shot. Comes with 2 Power."]
    claims = [audit.Claim(says="Use 2 Power to fire one Range 3 shot", text_only="at_table")]
    assert uncovered(text, claims) == ["'2' in …Range 3 shot. Comes with 2 Power.…"]
    assert not uncovered(text, [*claims, audit.Claim(says="Comes with 2 Power", field="power")])


@pytest.mark.parametrize("claim, error", [
    ({"says": "2 Power"}, "exactly one"),
    ({"says": "2 Power", "field": "power", "text_only": "at_table"}, "exactly one"),
    ({"says": "2 Power", "rule": "DM-R47"}, "names the test"),
    ({"says": "2 Power", "text_only": "at_table", "test": "test_x"}, "has no test"),
    ({"says": "2 Power", "field": "power", "colour": "red"}, "Extra inputs"),
])
def test_a_malformed_claim_is_refused_naming_the_problem(claim, error):
    with pytest.raises(ValueError, match=error):
        audit.Claim.model_validate(claim)


def test_an_unknown_text_only_reason_is_refused(tmp_path, monkeypatch):
    (tmp_path / "reasons.yaml").write_text("at_table: {label: at the table, why: Spent during play.}\n")
    (tmp_path / "splice.yaml").write_text("cat-reflexes:\n  - {says: Adds 0.5, text_only: because}\n")
    monkeypatch.setattr(audit, "AUDIT_DIR", tmp_path)
    audit.load.cache_clear(), audit.reasons.cache_clear()
    try:
        with pytest.raises(PackError, match=r"cat-reflexes: text_only reason \['because'\]"):
            audit.load()
    finally:
        audit.load.cache_clear(), audit.reasons.cache_clear()



def test_the_catalogue_says_how_each_number_of_an_effect_is_handled(client, packs):
    """A player reading the Tesla Cracker sees that its 2 Power is counted and its shots are theirs to track;
    the rule-checked fragment links to its rule's entry."""
    page = client.get("/catalogue/darkmetal/", {"category": "weapon", "q": "Tesla"}).content.decode()
    assert "How the builder counts it" in page
    assert "<q>Comes with 2 Power</q> · <span class=\"counted\">counted</span> (Power)" in page
    assert f"· <span class=\"muted\">{audit.reasons()['at_table'].label}</span>" in page
    tail = client.get("/catalogue/darkmetal/", {"category": "splice", "q": "Functional Tail"}).content.decode()
    assert 'href="/catalogue/darkmetal/rules/#DM-R31"' in tail


def test_notes_are_only_for_the_rulebook_packs_items():
    assert audit.notes(audit.PACK_NAME, "weapon", "tesla-cracker")
    assert audit.notes("house-rules", "weapon", "tesla-cracker") == []
