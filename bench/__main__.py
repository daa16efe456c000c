"""`make bench`: timings as medians, each against a baseline measured in the same run.

Run with `python -m bench`. Uses a throwaway test database, never the app's own.
"""
import os
import statistics
import sys
import time
from urllib.parse import urlencode

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "builder.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from weasyprint import HTML  # noqa: E402


FORM = "application/x-www-form-urlencoded"


def median_time(fn, repeat: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def twelve_gear_anvil(catalogue, pack_ref):
    """A full 12-Gear Anvil from the starter pack: 6 weapons and 6 equipment."""
    items = catalogue.items
    weapons = {c: [k for k, v in items.items() if catalogue.categories[k] == "weapon" and v.weapon_class == c]
               for c in ("primary", "secondary", "tertiary")}
    equipment = [k for k, c in catalogue.categories.items() if c == "equipment"][:6]
    gear = [{"item": k, "mount": "core"} for c in weapons for k in weapons[c][:2]]
    gear += [{"item": k, "mount": "left_arm"} for k in equipment]
    parts = {slot: next(k for k, c in catalogue.categories.items() if c == cat) for slot, cat in (
        ("core", "core"), ("mobility_base", "mobility_base"), ("left_arm", "standard_arm"),
        ("right_arm", "standard_arm"), ("generator", "generator"), ("electronics", "electronics"), ("fcs", "fcs"))}
    return {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "anvil", "pack": pack_ref,
            "name": "Bench Anvil", "parts": parts, "gear": gear}


def main() -> int:
    # No setup_test_environment(): it instruments every template render, which production does not.
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        return run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> int:
    from builder import store
    from builder.pdf import render_pdf
    from catalogue.loader import catalogue_for, latest_pack, load_all
    from catalogue.rulesets.metallurgent import rules

    load_all()
    pack = latest_pack("metallurgent")
    catalogue = catalogue_for(pack)
    document = twelve_gear_anvil(catalogue, pack.ref)
    build = rules.parse(document)
    assert len(build.gear) == 12
    print("Hardpoint benchmarks (medians; ratios against a baseline measured in this run)\n")

    parse = median_time(lambda: rules.parse(dict(document)), 2000)
    validate = median_time(lambda: rules.validate(build, catalogue), 2000)
    print(f"1. validate() a 12-Gear Anvil          {fmt(validate)}   (target < 1 ms)"
          f"   = {validate / parse:.1f}x parsing its JSON document with pydantic ({fmt(parse)})")

    client = Client()
    post = {"pack": pack.ref, "name": "Bench Anvil", "gear-count": str(len(document["gear"]))}
    post.update({f"part-{slot}": key for slot, key in document["parts"].items()})
    for i, gear in enumerate(document["gear"]):
        post.update({f"gear-{i}-item": gear["item"], f"gear-{i}-mount": gear["mount"], f"gear-{i}-active": "on"})
    with override_settings(ROOT_URLCONF="bench.urls", DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        minimal = median_time(lambda: client.get("/bench/minimal"), 1000)
        page = median_time(lambda: client.get("/bench/page"), 1000)
        timings = {}
        for view in ("live", "pickers", ""):
            # Posted urlencoded, as htmx in a browser sends a form (the test client defaults to multipart).
            body = urlencode({**post, "view": view} if view else post)

            def edit():
                return client.post("/new/metallurgent/anvil/", body, content_type=FORM, HTTP_HX_REQUEST="true")

            assert edit().status_code == 200
            timings[view] = median_time(edit, 300)
    print(f"2. htmx edits of a 12-Gear Anvil, through the same test client as two baselines: a minimal Django "
          f"view returning 'ok' ({fmt(minimal)}; target < 3x) and the site's empty base page ({fmt(page)})")
    for key, label in (("live", "value edit (part, toggle, name): issues, bars, chart, stats"),
                       ("pickers", "follow-up picker refresh (126 candidate parts checked)"),
                       ("", "structural edit (mount/move/remove Gear): whole workbench")):
        print(f"   {label:<62} {fmt(timings[key]):>10}  = {timings[key] / minimal:5.1f}x view, "
              f"{timings[key] / page:4.1f}x page")

    checked = store.check(document)
    saved = store.create(checked)
    one_line = median_time(lambda: HTML(string="<p>Hardpoint</p>").write_pdf(), 10, warmup=2)
    sheet = median_time(lambda: render_pdf(saved, "a4", "http://127.0.0.1:8000/s/x/", lambda b: "x"), 10, warmup=2)
    print(f"3. PDF sheet (A4)                       {fmt(sheet)}   = {sheet / one_line:.1f}x a one-line WeasyPrint "
          f"document ({fmt(one_line)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
