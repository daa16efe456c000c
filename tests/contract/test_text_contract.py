"""The text every kind gets from the contract (Kind.summary, worded by builder.text): `/s/<id>.txt`, its Markdown
twin and the share page's "Copy as text", driven over every registered kind."""
from __future__ import annotations

import html
import re

import pytest

from builder import store
from builder.kinds import PAGES
from builder.text import SHOWN_ISSUES
from tests.helpers.kinds import documents, linking, saved

pytestmark = pytest.mark.django_db
KINDS = sorted(PAGES)
IDS = [f"{r}-{k}" for r, k in KINDS]
CHAT = 2000  # characters: a chat message, not a sheet


def text(client, build, suffix="txt", query=""):
    response = client.get(f"/s/{build.share_id}.{suffix}{query}")
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_kind_declares_its_summary(ruleset, kind):
    assert PAGES[ruleset, kind].kind.summary is not None


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_the_text_names_the_build_its_kind_stats_budgets_parts_and_link(client, packs, ruleset, kind):
    page = PAGES[ruleset, kind]
    document, named = linking(ruleset, kind)
    build = saved(document)
    response = text(client, build)
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    plain = response.content.decode()
    checked = store.check(build.document)
    summary = checked.kind.summarise(checked.build, checked.catalogue, checked.report, checked.linked)
    assert plain.startswith(f"{build.name}\n{page.ruleset.name} {page.kind.label} on {build.pack_ref}\n")
    assert plain.rstrip().endswith(f"http://testserver/s/{build.share_id}/")
    assert summary.stats or summary.parts or summary.members, "a summary that says nothing of the build"
    for label, value in summary.stats:
        assert f"{label} {value}" in plain
    for where, what in summary.parts:
        assert f"  {where}: {what}" in plain
    for member in summary.members:
        assert member.name in plain
        if member.share_id:
            assert f"http://testserver/s/{member.share_id}/" in plain
    for meter in page.headline(checked, build)["budgets"]:
        assert f"{meter['label']} {meter['meter'].used}/{meter['meter'].limit}" in plain
    if page.rosters:  # a roster's saved members are listed by their links
        assert {m.share_id for m in summary.members} & {b.share_id for b in named}
    assert len(plain) < CHAT


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_every_pack_example_reads_in_a_chat_message(client, packs, ruleset, kind):
    for document in documents(ruleset, kind):
        plain = text(client, saved(document)).content.decode()
        assert len(plain) < CHAT and max(len(line) for line in plain.splitlines()) < 600


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_the_rules_broken_are_listed_by_rule_id_and_the_rest_counted(client, packs, ruleset, kind):
    page = PAGES[ruleset, kind]
    build = saved(page.blank(documents(ruleset, kind)[0]["pack"]))
    checked = store.check(build.document)
    shown = [i for i in checked.report.issues if i.severity != "info"]
    plain = text(client, build).content.decode()
    verdict = page.headline(checked, build)["verdict"]
    assert plain.splitlines()[2 + bool(page.describe(build.document))].lower().startswith(verdict)
    for issue in shown[:SHOWN_ISSUES]:
        assert f"  {issue.code} ({issue.severity}): " in plain
    if len(shown) > SHOWN_ISSUES:
        assert f"and {len(shown) - SHOWN_ISSUES} more on the share page" in plain
    markdown = text(client, build, "md").content.decode()
    for issue in shown[:SHOWN_ISSUES]:
        assert f"- `{issue.code}` {issue.severity}: " in markdown


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_markdown_escapes_a_players_text_and_links_the_build(client, packs, ruleset, kind):
    name = "*Ace* [of](spades) _one_ #1 | ~x~"
    build = saved({**documents(ruleset, kind)[0], "name": name})
    response = text(client, build, "md")
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    markdown = response.content.decode()
    assert markdown.startswith(r"**\*Ace\* \[of\]\(spades\) \_one\_ \#1 \| \~x\~**: ")
    assert markdown.rstrip().endswith(f"<http://testserver/s/{build.share_id}/>")
    assert text(client, build).content.decode().startswith(name + "\n")  # plain text is as typed


@pytest.mark.parametrize("ruleset,kind", KINDS, ids=IDS)
def test_the_share_page_copies_the_same_text_and_a_version_keeps_its_own(client, packs, ruleset, kind):
    document = documents(ruleset, kind)[0]
    build = saved(document)
    store.update(build, store.check({**document, "name": "Renamed since"}), 1)
    page = client.get(f"/s/{build.share_id}/").content.decode()
    boxes = dict(re.findall(r'<textarea id="text-(plain|markdown)"[^>]*>(.*?)</textarea>', page, re.S))
    assert html.unescape(boxes["plain"]) == text(client, build).content.decode()
    assert html.unescape(boxes["markdown"]) == text(client, build, "md").content.decode()
    assert text(client, build).content.decode().startswith("Renamed since\n")
    assert text(client, build, query="?version=1").content.decode().startswith(document["name"] + "\n")
    old_page = client.get(f"/s/{build.share_id}/v/1/").content.decode()
    assert f'/s/{build.share_id}.txt?version=1"' in old_page


def test_no_such_build_or_version_is_a_404(client, packs):
    build = saved(documents(*KINDS[0])[0])
    assert client.get("/s/nosuchbuild.txt").status_code == 404
    assert client.get("/s/nosuchbuild.md").status_code == 404
    assert client.get(f"/s/{build.share_id}.txt?version=9").status_code == 404
    assert client.get(f"/s/{build.share_id}.md?version=x").status_code == 404


def test_text_is_worded_once_per_version(client, packs, django_assert_max_num_queries):
    build = saved(documents(*KINDS[0])[0])
    text(client, build)
    with django_assert_max_num_queries(3):  # the build and its links' versions; the words come from the cache
        text(client, build)
