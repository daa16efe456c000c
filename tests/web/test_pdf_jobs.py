"""PDFs of more builds than a request renders are made by the task worker; their page follows the job."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from builder import pdf as pdf_module
from builder import store
from builder.models import Build
from tests.helpers.pdf import pdf_text, run_worker, save_squad

# The worker commits as it goes, as it does in production, so these tests commit too (the database is emptied
# after each one, and the packs are loaded again after the module).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reload_packs_after")]

LAID_OUT = re.compile(r"Laid out \d+ of \d+ builds")


@pytest.fixture
def squad(packs):
    return save_squad(4)  # five builds with its cover: more than HARDPOINT_INLINE_PDF_BUILDS


def urls(build: Build, paper: str = "a4") -> tuple[str, str]:
    return f"/s/{build.share_id}.pdf?paper={paper}", f"/s/{build.share_id}/pdf-progress?paper={paper}"


def poll(client, url: str):
    return client.get(url, HTTP_HX_REQUEST="true")


def test_a_big_squad_renders_in_the_worker_and_its_page_follows_along(client, squad, monkeypatch, tmp_path):
    pdf_url, progress_url = urls(squad)
    page = client.get(pdf_url)
    html = page.content.decode()
    assert page.status_code == 202 and "Laid out 0 of 5 builds" in html and "Waiting for a worker" in html
    assert f'hx-get="{progress_url}"' in html and 'hx-trigger="load delay:1s"' in html
    assert f'href="{pdf_url}">Check again</a>' in html  # without JavaScript
    assert poll(client, progress_url).status_code == 200 and "HX-Redirect" not in poll(client, progress_url)

    seen = []  # what the page says as each build is laid out
    real_layout = pdf_module.layout
    monkeypatch.setattr(pdf_module, "layout", lambda html, fonts=None: seen.append(
        LAID_OUT.search(poll(client, progress_url).content.decode())[0]) or real_layout(html, fonts))
    run_worker()
    assert seen == [f"Laid out {n} of 5 builds" for n in range(5)]

    done = poll(client, progress_url)
    assert done["HX-Redirect"] == pdf_url and "Open the PDF" in done.content.decode()
    monkeypatch.setattr(pdf_module, "layout", None)  # from now on served from the cache, never laid out again
    response = client.get(pdf_url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content, tmp_path)
    assert "ROSTER" in text.split("\f")[0] and text.count("TRACKERS") == 4
    numbers: dict[str, list[tuple[int, int]]] = {}  # each sheet's footers: its pages count within it
    for name, page, pages in re.findall(r"^(.+?) · printed .* page (\d+) of (\d+)$", text, re.MULTILINE):
        numbers.setdefault(name, []).append((int(page), int(pages)))
    assert list(numbers) == ["Big Squad", "Anvil 0", "Anvil 1", "Anvil 2", "Anvil 3"]
    for name, footers in numbers.items():
        assert footers == [(n, len(footers)) for n in range(1, len(footers) + 1)], name
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


def test_asking_again_while_queued_queues_nothing_more(client, squad):
    pdf_url, _ = urls(squad)
    assert client.get(pdf_url).status_code == client.get(pdf_url).status_code == 202
    assert DBTaskResult.objects.count() == 1
    assert client.get(urls(squad, "letter")[0]).status_code == 202  # another paper is another PDF
    assert DBTaskResult.objects.count() == 2


def test_a_failed_job_says_so_and_is_queued_again_only_when_asked(client, squad, monkeypatch):
    pdf_url, progress_url = urls(squad)
    client.get(pdf_url)
    monkeypatch.setattr(pdf_module, "layout", lambda html, fonts=None: 1 / 0)
    run_worker()
    failed = poll(client, progress_url).content.decode()
    assert "could not be made" in failed and "hx-get" not in failed  # it stops asking
    assert f'href="{pdf_url}&amp;retry=1">Try again</a>' in failed
    again = client.get(pdf_url)  # without JavaScript the page says the same
    assert again.status_code == 200 and "could not be made" in again.content.decode()
    assert DBTaskResult.objects.get().status == "FAILED"
    retried = client.get(pdf_url + "&retry=1")
    assert retried.status_code == 202 and "Laid out 0 of 5 builds" in retried.content.decode()
    assert DBTaskResult.objects.filter(status="READY").count() == 1


def test_an_edit_of_a_printed_build_is_a_new_pdf(client, squad):
    pdf_url, progress_url = urls(squad)
    client.get(pdf_url)
    anvil = Build.objects.get(name="Anvil 2")
    store.update(anvil, store.check({**anvil.document, "name": "Anvil 2, renamed"}), anvil.version)
    changed = poll(client, progress_url).content.decode()
    assert "may have changed since" in changed and "hx-get" not in changed
    assert client.get(pdf_url).status_code == 202 and DBTaskResult.objects.count() == 2


def test_a_job_no_worker_takes_says_how_long_it_waits(client, squad):
    pdf_url, progress_url = urls(squad)
    client.get(pdf_url)
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=3))
    text = " ".join(poll(client, progress_url).content.decode().split())
    assert "Waiting for a worker to take it up: queued 3 minutes ago" in text


def test_a_small_sheet_renders_in_the_request(client, packs):
    squad = save_squad(2)
    assert client.get(urls(squad)[0])["Content-Type"] == "application/pdf"
    assert not DBTaskResult.objects.exists()


def test_the_progress_part_refuses_bad_input(client, squad):
    assert client.get(f"/s/{squad.share_id}/pdf-progress?paper=a3").status_code == 400
    assert client.get("/s/nope/pdf-progress").status_code == 404


def test_a_job_whose_worker_died_can_be_tried_again(client, squad):
    pdf_url, progress_url = urls(squad)
    client.get(pdf_url)
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now() - timedelta(minutes=5))
    assert "hx-get" in poll(client, progress_url).content.decode()  # five minutes: still under way
    DBTaskResult.objects.update(started_at=timezone.now() - timedelta(minutes=20))
    stalled = " ".join(poll(client, progress_url).content.decode().split())
    assert "stopped answering 20 minutes ago" in stalled and "hx-get" not in stalled
    assert client.get(pdf_url).status_code == 200 and DBTaskResult.objects.count() == 1  # only when asked
    assert client.get(pdf_url + "&retry=1").status_code == 202 and DBTaskResult.objects.count() == 2
