"""The JSON API's answers as pydantic models. The views build their replies through them and the OpenAPI document
(builder/openapi.py) is generated from them, so what is served and what is published cannot drift apart.

A build document and a report's `detail` differ by kind: here they are any object, and the document describes them
from the registry, as one of every kind's document model and Detail."""
from __future__ import annotations

from typing import Any, Literal

from django.http import JsonResponse
from pydantic import BaseModel, ConfigDict, Field, RootModel


class BuildDocument(RootModel[dict[str, Any]]):
    """A build document of any kind; the OpenAPI document names each kind's (builder/openapi.py)."""


class KindDetail(RootModel[dict[str, Any]]):
    """What a kind's rules work out besides issues, stats and meters; the OpenAPI document names each kind's."""


def _absent(value: Any) -> bool:
    return value is None


class Answer(BaseModel):
    """An answer's body; `response` serves it as JSON."""

    model_config = ConfigDict(extra="forbid")

    def response(self, status: int = 200) -> JsonResponse:
        return JsonResponse(self.model_dump(mode="json", by_alias=True), status=status)


class Problem(Answer):
    path: str = Field(description="where: a field of the document (`gear[3].item`), or `(document)`")
    message: str


class ErrorAnswer(Answer):
    """Every refusal and failure under /api/, whatever answered it: a view, the URL resolver or a middleware."""

    status: int = Field(description="the HTTP status code, repeated")
    reason: str
    problems: list[Problem] = Field(description="what could not be read, field by field; often empty")
    request_id: str = Field(description="the id the server's log names this request by")


class Issue(Answer):
    code: str = Field(description="the rule ID the issue is about")
    severity: Literal["error", "warning", "info"]
    path: str
    message: str
    hint: str


class Stat(Answer):
    label: str
    value: Any
    unit: str
    explain: str


class Meter(Answer):
    key: str
    label: str
    used: int
    limit: int
    unit: str
    path: str
    over: bool
    hidden: str | None = Field(None, exclude_if=_absent, description="what else counts that is secret, if any")


class Report(Answer):
    """A checked build's verdict: legal when no issue is an error. `detail` is what the kind's rules work out
    besides; its fields depend on the kind."""

    legal: bool
    issues: list[Issue]
    stats: dict[str, Stat]
    meters: list[Meter]
    detail: KindDetail

    @classmethod
    def of(cls, report: Any) -> Report:
        return cls.model_validate(report.as_dict())


class BuildLinks(Answer):
    edit_url: str = Field(description="the builder page; it holds the edit token: keep it private")
    share_url: str
    pdf_url: str


class SavedBuild(BuildLinks):
    share_id: str
    edit_token: str = Field(description="the credential for PUT and DELETE /api/builds/{ref}")
    version: int
    report: Report


class UnknownId(Answer):
    id: str
    where: str


class ImportedBuild(SavedBuild):
    packs: list[str] = Field(description="the packs read, base first")
    missing_packs: list[str] = Field(description="the packs the file names that are not loaded here")
    unknown: list[UnknownId] = Field(description="the ids no loaded pack knows, left out of the build")


class UpdatedBuild(BuildLinks):
    version: int
    report: Report


class BuildRead(Answer):
    build: BuildDocument
    version: int
    share_id: str
    share_url: str
    report: Report


class ActiveRuleset(Answer):
    key: str
    name: str
    status: Literal["active"]
    tagline: str
    kinds: list[str]
    pack: str | None = Field(description="its newest pack, none when none is loaded")
    categories: list[str]


class ComingRuleset(Answer):
    key: str
    name: str
    status: Literal["coming"]
    tagline: str


class Rulesets(Answer):
    rulesets: list[ActiveRuleset | ComingRuleset]


class Item(Answer):
    """A pack item: its key, name and pack category, and its own fields, which depend on the category."""

    model_config = ConfigDict(extra="allow")
    key: str
    name: str
    category: str = Field(description="the pack's category; an item's own field of that name is `item_category`")


class Items(Answer):
    ruleset: str
    pack: str
    source: str
    items: list[Item]


class Examples(Answer):
    ruleset: str
    pack: str
    examples: list[BuildDocument]


class HouseRuleOption(Answer):
    key: str
    kind: Literal["parameter", "reading"]
    label: str
    rule: str = Field(description="the rule ID it touches")
    text: str
    kinds: list[str] = Field(description="the kinds of build it changes")
    default: int | str
    low: int | None = Field(None, exclude_if=_absent, description="a parameter's lowest value")
    high: int | None = Field(None, exclude_if=_absent, description="a parameter's highest value")
    choices: dict[str, str] | None = Field(None, exclude_if=_absent, description="a reading's values and meanings")


class Severities(Answer):
    rules: list[str] = Field(description="the rule IDs whose severity a build's house rules may set")
    values: list[str]


class HouseRules(Answer):
    ruleset: str
    options: list[HouseRuleOption]
    severity: Severities


class ItemChange(Answer):
    key: str
    name: str
    change: Literal["changed", "removed", "added"]
    fields: dict[str, list[Any]] = Field(description="each changed field: [old, new]")


class Emptied(Answer):
    path: str
    key: str
    name: str


class PackChanges(Answer):
    model_config = ConfigDict(populate_by_name=True)
    moved_from: str = Field(alias="from")
    to: str
    items: list[ItemChange]
    issues_before: list[Issue]
    issues_after: list[Issue]
    emptied: list[Emptied] = Field(description="the places the new version has no item for, emptied")
    legal_before: bool
    legal_after: bool


class SkippedEntry(Answer):
    file: str
    category: str
    id: str
    field: str
    message: str


class PublishedPack(Answer):
    pack: str
    items: int = Field(description="the pack's own items, without those of the base it extends")
    extends: str | None
    status: Literal["created", "unchanged"]
    share_url: str
    edit_url: str
    edit_token: str = Field(description="the credential for POST /api/packs/{token}")
    skipped: list[SkippedEntry] = Field(description="the entries left out, each with why")


# A preview's odds depend on the kind's game: an object whose fields its previewer chooses.
PreviewAnswer = dict[str, Any]
