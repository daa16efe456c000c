"""Reading pack files: YAML in, pydantic-checked items out (no Django).

A pack is `name`, semver `version`, `ruleset`, `source` (starter or rulebook), `title`, then
`items` by category and optional `examples` (build documents without the pack header fields).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from .base import BuildError, Catalogue, PackError, PackHeader


@dataclass
class PackData:
    header: PackHeader
    catalogue: Catalogue
    examples: list[dict[str, Any]]
    content_hash: str
    path: str


def _field_errors(exc: ValidationError) -> str:
    return "; ".join(
        f"field '{'.'.join(str(p) for p in e['loc']) or '(item)'}': {e['msg']}" for e in exc.errors(include_url=False)
    )


def read_pack(path: Path, rulesets: dict[str, Any]) -> PackData:
    """Parse and check one pack file; every failure names the file, the item key and the field."""
    raw = path.read_bytes()
    where = path.name
    try:
        document = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        raise PackError(f"{where}: not valid YAML: {exc}") from None
    if not isinstance(document, dict):
        raise PackError(f"{where}: a pack is a mapping with name, version, ruleset, source and items")
    items_doc = document.get("items")
    examples = document.get("examples") or []
    header_doc = {k: v for k, v in document.items() if k not in ("items", "examples")}
    try:
        header = PackHeader.model_validate(header_doc)
    except ValidationError as exc:
        raise PackError(f"{where}: pack header: {_field_errors(exc)}") from None
    ruleset = rulesets.get(header.ruleset)
    if ruleset is None:
        raise PackError(f"{where}: unknown ruleset '{header.ruleset}'")
    if not isinstance(items_doc, dict):
        raise PackError(f"{where}: 'items' must map categories to lists of items")
    items: dict[str, Any] = {}
    categories: dict[str, str] = {}
    for category, entries in items_doc.items():
        model = ruleset.categories.get(category)
        if model is None:
            raise PackError(f"{where}: unknown category '{category}' (expected one of {', '.join(ruleset.categories)})")
        adapter = TypeAdapter(model)
        for position, entry in enumerate(entries or []):
            key = entry.get("key", f"#{position + 1}") if isinstance(entry, dict) else f"#{position + 1}"
            try:
                item = adapter.validate_python(entry)
            except ValidationError as exc:
                raise PackError(f"{where}: {category} item '{key}': {_field_errors(exc)}") from None
            if item.key in items:
                raise PackError(f"{where}: {category} item '{item.key}': key already used by a {categories[item.key]}")
            items[item.key] = item
            categories[item.key] = category
    catalogue = Catalogue(header.ruleset, header.ref, items, categories, header.title, header.source)
    if not isinstance(examples, list):
        raise PackError(f"{where}: 'examples' must be a list of builds")
    full_examples = []
    for position, example in enumerate(examples):
        if not isinstance(example, dict):
            raise PackError(f"{where}: example #{position + 1} is not a mapping")
        try:
            full_examples.append(ruleset.example_build(example, catalogue))
        except BuildError as exc:
            raise PackError(f"{where}: example #{position + 1} ({example.get('name', 'unnamed')}): {exc}") from None
    return PackData(header, catalogue, full_examples, hashlib.sha256(raw).hexdigest(), str(path))
