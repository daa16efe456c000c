"""The printable Anvil sheet, checked as text with pdftotext and for page size and breaks."""
import re

import pytest

from builder import store
from builder.kinds import PAGES
from catalogue.loader import latest_pack
from tests.helpers.pdf import page_sizes, pdf_text
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved(packs):
    def save(index=0, **changes):
        document = {**latest_pack("metallurgent").examples[index], **changes}
        return store.create(store.check(document))
    return save


def test_sheet_has_every_component_gear_and_summary(client, saved, tmp_path):
    build = saved(0)
    response = client.get(f"/s/{build.share_id}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content, tmp_path)
    for expected in (build.name, "LEGAL when printed", pack_ref("metallurgent", "anvil"), "Nimbus Line Core",
                     "Mistral Biped Legs", "Updraft Gas Turbine", "Glint Optical FCS", "Hailstone Assault Rifle",
                     "Carried Load", "EN Output", "Heat per turn", "Load Tolerance", "TRACKERS"):
        assert expected in text, expected
    assert f"/s/{build.share_id}/" in "".join(text.split())  # printed under the QR code, wrapped
    assert "◀ 32 ST" in text  # the active breakpoint is marked
    # Each of the six Components has its AP boxes and its Damage Step track to tick at the table.
    assert text.count("Damage Steps") == 6 and len(re.findall(r"Damaged\s+Degraded\s+Disabled", text)) == 6


def test_sheet_never_contains_the_edit_token(client, saved, tmp_path):
    build = saved(0)
    pdf = client.get(f"/s/{build.share_id}.pdf").content
    assert build.edit_token.encode() not in pdf
    assert build.edit_token not in pdf_text(pdf, tmp_path, layout=False)


def test_illegal_build_prints_its_issues(client, saved, tmp_path):
    document = latest_pack("metallurgent").examples[0]
    build = saved(0, parts={**document["parts"], "mobility_base": "zephyr-hover"})
    text = pdf_text(client.get(f"/s/{build.share_id}.pdf").content, tmp_path)
    assert "NOT LEGAL when printed:" in text and "M-R32" in text
    assert "REMAINING ISSUES" in text and "overloaded" in text


def test_a4_and_letter(client, saved, tmp_path):
    build = saved(3)
    assert all("595.276 x 841.89" in s for s in page_sizes(client.get(f"/s/{build.share_id}.pdf").content, tmp_path))
    letter = client.get(f"/s/{build.share_id}.pdf?paper=letter").content
    assert all("612 x 792" in s for s in page_sizes(letter, tmp_path))
    assert client.get(f"/s/{build.share_id}.pdf?paper=a3").status_code == 400


def test_long_names_wrap_and_tables_stay_whole(client, saved, tmp_path):
    long_name = "The Extraordinarily Long-Winded Name Of A Heavily Armed Defensive Anvil Mk II"
    build = saved(3, name=long_name, notes="Line of notes. " * 200)
    pdf = client.get(f"/s/{build.share_id}.pdf").content
    text = pdf_text(pdf, tmp_path, layout=False)
    assert "Extraordinarily" in text and "Mk II" in text.replace("\n", " ")
    pages = text.split("\f")
    # No table is cut in half: each table's header row and its rows land on the same page.
    for header in ("Breakpoint", "Weapon", "Mount"):
        holding = [p for p in pages if header in p]
        assert holding, header
    component_page = next(p for p in pages if "Electronics:" in p)
    assert "Refresh Cost" in component_page


def test_unknown_share_id_is_404(client, packs):
    assert client.get("/s/nope.pdf").status_code == 404


def test_a_pdf_is_rendered_once_per_version_of_what_it_prints(client, packs, monkeypatch):
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from builder import pdf as pdf_module

    renders = []
    real = pdf_module.render_pdf
    monkeypatch.setattr(pdf_module, "render_pdf", lambda *args: renders.append(1) or real(*args))
    crew = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                     "pack": pack_ref("metallurgent", "pilot"), "name": "Crew"}))
    anvil = store.create(store.check({**latest_pack("metallurgent").examples[0], "pilot": crew.share_id}))
    url = f"/s/{anvil.share_id}.pdf"
    first = client.get(url).content
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).content == first and len(renders) == 1
    assert len(queries) == 2, [q["sql"][:60] for q in queries]  # the Anvil, its Pilot: the PDF from memory
    caches["recent-pdfs"].clear()  # another process: the shared cache has it
    assert client.get(url).content == first and len(renders) == 1
    assert client.get(url + "?paper=letter").status_code == 200 and len(renders) == 2
    store.update(crew, store.check({**crew.document, "name": "Crew, renamed"}), crew.version)  # a linked edit
    assert client.get(url).content != first and len(renders) == 3


@pytest.mark.parametrize("ruleset,kind", sorted(PAGES), ids=[f"{r}-{k}" for r, k in sorted(PAGES)])
def test_no_printed_page_is_only_a_title(client, packs, tmp_path, ruleset, kind):
    """Every page of an example's sheet carries more than a heading (a title left alone by the rows after it)."""
    for example in [dict(e) for e in latest_pack(ruleset, kind).examples if e.get("kind") == kind]:
        build = store.create(store.check(example))
        pdf = client.get(f"/s/{build.share_id}.pdf").content
        pages = pdf_text(pdf, tmp_path).split("\f")
        for number, page in enumerate(pages[:-1] if not pages[-1].strip() else pages, 1):
            lines = [line for line in page.splitlines() if line.strip() and "printed" not in line]
            assert len(lines) > 3, (example["name"], number, lines)
