"""PDFs as the tests read them: their text (pdftotext) and page sizes (pdfinfo), and the big squad PDF the task
worker renders (a squad of more builds than a request renders, and the worker run until its queue is empty)."""
from __future__ import annotations

import signal
import subprocess

from django.core.management import call_command

from builder import store
from builder.models import Build
from catalogue.loader import latest_pack


def pdf_text(pdf: bytes, tmp_path, layout=True) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    args = ["pdftotext"] + (["-layout"] if layout else []) + [str(path), "-"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def page_sizes(pdf: bytes, tmp_path) -> list[str]:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "9", str(path)], check=True, capture_output=True, text=True).stdout
    return [line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Page") and "size" in line]


def save_squad(anvils: int) -> Build:
    """A squad of that many saved Anvils, one per Platoon, named "Anvil 0", "Anvil 1", ..."""
    examples = latest_pack("metallurgent").examples
    saved = [store.create(store.check({**examples[n % len(examples)], "name": f"Anvil {n}"})) for n in range(anvils)]
    return store.create(store.check({
        "format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad",
        "pack": latest_pack("metallurgent", "squad").ref, "name": "Big Squad",
        "platoons": [{"name": f"Platoon {n}", "members": [{"build": a.share_id}]} for n, a in enumerate(saved)]}))


def run_worker() -> None:
    """`manage.py db_worker` until the queue is empty; it sets its own signal handlers, which are put back after."""
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    try:
        call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
