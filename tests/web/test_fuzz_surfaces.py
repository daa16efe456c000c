"""Property-based fuzzing (Hypothesis) of every surface that reads what someone else wrote, beyond the build documents
of tests/web/test_fuzz.py: pack uploads in every format (API and upload page), publishing new versions, pack versions,
COMP/CON and build imports, house rules and their presets, upgrade changes, drafts and the builders' action buttons.
No input gives a 5xx, every 4xx JSON answer says why, and a refused request saves nothing; what an upload loaded
opens (its share page, its examples in the builder) and stores no number of over 30 digits.

The upload and import tests let Hypothesis combine hostile pieces, then send every hand-made piece once (25 random
draws could miss one). The example budget is fixed so CI time stays bounded; FUZZ_EXAMPLES=2000 runs a deeper
profile, and FUZZ_REPORT=path writes, per surface, the inputs sent and the statuses answered as JSON.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import os
import struct
import warnings
import zipfile
from collections import Counter
from itertools import count
from urllib.parse import quote, urlencode, urlparse

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.models import Build, HouseRulePreset
from catalogue.models import Pack, UserPack
from catalogue.rulesets import ACTIVE
from catalogue.rulesets.packs import MAX_UNZIPPED
from catalogue.rulesets.reading import MAX_DIGITS
from tests.helpers.fuzzing import IDS, KINDS, _at, builder_form, documents, paths
from tests.lancer.compcon_exports import export
from tests.lancer.factories import FRAME, WEAPON
from tests.web.uploads import BASE, DM_HEADER, SPIKE, flat

pytestmark = pytest.mark.django_db
BUDGET = int(os.environ.get("FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=BUDGET, deadline=None, derandomize=not os.environ.get("FUZZ_EXAMPLES"),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
STATUSES: Counter = Counter()  # (surface, status) -> requests; a view that raised counts as 500

# --- hostile pieces ------------------------------------------------------------------------------------------------

HUGE = "9" * 5000  # an integer past Python's 4,300-digit conversion limit
LONG = "x" * 100_000  # an over-long string


def nest(levels: int, start: str = "[", end: str = "]", inner: str = "") -> str:
    return start * levels + inner + end * levels


class Raw(str):
    """Text written into a JSON or YAML document as it stands, unquoted: 9…9, NaN, an alias, 2,000 brackets."""


# Each list starts with a short piece: Hypothesis shrinks a failing draw towards the first.
JSON_RAW = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" * (MAX_DIGITS + 1), HUGE, "-" + HUGE, nest(30),
            nest(41), nest(2000), nest(41, '{"a": ', "}", "1"), '"\\u0000"', '{"\\u0000": 1}', '"\\ud800"',
            f'"{LONG}"', "[1,", '[{"a": 1}, 2]']
# A billion laughs in one line: six anchors of ten aliases each expand to a million values.
LAUGHS = "[&a [x,x,x,x,x,x,x,x,x,x], " + ", ".join(f"&{b} [{', '.join([f'*{a}'] * 10)}]"
                                                   for a, b in zip("abcde", "bcdef")) + "]"
YAML_RAW = [".nan", "-.inf", "1e999", HUGE, "0x" + "f" * 5000, "9_" * 2600 + "9", nest(30), nest(41), nest(2000),
            LAUGHS, "&s [1, *s]", "[&m {a: 1}, {<<: *m, b: 2}]", "{<<: *nowhere}", '"\\0"', '"\\ud800"',
            "!!binary //79", "!!set {a, b}", "2001-12-14", "!!python/name:os.system", f'"{LONG}"', "[{a: 1}, 2]"]
# CSV cells are text: a number the schema converts, or a list or object written as JSON.
CSV_RAW = ["NaN", "inf", "1e999", HUGE, "9_" * 1990 + "9", "\x00", LONG, nest(30), nest(41), nest(2000),
           '{"a": 1e999}', '["\\ud800"]', '{"\\u0000": 1}', "=cmd|'/c calc'!A0", "'=1+1", '"', "a,b\nc"]

# Text a form can carry (the test client sends it as UTF-8, so no lone surrogate here).
texts = st.one_of(st.text(max_size=20), st.sampled_from(
    ["", "\x00", "a\x00b", "<script>alert(1)</script>", "\"'`; DROP TABLE builder_build; --", "\u202eevil\u200f",
     "²", "٣", "-1", "1e9", "NaN", HUGE, LONG]))
numbers = st.one_of(st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.floats(allow_nan=True),
                    st.sampled_from([0, -1, 10 ** MAX_DIGITS, float("inf")]))
# Values of a document: also a lone surrogate, which JSON writes as \ud800 and YAML as \uD800.
leaves = st.one_of(st.none(), st.booleans(), numbers, texts, st.just("\ud800"))
values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)
keys = st.one_of(st.text(min_size=1, max_size=8),
                 st.sampled_from(["\x00", "<<", "id", "key", "name", "a.b", "x" * 300]))


def mutated(data, document, raws: list[str]):
    """The document with one to three places changed: a value replaced, or a key added, by a hostile value or a
    raw token of the format."""
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3))):
        hostile = data.draw(st.one_of(values, st.sampled_from(raws).map(Raw)))
        places = list(paths(document))
        if places and data.draw(st.booleans()):
            place = data.draw(st.sampled_from(places))
            _at(document, place[:-1])[place[-1]] = hostile
        else:
            parents = [p for p in [(), *places] if isinstance(_at(document, p), dict)]
            _at(document, data.draw(st.sampled_from(parents)))[data.draw(keys)] = hostile
    return document


def placed(document, place: tuple, value):
    document = copy.deepcopy(document)
    _at(document, place[:-1])[place[-1]] = value
    return document


# --- writing documents in each format, raw tokens and all ---------------------------------------------------------

def to_json(value) -> str:
    if isinstance(value, Raw):
        return value
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_json(v) for v in value) + "]"
    return json.dumps(value)  # NaN and Infinity as Python writes them


def to_yaml(value) -> str:
    """YAML from safe_dump, each Raw put in afterwards where a mark (RAW<n>X) stood."""
    raws: list[str] = []

    def marked(node):
        if isinstance(node, Raw):
            raws.append(node)
            return f"RAW{len(raws) - 1}X"
        if isinstance(node, dict):
            return {marked(k): marked(v) for k, v in node.items()}
        return [marked(v) for v in node] if isinstance(node, list) else node

    text = yaml.safe_dump(marked(value), sort_keys=False)
    for i, raw in enumerate(raws):
        text = text.replace(f"RAW{i}X", raw)
    return text


def to_csv(rows) -> str:
    """A header row of every column, then a row per item; a cell that is not text is written as JSON."""
    rows = [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []
    columns = list(dict.fromkeys(str(column) for row in rows for column in row))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([cell if isinstance(cell, str) else json.dumps(cell) for cell in
                         (row.get(column, "") for column in columns)])
    return out.getvalue()


def encoded(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate as the bytes no UTF-8 reader takes


METHODS = [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, zipfile.ZIP_STORED]
HARMS = ["duplicate", "flip", "zero", "cut"]


def zipped(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED, harm: str = "") -> bytes:
    """A zip of `files`. harm: "duplicate" writes the first name twice; "flip" and "zero" break the first member's
    compressed data after its local header (a corrupt deflate, bzip2 or LZMA stream, or a CRC that fails); "cut"
    loses the second half of the archive."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name: here it is the point
        with zipfile.ZipFile(out, "w", method) as archive:
            for name, data in files.items():  # zipfile cuts a name at NUL, and refuses an empty one
                archive.writestr(name.partition("\x00")[0] or "unnamed", data)
            if harm == "duplicate":
                archive.writestr(next(iter(files), "pack.yaml") or "unnamed", b"again")
    raw = bytearray(out.getvalue())
    if harm in ("flip", "zero") and files:
        size, name_length, extra_length = struct.unpack("<I4xHH", raw[18:30])  # the first local header
        start = 30 + name_length + extra_length
        middle, end = start + size // 2, start + size
        if harm == "zero":
            raw[middle:end] = bytes(end - middle)
        else:
            raw[middle:middle + 8] = bytes(b ^ 0xFF for b in raw[middle:middle + 8])
    elif harm == "cut":
        raw = raw[:len(raw) // 2]
    return bytes(raw)


# --- well-formed packs to start from (tests/web/uploads.py, tests/lancer/factories.py) --------------------------

NAMES = count()


def fresh() -> str:
    """A pack name not taken yet, so that a valid upload loads (201) rather than meeting the last one (409)."""
    return f"fz-{next(NAMES)}"


def base(fmt: str, lancer: bool = False) -> dict:
    """A valid pack as a document of its format: DARK METAL (a weapon on the rulebook, with an example build) or
    LANCER (whose items keep fields they do not model: a place for anything). A zip (always DARK METAL) or an .lcp
    (always LANCER) is {file name: content}."""
    if lancer and fmt != "zip":
        header, item = {"name": fresh(), "version": "1.0.0", "ruleset": "lancer", "title": "Fuzz kit"}, dict(WEAPON)
    else:
        header, item = {**DM_HEADER, "name": fresh(), "extends": BASE}, dict(SPIKE)
    if fmt == "yaml":
        pack = {**header, "items": {"weapon": [item]}}
        return pack if lancer else {**pack, "examples": [{"name": "Fz", "house_rules": {}}]}
    if fmt == "csv":
        return {"query": {**header, "category": "weapon"}, "rows": [flat(item)]}
    if fmt == "zip":
        return {"pack.yaml": header, "weapon.csv": [flat(item)],
                "armor.yaml": [{"key": "hide-coat", "name": "Hide Coat", "cost": 60, "ahp": 1}]}
    return {"lcp_manifest.json": {"name": fresh(), "author": "us", "version": "1.1", "description": "A kit."},
            "weapons.json": [dict(WEAPON)], "frames.json": [dict(FRAME)], "npc_classes.json": []}


FORMATS = ["yaml", "csv", "zip", "lcp"]
RAWS = {"yaml": YAML_RAW, "csv": CSV_RAW, "zip": YAML_RAW + CSV_RAW, "lcp": JSON_RAW}
FILENAMES = {"yaml": "kit.yaml", "csv": "weapon.csv", "zip": "kit.zip", "lcp": "kit.lcp"}
# Where every hand-made piece goes once, through the API: (format, LANCER?, place, pieces). A field a LANCER item
# does not model is kept as it came; DARK METAL's `to_hit` is a whole number without bounds; an example's house
# rules are free-form.
SPOTS = [("yaml", True, ("items", "weapon", 0, "fz"), YAML_RAW),
         ("yaml", False, ("examples", 0, "house_rules", "fz"), YAML_RAW),
         ("csv", True, ("rows", 0, "fz"), CSV_RAW),
         ("csv", False, ("rows", 0, "to_hit"), CSV_RAW),
         ("zip", False, ("armor.yaml", 0, "ahp"), YAML_RAW),
         ("lcp", True, ("weapons.json", 0, "fz"), JSON_RAW)]
# ...and through the upload page: the item's key, which every problem about the item repeats on the page.
KEYS = [("yaml", True, ("items", "weapon", 0, "id"), YAML_RAW),
        ("csv", True, ("rows", 0, "id"), CSV_RAW),
        ("zip", False, ("armor.yaml", 0, "key"), YAML_RAW),
        ("lcp", True, ("weapons.json", 0, "id"), JSON_RAW)]
# An example build's house rules: its pack's upload takes them, a builder opening the example checks them.
EXAMPLE_HOUSE_RULES = [{"nope": 1}, {"trait-budget": 10 ** 6}, {"severity": {"DM-R18": "loud"}}]


def packed(fmt: str, document, method: int = zipfile.ZIP_DEFLATED, harm: str = "") -> tuple[bytes, str, dict]:
    """The upload: body, media type and query (a lone CSV's header; an .lcp's file name)."""
    if fmt == "yaml":
        return encoded(to_yaml(document)), "application/yaml", {}
    if fmt == "csv":
        query = document.get("query") if isinstance(document.get("query"), dict) else {}
        return encoded(to_csv(document.get("rows"))), "text/csv", {k: v if isinstance(v, str) else to_json(v)
                                                                   for k, v in query.items()}
    files = {str(name): encoded(to_csv(content) if str(name).endswith(".csv") else to_yaml(content)
                                if str(name).endswith((".yaml", ".yml")) else to_json(content))
             for name, content in document.items()}
    return zipped(files, method, harm), "application/zip", {"filename": "kit.lcp"} if fmt == "lcp" else {}


def query_of(fields: dict) -> str:
    return urlencode(fields, encoding="utf-8", errors="surrogatepass")


# --- what every answer must be ------------------------------------------------------------------------------------

@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    path = os.environ.get("FUZZ_REPORT")
    if path:
        surfaces: dict[str, dict] = {}
        for (surface, status), n in sorted(STATUSES.items(), key=str):
            entry = surfaces.setdefault(surface, {"inputs": 0, "statuses": {}})
            entry["inputs"] += n
            entry["statuses"][str(status)] = n
        with open(path, "w") as out:
            json.dump(surfaces, out, indent=1)


def rows() -> tuple[int, ...]:
    return Pack.objects.count(), UserPack.objects.count(), Build.objects.count(), HouseRulePreset.objects.count()


def sent(surface: str, request, *args, **kwargs):
    """One request (client.get or client.post), checked: below 500, a JSON refusal gives its reason, and a refusal
    saved no pack, uploaded pack, build or preset."""
    before = rows()
    try:
        response = request(*args, **kwargs)
    except Exception:
        STATUSES[surface, 500] += 1  # the test client raises what the view raised, which a browser sees as a 500
        raise
    STATUSES[surface, response.status_code] += 1
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        if response["Content-Type"].startswith("application/json"):
            assert response.json()["reason"], response.content[:500]
        assert rows() == before, f"a refused request ({response.status_code}) saved something"
    return response


def numbers_in(value):
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for inner in value:
            yield from numbers_in(inner)
    elif isinstance(value, int):
        yield value


def opened(client, share_url: str) -> None:
    """What an upload loaded works: its numbers are as bounded as any reader's (reading.py's MAX_DIGITS), and its
    share page and each example in its builder open (the share page puts the pack in this browser's packs)."""
    path = urlparse(share_url).path
    sent("uploaded-pages", client.get, path)
    pack = UserPack.objects.get(share_id=path.strip("/").split("/")[-1]).newest()
    stored = [*pack.items.values_list("stats", flat=True), pack.examples]
    assert all(abs(n) < 10 ** MAX_DIGITS for n in numbers_in(stored)), f"{pack.ref} stores a number of over 30 digits"
    for i, example in enumerate(pack.examples):
        sent("uploaded-pages", client.get, f"/new/{pack.ruleset.key}/{example['kind']}/",
             {"pack": pack.ref, "example": i})


def uploaded(client, fmt: str, document, method: int = zipfile.ZIP_DEFLATED, harm: str = "", surface="packs-api"):
    """POST /api/packs with the pack as the body (a lone CSV's header in the query, ?filename=kit.lcp for an .lcp)."""
    body, media, query = packed(fmt, document, method, harm)
    response = sent(surface, client.post, "/api/packs?" + query_of(query), body, content_type=media)
    if response.status_code in (200, 201):
        opened(client, response.json()["share_url"])
    return response


# --- the surfaces -------------------------------------------------------------------------------------------------

def test_pack_uploads_in_every_format_through_the_api(client, packs):
    @FUZZ
    @given(data=st.data())
    def run(data):
        fmt = data.draw(st.sampled_from(FORMATS))
        document = mutated(data, base(fmt, data.draw(st.booleans())), RAWS[fmt])
        harm = data.draw(st.one_of(st.just(""), st.sampled_from(HARMS))) if fmt in ("zip", "lcp") else ""
        uploaded(client, fmt, document, data.draw(st.sampled_from(METHODS)), harm)

    run()
    for fmt, lancer, place, pieces in SPOTS:  # whatever the budget drew, every hand-made piece once
        for piece in pieces:
            uploaded(client, fmt, placed(base(fmt, lancer), place, Raw(piece)))
    for fmt in ("zip", "lcp"):
        for method in METHODS:
            for harm in HARMS:
                uploaded(client, fmt, base(fmt), method, harm)
    bomb = zipped({"pack.yaml": b" " * (MAX_UNZIPPED + 1)})  # a few kilobytes that unzip past the limit
    sent("packs-api", client.post, "/api/packs", bomb, content_type="application/zip")
    for rules in EXAMPLE_HOUSE_RULES:
        uploaded(client, "yaml", placed(base("yaml"), ("examples", 0, "house_rules"), rules))


def test_pack_upload_form(client, packs):
    """The browser's upload form (multipart): the file, and the fields a lone CSV's header comes in."""
    def post(fmt, document, fields, filename=None, method=zipfile.ZIP_DEFLATED, harm=""):
        body, _, query = packed(fmt, document, method, harm)
        header = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in query.items()}
        header.pop("filename", None)
        response = sent("packs-form", client.post, "/packs/",
                        {"file": SimpleUploadedFile(filename or FILENAMES[fmt], body), **header, **fields})
        if response.status_code == 302:
            sent("uploaded-pages", client.get, response["Location"])

    @FUZZ
    @given(data=st.data())
    def run(data):
        fmt = data.draw(st.sampled_from(FORMATS))
        document = base(fmt, data.draw(st.booleans()))
        if data.draw(st.booleans()):
            document = mutated(data, document, RAWS[fmt])
        fields = data.draw(st.dictionaries(st.sampled_from(
            ["owner_note", "ruleset", "name", "version", "title", "category", "extends"]), texts, max_size=3))
        filename = data.draw(st.one_of(st.just(FILENAMES[fmt]), st.sampled_from(
            ["kit", "kit.exe", "../../etc/kit.yaml", "kit.YAML", ".lcp", "x" * 300 + ".zip"]), texts))
        harm = data.draw(st.one_of(st.just(""), st.sampled_from(HARMS))) if fmt in ("zip", "lcp") else ""
        post(fmt, document, fields, filename, data.draw(st.sampled_from(METHODS)), harm)

    run()
    for fmt, lancer, place, pieces in KEYS:  # whatever the budget drew, every hand-made piece once
        for piece in pieces:
            post(fmt, placed(base(fmt, lancer), place, Raw(piece)), {})


SEMVERS = st.builds("{}.{}.{}".format, *[st.integers(0, 999_999)] * 3)  # valid, and most of them newer than 1.0.0
VERSIONS = st.one_of(
    st.sampled_from(["1.0.0", "1.0.1", "2.0.0", "1.0", "1", "v1.2.3", "=1.2.0", "^1.0.0", "~1.0.0", ">=1.0.0", "*",
                     "1.0.0-beta", "1.0.0\n", " 1.0.0 ", "١.٠.٠", "999999.999999.999999", "9999999.0.0",
                     HUGE + ".0.0", "1..0", ".", "", "0.0.0", "1.0.0.0", "\x00", LONG]),
    SEMVERS, st.text(alphabet="0123456789.v^~=<>* -", max_size=24), texts)


def test_publishing_new_versions(client, packs):
    """POST /api/packs/<edit token>, and the edit page's form, with versions and tokens of every kind."""
    name = "fz-published"
    token = sent("publish", client.post, "/api/packs", encoded(to_yaml({**base("yaml"), "name": name})),
                 content_type="application/yaml").json()["edit_token"]

    @FUZZ
    @given(data=st.data())
    def run(data):
        document = {**base("yaml"), "name": name, "version": data.draw(st.one_of(SEMVERS, VERSIONS, values))}
        if data.draw(st.booleans()):
            document = mutated(data, document, YAML_RAW)
        body = encoded(to_yaml(document))
        link = quote(data.draw(st.one_of(st.sampled_from(["nope", "x" * 5000, token.upper()]), texts))
                     if data.draw(st.booleans()) else token, safe="")  # half the time, the pack's own edit link
        if data.draw(st.booleans()):
            sent("publish", client.post, f"/api/packs/{link}", body, content_type="application/yaml")
        else:
            fields = data.draw(st.dictionaries(st.sampled_from(["owner_note", "version", "name", "extends"]), texts,
                                               max_size=2))
            sent("publish", client.post, f"/packs/edit/{link}/",
                 {"file": SimpleUploadedFile("kit.yaml", body), **fields})

    run()


def test_pack_versions(client, packs):
    """A version in a YAML header, a lone CSV's query, an .lcp manifest or its dependencies' ranges; then one asked
    for on the share page and through the items API."""
    @FUZZ
    @given(data=st.data())
    def run(data):
        fmt = data.draw(st.sampled_from(["yaml", "csv", "lcp"]))
        version = data.draw(st.one_of(VERSIONS, values) if fmt != "csv" else VERSIONS)
        document = base(fmt, data.draw(st.booleans()))
        if fmt == "yaml":
            document["version"] = version
        elif fmt == "csv":
            document["query"]["version"] = version
        else:
            document["lcp_manifest.json"]["version"] = version
            if data.draw(st.booleans()):
                document["lcp_manifest.json"]["dependencies"] = [
                    {"name": "lancer-starter", "version": data.draw(st.one_of(VERSIONS, values))}]
        response = uploaded(client, fmt, document, surface="versions")
        if response.status_code == 201:
            share, (name, _) = response.json()["share_url"], response.json()["pack"].split("@")
            asked = data.draw(VERSIONS)
            sent("versions", client.get, urlparse(share).path, {"version": asked})
            ruleset = Pack.objects.filter(name=name).values_list("ruleset__key", flat=True).first()
            sent("versions", client.get, f"/api/rulesets/{ruleset}/items",
                 {"pack_link": share, "pack": f"{name}@{asked}"})

    run()


def test_imports(client, packs):
    """COMP/CON pilots (and Hardpoint's own JSON) through POST /api/import/compcon and the /import/ page; an import
    that saved a build is followed to it (its page shows what was left out)."""
    pilot, own = export(), documents("lancer", "pilot")[0]

    def imported(document, channel="api", fmt="compcon", pack=""):
        body = to_json(document)
        if channel == "api":
            sent("imports", client.post, f"/api/import/{quote(fmt or 'compcon', safe='')}?" + query_of({"pack": pack}),
                 body, content_type="application/json")
            return
        upload = {"file": SimpleUploadedFile("pilot.json", encoded(body))} if channel == "file" else {"json": body}
        response = sent("imports", client.post, "/import/", {"format": fmt, "pack": pack, **upload})
        if response.status_code == 302:
            sent("imports", client.get, response["Location"])

    @FUZZ
    @given(data=st.data())
    def run(data):
        hardpoint = data.draw(st.booleans())
        document = mutated(data, own if hardpoint else pilot, JSON_RAW)
        fmt = data.draw(st.one_of(st.just("" if hardpoint else "compcon"), st.sampled_from(["compcon", "x"]), texts))
        pack = data.draw(st.one_of(st.just(""), st.sampled_from(
            ["lancer-starter@1.0.0", "darkmetal-rulebook@1.2.0", "nope@1.0.0", "/packs/nope1/", HUGE]), texts))
        imported(document, data.draw(st.sampled_from(["api", "file", "text"])), fmt, pack)

    run()
    for piece in JSON_RAW:  # whatever the budget drew, every hand-made piece once
        imported(placed(pilot, ("notes",), Raw(piece)))
        imported(placed(pilot, ("talents", 0, "id"), Raw(piece)), "file")
    imported(placed(pilot, ("talents", 0, "id"), Raw('"t_\\ud800"')), "file")  # an id no pack knows, left out


def test_house_rules(client, packs):
    """A build's `house_rules` through POST /api/validate; the builder form's hr-<key> and hr-severity-* fields; and
    a preset made of them (POST /house-rules/<ruleset>/presets)."""
    forms = {}

    @FUZZ
    @given(data=st.data())
    def run(data):
        ruleset, kind = data.draw(st.sampled_from(KINDS))
        spec = ACTIVE[ruleset]
        options, rules = spec.house_rules(), list(spec.rules())
        allowed = [v for o in options.values() for v in ([o.low - 1, o.high + 1, o.default] if o.kind == "parameter"
                                                          else [*o.choices, o.default])]
        hostile = st.one_of(st.sampled_from(allowed), values, st.sampled_from(JSON_RAW).map(Raw))
        severity = st.dictionaries(st.one_of(st.sampled_from(rules), st.text(max_size=25)), st.one_of(
            st.sampled_from(["error", "warning", "info", "off", "loud"]), hostile), max_size=3)
        chosen = data.draw(st.dictionaries(st.one_of(st.sampled_from([*options, "severity"]), keys),
                                           st.one_of(hostile, severity), max_size=4))
        house_rules = data.draw(st.one_of(st.just(chosen), hostile))
        document = {**documents(ruleset, kind)[0], "house_rules": house_rules}
        sent("house-rules", client.post, "/api/validate", to_json(document), content_type="application/json")

        if (ruleset, kind) not in forms:
            forms[ruleset, kind] = builder_form(client, ruleset, kind)
        url, fields, _ = forms[ruleset, kind]
        names = [f"hr-{key}" for key in options] + ["hr-severity-count"] + [
            f"hr-severity-{i}{part}" for i in (0, 1, 39, 40, 99999) for part in ("", "-rule")]
        form = {**fields, **data.draw(st.dictionaries(st.sampled_from(names), st.one_of(
            texts, st.sampled_from([*map(str, allowed), *rules, "40", "41", "0" * 5000]),
            st.integers(-10 ** 12, 10 ** 12).map(str)), max_size=5)), "action": "check"}
        sent("house-rules", client.post, url, form)
        form["hr-preset-name"] = data.draw(st.one_of(st.just("Tuesday table"), texts))
        slug = data.draw(st.one_of(st.just(ruleset), st.sampled_from(["nope", "x" * 200])))
        sent("presets", client.post, f"/house-rules/{slug}/presets", form)

    run()


def test_changes_and_upgrades(client, packs):
    """GET /api/builds/<share id>/changes?pack=, the builder's and share page's changes pages, and POST
    /b/<token>/upgrade, with every loaded pack's ref and hostile ones. One build is on an uploaded pack that has a
    newer version (the default comparison)."""
    deep = {**base("yaml", False), "name": "fz-changes"}
    token = sent("changes", client.post, "/api/packs", encoded(to_yaml(deep)),
                 content_type="application/yaml").json()["edit_token"]
    newer = placed({**deep, "version": "1.0.1"}, ("items", "weapon", 0, "damage"), 2)
    sent("changes", client.post, f"/api/packs/{token}", encoded(to_yaml(newer)), content_type="application/yaml")
    made = [sent("changes", client.post, "/api/builds", documents(r, k)[0], content_type="application/json").json()
            for r, k in KINDS]
    made.append(sent("changes", client.post, "/api/builds", {**documents("darkmetal", "leader")[0],
                                                             "pack": "fz-changes@1.0.0"},
                     content_type="application/json").json())
    refs = [f"{name}@{version}" for name, version in Pack.objects.values_list("name", "version")]

    @FUZZ
    @given(data=st.data())
    def run(data):
        build = data.draw(st.sampled_from(made))
        target = data.draw(st.one_of(st.sampled_from(refs), st.sampled_from(
            ["", "@", "x@1.0.0", "fz-changes@", "fz-changes@9.9.9", "fz-changes@" + HUGE, "a" * 5000]), texts))
        query = {"pack": target} if data.draw(st.booleans()) else {}
        share, edit = build["share_id"], build["edit_token"]
        sent("changes", client.get, f"/api/builds/{share}/changes", query)
        sent("changes", client.get, f"/b/{edit}/changes/", query)
        sent("changes", client.get, f"/s/{share}/changes/", query)
        if data.draw(st.booleans()):
            version = data.draw(st.one_of(st.sampled_from(["1", "2", "0", "99999", HUGE]), texts))
            sent("changes", client.post, f"/b/{edit}/upgrade", {"pack": target, "version": version})

    run()


def test_drafts(client, packs):
    """POST /draft/ with a builder's form changed (NUL, over-long, hostile), for its page or another address; the
    page then opens whatever the draft held."""
    forms = {}

    @FUZZ
    @given(data=st.data())
    def run(data):
        ruleset, kind = data.draw(st.sampled_from(KINDS))
        if (ruleset, kind) not in forms:
            forms[ruleset, kind] = builder_form(client, ruleset, kind)
        url, fields, names = forms[ruleset, kind]
        form = dict(fields)
        for name in data.draw(st.lists(st.one_of(st.sampled_from(names), st.text(min_size=1, max_size=12)),
                                       min_size=1, max_size=4)):
            form[name] = data.draw(texts)
        form["draft_for"] = data.draw(st.one_of(st.just(url), st.sampled_from(
            ["/", "/b/nope/", "/new/lancer/nope/", "http://elsewhere" + url, url + "?x=1", url * 50]), texts))
        sent("drafts", client.post, "/draft/", form)
        sent("drafts", client.get, url)

    run()


# The verbs the builders' buttons send (builder/kinds) and arguments no button sends.
VERBS = ["remove", "remove-mech", "remove-system", "remove-pilot", "remove-platoon", "remove-member", "up", "down",
         "unload", "learn", "unlearn", "undo", "add-log", "add-arp", "add-platoon", "save", "check", "save_copy", ""]
ARGS = ["", "0", "1", "99999", "-1", "²", "٣", "pack:²", "pack:0", "mod:0", "ally:99999", "0:0", "1:x", "0:99999",
        "x", " 0", "9" * 5000, "0" * 5000, "0:" + "9" * 5000]


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_builder_action_buttons(client, packs, ruleset, kind):
    url, fields, _ = builder_form(client, ruleset, kind)

    @FUZZ
    @given(action=st.one_of(st.builds(lambda verb, arg: f"{verb}:{arg}", st.sampled_from(VERBS),
                                      st.one_of(st.sampled_from(ARGS), texts)), texts))
    def run(action):
        sent("actions", client.post, url, {**fields, "action": action})

    run()
