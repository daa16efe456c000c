"""`make bench`: timings as medians, each against a baseline measured in the same run.

Run with `python -m bench`. Uses a throwaway test database, never the app's own; the throughput rows' gunicorn
serves that same database.
"""
import http.client
import os
import secrets
import statistics
import sys
import time
from urllib.parse import urlencode

import tempfile
from pathlib import Path

from bench.load import gunicorn, requests_per_second, timed_request, until_serving
from tests.helpers import cluster
from tests.helpers.cluster import POSTGRES_URL, REDIS_URL, Node, drop_database, environment, fresh_database, prepare

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "builder.settings")
os.environ["RATE_LIMITS"] = "0"  # thousands of requests from one client are the point here
# Timed as served: with DEBUG on, Jinja2 checks every template file for changes at each include.
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
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


def paired_time(fn, baseline, repeat: int, warmup: int = 3) -> tuple[float, float]:
    """Medians of `fn` and of `baseline`, timed alternately: on a noisy machine both see the same moments."""
    for _ in range(warmup):
        fn()
        baseline()
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for timed, call in zip(samples, (fn, baseline)):
            start = time.perf_counter()
            call()
            timed.append(time.perf_counter() - start)
    return statistics.median(samples[0]), statistics.median(samples[1])


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
    # A new build's form carries its draft's token: each edit keeps the draft, as in a browser.
    post = {"pack": pack.ref, "name": "Bench Anvil", "gear-count": str(len(document["gear"])), "draft": "bench-draft-1"}
    post.update({f"part-{slot}": key for slot, key in document["parts"].items()})
    for i, gear in enumerate(document["gear"]):
        post.update({f"gear-{i}-item": gear["item"], f"gear-{i}-mount": gear["mount"], f"gear-{i}-active": "on"})
    with override_settings(ROOT_URLCONF="bench.urls", DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        minimal = median_time(lambda: client.get("/bench/minimal"), 1000)
        page = median_time(lambda: client.get("/bench/page"), 1000)
        timings = {}
        # The form as the workbench draws it: with the fingerprints a live edit is measured against.
        from tests.html_forms import read_form

        drawn = client.post("/new/metallurgent/anvil/", urlencode(post), content_type=FORM, HTTP_HX_REQUEST="true")
        form, _ = read_form(drawn.content.decode())
        for view in ("live", "pickers", ""):
            # Posted urlencoded, as htmx in a browser sends a form (the test client defaults to multipart).
            # the page was drawn before the edit: the fragments are drawn again, as for a part changed
            body = urlencode({**form, "shown": ["before the edit"], "view": [view]} if view else form, doseq=True)

            def edit():
                return client.post("/new/metallurgent/anvil/", body, content_type=FORM, HTTP_HX_REQUEST="true")

            assert edit().status_code == 200
            timings[view] = median_time(edit, 300)
        every_kind = live_edits(client)
    print(f"2. htmx edits of a 12-Gear Anvil, through the same test client as two baselines: a minimal Django "
          f"view returning 'ok' ({fmt(minimal)}; target < 3x) and the site's empty base page ({fmt(page)})")
    for key, label in (("live", "value edit (part, toggle, name): issues, bars, chart, stats"),
                       ("pickers", "follow-up picker refresh (126 candidate parts checked)"),
                       ("", "structural edit (mount/move/remove Gear): whole workbench")):
        print(f"   {label:<62} {fmt(timings[key]):>10}  = {timings[key] / minimal:5.1f}x view, "
              f"{timings[key] / page:4.1f}x page")

    print("2b. value edits on every kind's first example as htmx sends them, each timed alternately with the minimal "
          "view (target: within 12x it): a rename (nothing the fragments draw moved), the kind's first other value "
          "edit (every live fragment drawn again), and the whole workbench a live edit spares")
    for (ruleset, kind), timings in every_kind.items():
        cells = [f"{label} {fmt(t[0]):>9} = {t[0] / t[1]:5.1f}x" if t else f"{label} {'(none)':>18}"
                 for label, t in zip(("rename", "value edit", "whole workbench"), timings)]
        print(f"   {ruleset + ' ' + kind:<22} " + "   ".join(cells))

    checked = store.check(document)
    saved = store.create(checked)
    one_line = median_time(lambda: HTML(string="<p>Hardpoint</p>").write_pdf(), 10, warmup=2)
    sheet = median_time(lambda: render_pdf(saved, "a4", lambda b: "http://127.0.0.1:8000/s/x/"), 10, warmup=2)
    print(f"3. PDF sheet (A4)                       {fmt(sheet)}   = {sheet / one_line:.1f}x a one-line WeasyPrint "
          f"document ({fmt(one_line)})")
    squad_bench(catalogue, pack, document, one_line)
    preview_bench(build, catalogue, client)
    megamercs_bench()
    ember_bench()
    with override_settings(ROOT_URLCONF="bench.urls", DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        lancer_data_bench(client)
    throughput_bench(saved)
    table_bench(saved)
    scale_out_bench(document)
    print("\nGrowth with size: medians, each with its ratio to the smallest size's")
    anvil_growth(document, catalogue)
    squad_growth(pack)
    leader_growth()
    dice_growth()
    return 0


def live_edits(client) -> dict[tuple[str, str], list[tuple[float, float] | None]]:
    """Each kind's value edits as htmx sends them, each paired with the minimal view: a rename, the first other
    value edit the live contract test makes (none for a kind with no value field but its name), and the whole
    workbench a live answer spares."""
    from builder.kinds import PAGES
    from catalogue.loader import latest_pack
    from tests.html_forms import read_form
    from tests.test_live_contract import VALUE_EDITS

    def minimal():
        return client.get("/bench/minimal")

    timings = {}
    for (ruleset, kind) in sorted(PAGES):
        pack = latest_pack(ruleset, kind)
        example = next((i for i, e in enumerate(pack.examples) if e.get("kind") == kind), None)
        url = f"/new/{ruleset}/{kind}/"
        values, _ = read_form(client.get(url if example is None else f"{url}?example={example}").content.decode())
        edits = [(field, value) for field, value in VALUE_EDITS[ruleset, kind] if field in values]
        bodies = {"rename": {**values, "name": ["Bench rename"], "view": ["live"]},
                  "value": {**values, edits[0][0]: [edits[0][1]], "view": ["live"]} if edits else None,
                  "whole": {**values, "name": ["Bench rename"]}}
        timings[ruleset, kind] = []
        for name, body in bodies.items():
            if body is None:
                timings[ruleset, kind].append(None)
                continue
            encoded = urlencode(body, doseq=True)

            def edit():
                return client.post(url, encoded, content_type=FORM, HTTP_HX_REQUEST="true")

            answer = edit()
            assert answer.status_code == 200 and (name == "whole") == ("HX-Retarget" not in answer
                                                                      and 'id="workbench"' in answer.text), name
            timings[ruleset, kind].append(paired_time(edit, minimal, 200 if name != "whole" else 50))
    return timings


def preview_bench(build, catalogue, client) -> None:
    """A full preview of the 12-Gear Anvil (every attack, 5 turns); exact 30-die odds against sampling them."""
    import json
    import random

    from catalogue.rulesets import dice
    from catalogue.rulesets.metallurgent import preview, rules
    from catalogue.rulesets.metallurgent.dice import metallurgent_die

    anvil = rules.resolve(build, catalogue)
    target = preview.target_from_anvil(anvil)
    situation = preview.Situation(range=4, turns=5)
    engine = median_time(lambda: preview.preview(anvil, target, situation), 300)
    body = json.dumps({"attacker": build.model_dump(mode="json"), "target": {"unit": "t-72b-mbt"},
                       "situation": {"range": 4, "turns": 5}})
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"]):
        assert client.post("/api/preview", body, content_type="application/json").status_code == 200
        api = median_time(lambda: client.post("/api/preview", body, content_type="application/json"), 100)
    print(f"6. preview of a 12-Gear Anvil (every attack, 5 turns): engine {fmt(engine)}, "
          f"POST /api/preview end to end {fmt(api)} (target < 20 ms)")
    exact = median_time(lambda: dice.pool(metallurgent_die(4), 30), 200)
    rng = random.Random(1)

    def simulate():
        for _ in range(10_000):
            sum(2 if f == 6 else f >= 4 for f in (rng.randint(1, 6) for _ in range(30)))

    simulated = median_time(simulate, 5, warmup=1)
    print(f"7. 30d6 pool: exact distribution {fmt(exact)} vs 10,000 simulated rolls {fmt(simulated)} "
          f"= {simulated / exact:.0f}x faster")


def squad_bench(catalogue, pack, anvil_document, one_line: float) -> None:
    """A squad of 8 Platoons, one Anvil each, every Anvil with a Pilot."""
    import subprocess
    import tempfile

    from builder import store
    from builder.pdf import render_pdf
    from catalogue.loader import latest_pack
    from catalogue.rulesets.metallurgent import squads

    pilots_ref = latest_pack("metallurgent", "pilot").ref
    units_pack = latest_pack("metallurgent", "squad")
    crew = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                     "pack": pilots_ref, "name": "Bench Pilot", "xp": 40,
                                     "history": [{"specialise": "guardian"}]}))
    anvils = [store.create(store.check({**pack.examples[i % len(pack.examples)], "name": f"Anvil {i}",
                                        "pilot": crew.share_id})) for i in range(8)]
    platoons = [{"name": f"Anvil {i}", "members": [{"build": a.share_id}]} for i, a in enumerate(anvils)]
    document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": units_pack.ref,
                "name": "Bench Squad", "platoons": platoons}
    units = store.catalogue_by_ref(units_pack.ref)
    linked = store.SavedBuilds().linked(squads.links(squads.parse(document)), 2)
    rules_only = median_time(lambda: squads.validate(document, units, linked), 500)
    one_anvil = median_time(lambda: store.check(anvils[0].document), 200)
    end_to_end = median_time(lambda: store.check(document), 100)
    with CaptureQueriesContext(connection) as queries:
        store.check(document)
    print(f"4. squad of 8 Platoons, one Anvil with its Pilot each: squad rules {fmt(rules_only)}; end to end, its "
          f"Anvils and Pilots read and checked from the database, {fmt(end_to_end)} (target < 5 ms) in "
          f"{len(queries)} queries = {end_to_end / one_anvil:.1f}x checking one of its Anvils ({fmt(one_anvil)})")
    squad = store.create(store.check(document))
    pdf = render_pdf(squad, "a4", lambda b: "http://127.0.0.1:8000/s/x/")
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        info = subprocess.run(["pdfinfo", handle.name], capture_output=True, text=True).stdout
    pages = int(next((line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")), "0")) or 1
    whole = median_time(lambda: render_pdf(squad, "a4", lambda b: "http://127.0.0.1:8000/s/x/"), 3, warmup=1)
    print(f"5. squad PDF (A4): {pages} pages in {fmt(whole)} = {fmt(whole / pages)} a page "
          f"({whole / pages / one_line:.0f}x a one-line WeasyPrint document)")


def megamercs_bench() -> None:
    """A MEGA MERCS company of 12 saved units, and the preview of a unit with 6 weapons."""
    from builder import store
    from catalogue.loader import catalogue_for, latest_pack
    from catalogue.rulesets.megamercs import company, preview, rules

    pack = latest_pack("megamercs")
    catalogue = catalogue_for(pack)
    units = [e for e in pack.examples if e["kind"] == "unit"]
    saved = [store.create(store.check({**units[i % len(units)], "name": f"Unit {i}"})) for i in range(12)]
    document = {"format": "hardpoint.build/1", "ruleset": "megamercs", "kind": "company", "pack": pack.ref,
                "name": "Bench Company", "credit_budget": 100_000, "units": [{"build": b.share_id} for b in saved]}
    linked = store.SavedBuilds().linked(company.links(company.parse(document)), 2)
    one_unit = median_time(lambda: rules.validate(saved[0].document, catalogue), 500)
    rules_only = median_time(lambda: company.validate(document, catalogue, linked), 500)
    end_to_end = median_time(lambda: store.check(document), 100)
    print(f"MEGA MERCS a. company of 12 saved units: company rules {fmt(rules_only)}; end to end, its units read and "
          f"checked from the database, {fmt(end_to_end)} (target < 5 ms) = {end_to_end / one_unit:.1f}x "
          f"validating one of its units ({fmt(one_unit)})")
    armed = max(units, key=lambda e: len(e["mounts"]))
    chassis = catalogue.items[armed["chassis"]]
    weapons = [w for w in catalogue.of("weapon") if not w.specialist_for]
    mounts = [{"item": next(w.key for w in weapons if set(w.types) & set(h.types) and w.size <= h.size),
               "hardpoint": h.key} for h in chassis.hardpoints
              if any(set(w.types) & set(h.types) and w.size <= h.size for w in weapons)]
    unit = rules.resolve(rules.parse({**armed, "mounts": (mounts * 6)[:6], "format": "hardpoint.build/1",
                                      "ruleset": "megamercs", "pack": pack.ref}), catalogue)
    for m in unit.weapons:
        m.ammo = m.item.profiles[0].name if m.item.variable_ammo else None
    target, situation = preview.Target(kind="mecha", dr=3, agility=30, evading=True), preview.Situation(locked=True)
    engine = median_time(lambda: preview.odds(unit, target, situation), 300)
    profiles = len(preview.odds(unit, target, situation)["attacks"])
    print(f"MEGA MERCS b. preview of a {len(unit.weapons)}-weapon unit ({profiles} profiles): {fmt(engine)} "
          f"(target < 20 ms) = {engine / one_unit:.1f}x validating a unit")


def ember_bench() -> None:
    """Ember's attack resolution, exact: 9 attack dice (5 Yellow, 4 Red) against 5 White and 5 Blue, every pool
    convolved afresh, in floats and in exact fractions; the baseline is one 9-die pool convolved alone."""
    from catalogue.rulesets.ember import dice as ember

    def fresh(exact: bool):
        ember.attack_pool.cache_clear()
        ember.defence_pool.cache_clear()
        return ember.resolve(ember.attack_pool(5, 4, exact=exact), ember.defence_pool(5, 5, exact=exact))

    def pool_only():
        ember.attack_pool.cache_clear()
        ember.attack_pool(5, 4, exact=False)

    baseline = median_time(pool_only, 30)
    floats, fractions = median_time(lambda: fresh(False), 30), median_time(lambda: fresh(True), 5, warmup=1)
    print(f"Ember a. a 9-die attack against 5 White + 5 Blue, exact: {fmt(floats)} in floats (target < 20 ms) "
          f"= {floats / baseline:.1f}x convolving the attack pool alone; {fmt(fractions)} in exact fractions")


def lancer_data_bench(client) -> None:
    """The official LANCER data (lancer-data, fetched from the npm registry): loaded as a player loads it, and a
    pilot builder on it opening a mount's weapons chooser, timed alternately with the minimal view: as the page asks
    for it (the build's choices tried already), after an edit (its picker's choices tried first), and as the first
    request of a new process, against a new process's first minimal view. The pickers refresh an edit asks for is
    timed beside it: it tries every choice of every picker."""
    import io
    import zipfile

    from django.core.cache import cache

    from catalogue.loader import publish
    from tests.html_forms import read_form
    from tests.lancer_factory import LANCER_DATA, fetch_lancer_data

    try:
        files = fetch_lancer_data()
    except OSError as exc:
        print(f"LANCER a. lancer-data {LANCER_DATA}: skipped, the npm registry cannot be reached ({exc})")
        return
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    start = time.perf_counter()
    published = publish(buffer.getvalue(), f"lancer-data-{LANCER_DATA}.lcp")
    loaded = time.perf_counter() - start
    print(f"LANCER a. lancer-data {LANCER_DATA} loaded whole ({published.own_items} items, read, checked and "
          f"stored): {loaded:.2f} s (target < 2 s)")
    url = "/new/lancer/pilot/"
    client.get(f"{url}?pack_link={published.user_pack.share_url()}")
    values, _ = read_form(client.get(f"{url}?pack={published.result.ref}").content.decode())
    with_mech = urlencode({**values, "add-mech": ["mf_standard_pattern_i_everest"]}, doseq=True)
    values, _ = read_form(client.post(url, with_mech, content_type=FORM).content.decode())
    body = urlencode({**values, "view": ["chooser"], "chooser": ["mech-0-mount-0-weapon-0"]}, doseq=True)

    def chooser():
        return client.post(url, body, content_type=FORM, HTTP_HX_REQUEST="true")

    def cold():
        cache.clear()  # every choice's marks forgotten, as after an edit: the chooser tries its own picker's again
        return chooser()

    refresh_body = urlencode({**values, "view": ["pickers"]}, doseq=True)

    def refresh():
        cache.clear()  # what the page asks for after an edit: every choice of every picker tried
        return client.post(url, refresh_body, content_type=FORM, HTTP_HX_REQUEST="true")

    assert chooser().status_code == 200 and refresh().status_code == 200
    minimal = lambda: client.get("/bench/minimal")  # noqa: E731
    warm, baseline = paired_time(chooser, minimal, 50)
    tried, cold_baseline = paired_time(cold, minimal, 10, warmup=1)
    refreshed, refresh_baseline = paired_time(refresh, minimal, 5, warmup=1)
    print(f"LANCER b. on it, an Everest's weapons chooser, compared: {fmt(warm)} = {warm / baseline:.1f}x the minimal "
          f"view (target within 12x) once the build's choices are tried; {fmt(tried)} = "
          f"{tried / cold_baseline:.1f}x trying its picker's choices first (after an edit); the pickers refresh "
          f"after an edit, every choice of every picker tried, {fmt(refreshed)} = "
          f"{refreshed / refresh_baseline:.1f}x")
    first = first_after_start(client, url, body)
    if first is None:
        print("LANCER c. first requests after a process start: skipped, gunicorn serves this run's SQLite database")
        return
    chooser_first, minimal_first, minimal_warm = first
    print(f"LANCER c. the first request a fresh gunicorn worker answers (its pack read from the database, templates "
          f"compiled, the picker's choices tried), over HTTP: that chooser {fmt(chooser_first)} = "
          f"{chooser_first / minimal_first:.1f}x a fresh worker's first minimal view ({fmt(minimal_first)}), "
          f"{chooser_first / minimal_warm:.0f}x the minimal view once warm ({fmt(minimal_warm)})")


def first_after_start(client, url: str, body: str, runs: int = 3) -> tuple[float, float, float] | None:
    """Medians over `runs` new one-worker gunicorns each: the chooser as the worker's first request, with this
    client's session and form; the minimal view as another new worker's first request; the minimal view warm."""
    from django.conf import settings

    if connection.vendor != "sqlite":
        return None
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()), "Content-Type": FORM,
               "HX-Request": "true", "X-CSRFToken": cookies.get("csrftoken", "")}
    database = f"sqlite:///{connection.settings_dict['NAME']}"
    chooser_first, minimal_first, minimal_warm = [], [], []
    for _ in range(runs):
        with gunicorn(database, 1, settings.SECRET_KEY) as port:  # the client's session signed with it
            until_serving(port)
            chooser_first.append(timed_request(port, "POST", url, body.encode(), headers))
            minimal_warm.append(median_time(lambda: timed_request(port, "GET", "/bench/minimal"), 50))
        with gunicorn(database, 1) as port:
            until_serving(port)
            minimal_first.append(timed_request(port, "GET", "/bench/minimal"))
    return statistics.median(chooser_first), statistics.median(minimal_first), statistics.median(minimal_warm)


def throughput_bench(saved) -> None:
    """The 12-Gear Anvil's share page and PDF under gunicorn, against a trivial view served alongside."""
    if connection.vendor != "sqlite":
        print("8. throughput under gunicorn: skipped, it serves this run's SQLite test database")
        return
    workers, clients, seconds, runs = 4, 8, 2, 5
    paths = {"view": "/bench/minimal", "share": f"/s/{saved.share_id}/", "pdf": f"/s/{saved.share_id}.pdf"}
    rates = {key: [] for key in paths}
    with gunicorn(f"sqlite:///{connection.settings_dict['NAME']}", workers) as port:
        for path in paths.values():
            # Fills every worker's caches: a PDF is rendered once in each (Django's cache is per process).
            requests_per_second(port, path, 1, clients)
        for _ in range(runs):
            for key, path in paths.items():
                rates[key].append(requests_per_second(port, path, seconds, clients))
    view, share, pdf = (statistics.median(rates[key]) for key in paths)
    print(f"8. throughput under gunicorn ({workers} workers, DEBUG off, {clients} clients, median of {runs} runs of "
          f"{seconds} s): a trivial Django view returning 'ok' {view:.0f} requests/s")
    print(f"   share page of the 12-Gear Anvil            {share:6.0f} requests/s = {share / view:4.0%} of the view's "
          f"(goal >= 50%)")
    print(f"   its A4 PDF, asked for again and again      {pdf:6.0f} requests/s = {pdf / view:4.0%} of the view's "
          f"(goal >= 50%)")


def table_bench(saved) -> None:
    """Table mode under gunicorn: a change to a track, timed alternately with the trivial view; how soon it is on a
    second screen that asks every second as the table page does; and what 100 open tables asking every second
    cost, from the requests a second the "nothing moved" answer is served at."""
    if connection.vendor != "sqlite":
        print("13. table mode: skipped, it serves this run's SQLite test database")
        return
    from builder import store
    from builder.models import Table
    from builder.table import sheet_of

    sheet = sheet_of(store.check_saved(saved), saved.name, saved.share_id)
    tables = [Table.objects.create(build=saved, version=saved.version, sheet=sheet) for _ in range(100)]
    track = next(t for t in sheet[0]["tracks"] if not t["options"] and t["high"] - t["low"] >= 1)
    token = tables[0].token
    workers, clients, seconds, runs = 4, 8, 2, 5
    with gunicorn(f"sqlite:///{connection.settings_dict['NAME']}", workers, RATE_LIMITS="0") as port:
        headers = {"Content-Type": FORM, "Accept": "application/json", "Host": cluster.HOST, **form_token(port, token)}
        value = [track["start"]]

        def change() -> float:
            after = track["low"] if value[0] != track["low"] else track["low"] + 1
            body = urlencode({"key": track["key"], "before": value[0], "after": after}).encode()
            value[0] = after
            return timed_request(port, "POST", f"/t/{token}/change", body, headers)

        for _ in range(5):
            change(), timed_request(port, "GET", "/bench/minimal")
        pairs = [(change(), timed_request(port, "GET", "/bench/minimal")) for _ in range(60)]
        changed, view = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
        arrivals = [arrival(port, token, change) for _ in range(10)]
        live = f"/t/{token}/live?revision={Table.objects.get(token=token).revision}"
        requests_per_second(port, live, 1, clients, 204)
        polls = statistics.median(requests_per_second(port, live, seconds, clients, 204) for _ in range(runs))
        trivial = statistics.median(requests_per_second(port, "/bench/minimal", seconds, clients) for _ in range(runs))
    print(f"13. table mode under gunicorn ({workers} workers, DEBUG off), against a trivial Django view returning 'ok' "
          f"({fmt(view)} a request, {trivial:.0f} requests/s)")
    print(f"   a change to a track (POST, one transaction)  {fmt(changed):>10} = {changed / view:4.1f}x the view")
    print(f"   on a second screen asking every second       median {fmt(statistics.median(arrivals))}, slowest "
          f"{fmt(max(arrivals))} (target <= 2 s)")
    print(f"   \"nothing moved\" (204) answers              {polls:6.0f} requests/s = {polls / trivial:4.0%} of the "
          f"view's: 100 open tables asking every second take {100 / polls:.1%} of this server")


def form_token(port: int, token: str) -> dict[str, str]:
    """The headers a table page's script posts with: its form token, and the cookie that goes with it."""
    asking = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    asking.request("GET", f"/t/{token}/", headers={"Host": cluster.HOST})
    answer = asking.getresponse()
    answer.read()
    cookie = next(c for c in answer.headers.get_all("Set-Cookie") if c.startswith("csrftoken="))
    asking.close()
    value = cookie.split(";")[0].split("=", 1)[1]
    return {"Cookie": f"csrftoken={value}", "X-CSRFToken": value}


def arrival(port: int, token: str, change) -> float:
    """Seconds from sending a change until a screen that asks every second, as the table page does (at a moment
    of its own), has the new revision."""
    from builder.models import Table

    seen = Table.objects.get(token=token).revision
    offset = secrets.randbelow(1000) / 1000  # where in its second the other screen is
    start = time.perf_counter()
    change()
    time.sleep(offset)
    while True:
        asking = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        asking.request("GET", f"/t/{token}/live?revision={seen}", headers={"Host": cluster.HOST})
        status = asking.getresponse().status
        asking.close()
        if status == 200:
            return time.perf_counter() - start
        time.sleep(1)


def scale_out_bench(document: dict) -> None:
    """Share-page and PDF-repeat throughput from two nodes against one, each beside the trivial view measured on
    the same nodes, all on one PostgreSQL and one Redis as production runs them. One worker a node: on this
    machine, a node stands for a machine of one core."""
    if not (POSTGRES_URL and REDIS_URL):
        print("9. two nodes against one: skipped (needs PostgreSQL and Redis, which `make bench` starts)")
        return
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    clients, seconds, runs = 8, 2, 3
    with tempfile.TemporaryDirectory() as work:
        env = environment(fresh_database("hardpoint_bench"), REDIS_URL, STATIC_ROOT=f"{work}/static")
        prepare(env)
        nodes = [Node(env, Path(work) / f"{n}.log", workers=1).start() for n in range(2)]
        try:
            share_id = cluster.call("POST", f"{nodes[0].url}/api/builds", document).json()["share_id"]
            paths = {"view": "/healthz", "share": f"/s/{share_id}/", "pdf": f"/s/{share_id}.pdf"}
            rates = {(count, key): [] for count in (1, 2) for key in paths}
            for count in (1, 2):
                ports = [node.port for node in nodes[:count]]
                for path in paths.values():
                    requests_per_second(ports, path, 1, clients)  # each worker's caches filled
                for _ in range(runs):
                    for key, path in paths.items():
                        rates[count, key].append(requests_per_second(ports, path, seconds, clients))
        finally:
            for node in nodes:
                node.stop()
            drop_database("hardpoint_bench")
    rate = {key: statistics.median(found) for key, found in rates.items()}
    print(f"9. two nodes against one (one gunicorn worker each, one PostgreSQL, one Redis, {clients} clients spread "
          f"over the nodes, median of {runs} runs of {seconds} s), requests/s:")
    print(f"   {'':34}{'one node':>10}{'two nodes':>11}{'two / one':>11}")
    for key, label in (("view", "the trivial view (/healthz)"), ("share", "share page of the 12-Gear Anvil"),
                       ("pdf", "its A4 PDF, asked for again")):
        one, two = rate[1, key], rate[2, key]
        against = "" if key == "view" else (f"   = {one / rate[1, 'view']:.0%} and {two / rate[2, 'view']:.0%} of the "
                                            f"view's on the same nodes")
        print(f"   {label:34}{one:10.0f}{two:11.0f}{two / one:10.2f}x{against}")


def growth_table(title: str, size_heading: str, rows: dict[int, dict[str, float | int]]) -> None:
    """One line per size: times with their ratio to the smallest size's, counts as they are."""
    first = next(iter(rows.values()))
    print(f"   {title}")
    print(f"   {size_heading:>9}" + "".join(f"  {column:>20}" for column in first))
    for size, row in rows.items():
        cells = (f"{fmt(value):>13} {value / first[column]:5.1f}x" if isinstance(value, float) else f"{value:>20}"
                 for column, value in row.items())
        print(f"   {size:>9}" + "".join(f"  {cell}" for cell in cells))


def anvil_growth(document, catalogue) -> None:
    from builder import store
    from catalogue.rulesets.metallurgent import rules

    rows = {}
    for gear in (0, 6, 12, 24, 48):
        # Repeats the 12 Gear: illegal past 12, but every document reads (up to 48 are read).
        sized = {**document, "gear": (document["gear"] * 4)[:gear]}
        build = rules.parse(sized)
        rows[gear] = {"validate()": median_time(lambda: rules.validate(build, catalogue), 300),
                      "store.check()": median_time(lambda: store.check(sized), 300)}
    growth_table("9. an Anvil by its Gear: validate(), and store.check() (parse, read the pack, validate)", "Gear", rows)


def squad_growth(pack) -> None:
    """Platoons alternate between one saved Anvil with its own Pilot and four conventional units, Anvil first."""
    from builder import store
    from catalogue.loader import latest_pack

    pilots_ref = latest_pack("metallurgent", "pilot").ref
    units_ref = latest_pack("metallurgent", "squad").ref
    units = [{"unit": k} for k in ("t-72b-mbt", "m60a3-mbt", "bmp-2-ifv", "rifle-squad")]
    platoons = []
    for i in range(12):
        pilot = store.create(store.check({"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "pilot",
                                          "pack": pilots_ref, "name": f"Pilot {i}", "xp": 40,
                                          "history": [{"specialise": "guardian"}]}))
        anvil = store.create(store.check({**pack.examples[i % len(pack.examples)], "name": f"Anvil {i}",
                                          "pilot": pilot.share_id}))
        platoons += [{"name": f"Anvil {i}", "members": [{"build": anvil.share_id}]},
                     {"name": f"Armour {i}", "members": units}]
    rows = {}
    for size in (1, 4, 8, 16, 24):
        document = {"format": "hardpoint.build/1", "ruleset": "metallurgent", "kind": "squad", "pack": units_ref,
                    "name": "Bench Squad", "platoons": platoons[:size]}
        with CaptureQueriesContext(connection) as queries:
            store.check(document)
        rows[size] = {"store.check()": median_time(lambda: store.check(document), 100), "queries": len(queries)}
    growth_table("10. a squad by its Platoons, every other one a saved Anvil with its Pilot: store.check() "
                 "(target: queries independent of size)", "Platoons", rows)


def leader_growth() -> None:
    from catalogue.loader import catalogue_for, latest_pack
    from catalogue.rulesets.darkmetal import rules

    pack = latest_pack("darkmetal")
    catalogue = catalogue_for(pack)
    # Splices and Cybers in turn, repeated past the 33 there are, each at the price it costs then.
    splices = [k for k, c in catalogue.categories.items() if c == "splice"]
    cybers = [k for k, c in catalogue.categories.items() if c == "cyber"]
    keys = [k for pair in zip(splices * 2, cybers * 2) for k in pair][:40]
    bought = rules.priced_in_order(catalogue, keys)
    rows = {}
    for size in (0, 10, 20, 40):
        document = {"format": "hardpoint.build/1", "ruleset": "darkmetal", "kind": "leader", "pack": pack.ref,
                    "name": "Bench Leader", "modifications": bought[:size]}
        rows[size] = {"validate()": median_time(lambda: rules.validate(document, catalogue), 300)}
    growth_table("11. a DARK METAL Leader by its MES purchases: validate() (parses its document too)", "MES", rows)


def dice_growth() -> None:
    from catalogue.rulesets import dice
    from catalogue.rulesets.metallurgent.dice import metallurgent_die

    rows = {size: {"pool()": median_time(lambda: dice.pool(metallurgent_die(4), size), 100)}
            for size in (10, 30, 100, 300)}
    growth_table("12. an exact d6 pool (hits on 4+, 6s count twice) by its dice (target: 300 dice <= 8 ms)", "dice",
                 rows)


if __name__ == "__main__":
    sys.exit(main())
