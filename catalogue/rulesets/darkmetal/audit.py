"""The effect-text audit: every number and condition in the Effect text of every DARK METAL table row, and what
models it (issue 12). Kept in `data/audit/<category>.yaml`, one mapping per pack item key:

    glute-capacitor:
      - {says: "2 Power", field: effects.power}
    functional-tail:
      - {says: "if Bulk = 0", rule: DM-R31, test: test_dm_r31_functional_tail_holds_only_at_bulk_0_on_the_final_build}
    hormone-booster:
      - {says: "Takes 1 Action", text_only: at_table}

`says` is the shortest fragment of the rulebook's Effect that holds the number or condition, never a whole
sentence. A claim is modelled by pack fields (whose values must hold the fragment's numbers, unless a named test
proves what the fields do), by a rule of the index with the test that proves it, or is text only for a reason
listed in `data/audit/reasons.yaml`.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..base import PackError, field_errors, read_yaml
from ..spec import EffectNote

AUDIT_DIR = Path(__file__).parent / "data" / "audit"
PACK_NAME = "darkmetal-rulebook"  # the pack whose items the audit is of
NUMBER_WORDS = {"once": 1, "twice": 2, "one": 1, "two": 2, "three": 3, "four": 4, "half": 0.5}
# A number as the tables print them (1, 0.5, 1d4+1, 10%, 1,000) or as a word.
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:d\d+(?:[+-]\d+)?)?%?|\b(?:" + "|".join(NUMBER_WORDS) + r")\b",
                    re.IGNORECASE)
# Words that make an effect conditional or restricted.
CONDITION = re.compile(r"\b(?:if|requires?|only|must|cannot|can not|unusable|not compatible|unless|except|when|while)\b"
                       r"|[<>=]", re.IGNORECASE)


class Reason(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str = Field(min_length=1, max_length=60)  # what the catalogue shows beside the fragment
    why: str = Field(min_length=1, max_length=400)


class Claim(BaseModel):
    """One number or condition of an Effect and what models it: pack fields, a rule and its test, or nothing."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    says: str = Field(min_length=1, max_length=80)
    field: str | list[str] | None = None  # dotted paths into the pack item: effects.traits.ath, modes.1.damage
    rule: str | None = Field(None, pattern=r"^DM-R\d+$")
    # The test that proves a rule claim; on a field claim, the test that proves a procedure the field names
    # (the Heavy Beam Rifle's dice rolled one at a time), whose words are no numbers a field could hold.
    test: str | None = Field(None, pattern=r"^test_\w+$")
    text_only: str | None = None  # a key of reasons.yaml
    note: str = Field("", max_length=300)  # why, where the mapping is not obvious

    @model_validator(mode="after")
    def _one_way(self) -> "Claim":
        ways = [self.field is not None, self.rule is not None, self.text_only is not None]
        if sum(ways) != 1:
            raise ValueError("give exactly one of field, rule (with test) or text_only")
        if self.rule is not None and self.test is None:
            raise ValueError("a rule claim names the test that proves it")
        if self.text_only is not None and self.test is not None:
            raise ValueError("a text-only claim has no test")
        return self

    @property
    def fields(self) -> list[str]:
        return [self.field] if isinstance(self.field, str) else list(self.field or [])


def numbers(text: str) -> list[float]:
    """The numbers of a fragment: 1d4+1 gives 1, 4 and 1; 'twice' gives 2; 10% gives 10."""
    found: list[float] = []
    for token in NUMBER.findall(text):
        word = NUMBER_WORDS.get(token.lower())
        if word is not None:
            found.append(word)
        else:
            found.extend(float(n.replace(",", "")) for n in re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", token))
    return found


@cache
def reasons() -> dict[str, Reason]:
    try:
        return {key: Reason.model_validate(reason) for key, reason in _read(AUDIT_DIR / "reasons.yaml").items()}
    except ValidationError as exc:
        raise PackError(f"reasons.yaml: {field_errors(exc)}") from None


@cache
def load() -> dict[str, dict[str, list[Claim]]]:
    """Every category's audit: {category: {item key: [claims]}}."""
    audit: dict[str, dict[str, list[Claim]]] = {}
    for path in sorted(AUDIT_DIR.glob("*.yaml")):
        if path.name == "reasons.yaml":
            continue
        entries = _read(path)
        audit[path.stem] = {}
        for key, claims in entries.items():
            if not isinstance(claims, list):
                raise PackError(f"{path.name}: {key}: a list of claims, or [] for an Effect with no numbers")
            try:
                audit[path.stem][key] = [Claim.model_validate(claim) for claim in claims]
            except ValidationError as exc:
                raise PackError(f"{path.name}: {key}: {field_errors(exc)}") from None
            unknown = {c.text_only for c in audit[path.stem][key]} - {None} - set(reasons())
            if unknown:
                raise PackError(f"{path.name}: {key}: text_only reason {sorted(unknown)} is not in reasons.yaml")
    return audit


def _read(path: Path) -> dict:
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise PackError(f"{path.name}: a mapping of item keys")
    return data


def notes(pack: str, category: str, key: str) -> list[EffectNote]:
    """How the builder handles each number and condition of an item's Effect, for the catalogue. The audit is
    of the rulebook pack: an item of another pack may share a key but not its numbers."""
    if pack != PACK_NAME:
        return []
    found = []
    for claim in load().get(category, {}).get(key, []):
        if claim.text_only is not None:
            reason = reasons()[claim.text_only]
            found.append(EffectNote(claim.says, "text_only", reason=reason.label, why=reason.why))
        elif claim.rule is not None:
            found.append(EffectNote(claim.says, "checked", rule=claim.rule))
        else:
            found.append(EffectNote(claim.says, "counted", fields=tuple(claim.fields)))
    return found
