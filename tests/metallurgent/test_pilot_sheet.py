"""What a Pilot's share page and PDF show for the rules played at the table (M-R97, M-R101, M-R106, M-R107)."""
import subprocess

import pytest

from builder import store
from tests.helpers.refs import pack_ref

pytestmark = pytest.mark.django_db

PILOTS = pack_ref("metallurgent", "pilot")


def saved_pilot(history, xp=30):
    return store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                     "pack": PILOTS, "name": "Vesna", "xp": xp, "history": history}))


@pytest.fixture
def vesna(packs):
    return saved_pilot([{"specialise": "battlemaster"}, {"learn": "bm-open-throttle", "paid": 1},
                        {"learn": "bm-redline", "paid": 2}, {"learn": "bm-quickstep", "paid": 1}])


def test_m_r106_m_r107_share_page_says_when_each_held_skill_may_be_used(client, vesna):
    html = client.get(f"/s/{vesna.share_id}/").content.decode()
    html = html[html.index("</textarea>", html.index('id="text-markdown"')):]  # the Skills table, past the text to paste
    redline = html[html.index("Redline"):]
    assert "toggled in Upkeep, not on and off in one Round" in redline[:redline.index("</tr>")]
    throttle = html[html.index("Open Throttle"):]
    assert "unlimited" in throttle[:throttle.index("</tr>")]
    quickstep = html[html.index("Quickstep"):]
    assert "1/Turn" in quickstep[:quickstep.index("</tr>")]


def test_m_r106_the_pdf_sheet_prints_the_upkeep_toggle(client, vesna, tmp_path):
    pdf = tmp_path / "pilot.pdf"
    pdf.write_bytes(client.get(f"/s/{vesna.share_id}.pdf").content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Redline" in text and "toggled in Upkeep" in " ".join(text.split())


def test_m_r97_share_page_explains_what_a_sortie_awards(client, vesna):
    html = client.get(f"/s/{vesna.share_id}/").content.decode()
    assert "1 for the Main Objective" in html and "1 for each hostile Anvil Disabled or Destroyed" in html


def test_m_r101_the_overspent_step_is_named_on_the_share_page(client, packs):
    overspent = saved_pilot([{"specialise": "guardian"}, {"learn": "gd-brace-for-impact", "paid": 1},
                             {"learn": "bm-lightning-strike", "paid": 3}, {"unlearn": "bm-lightning-strike"}], xp=5)
    html = client.get(f"/s/{overspent.share_id}/").content.decode()
    assert "Not legal" in html and "1 SP overspent" in html
