"""No upload, however small or however large within the limits, makes the server use more than 256 MB or store more
than the documented caps. Each hostile upload is posted to a fresh Django process (its own SQLite database), which
resets its peak resident size before each one (Linux: /proc/self/clear_refs) and reports it, with what was stored.
The pack page of an accepted upload is drawn too: stored data is what every later page reads."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalogue.rulesets.packs import MAX_ITEM_BYTES, MAX_PACK_BYTES

SERVER_LIMIT_MB = 256
ROOT = Path(__file__).resolve().parents[2]

CHILD = r'''
import io, json, os, sys, zipfile
import django
django.setup()
from django.core.management import call_command
from django.db.models import Sum
from django.db.models.functions import Length
from django.test import Client
call_command("migrate", verbosity=0)
from catalogue.models import Item, UserPack

def peak_reset():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")

def peak_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

def zipped(files, method=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()

header = "name: {name}\nversion: 1.0.0\nruleset: darkmetal\ntitle: T\n"
laughs = "\n".join(["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] +
                   [f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi")])
weapon = ("- {{key: w{n}, name: Weapon {n}, cost: 10, carry: 1H, damage: 1, pierce: 0, close_combat: true, "
          "weapon_type: Melee Weapon, description: {text}}}\n")
many = header.format(name="many") + "items:\n  weapon:\n" + "".join(
    "  " + weapon.format(n=n, text="x" * 560) for n in range(2500))
lcp_weapon = {"id": "mw_x", "name": "X", "license_level": 0, "mount": "Main", "type": "Rifle",
              "damage": [{"type": "Kinetic", "val": 1}], "range": [{"type": "Range", "val": 5}]}
lcp_manifest = json.dumps({"name": "Kit", "version": "1.0.0", "author": "us", "description": ""})
uploads = {
    "billion laughs (YAML aliases)": (header.format(name="laughs") + "items: {}\n" + laughs, "application/yaml", ""),
    "a flow list of a million values": (header.format(name="flow") + "items: {weapon: [" + ",".join(["1"] * 1_000_000) + "]}",
                                        "application/yaml", ""),
    "2,500 items of 600 characters": (many, "application/yaml", ""),
    "nesting 2,000 levels deep": (header.format(name="deep") + "x: " + "[" * 2000 + "]" * 2000, "application/yaml", ""),
    "a zip bomb": (zipped({"pack.yaml": header.format(name="bomb"), "weapon.csv": "key,name\n" + "0" * 60_000_000}),
                   "application/zip", ""),
    "an LCP of 7 MB of extra fields": (zipped({"lcp_manifest.json": lcp_manifest, "weapons.json": json.dumps(
        [{**lcp_weapon, "id": f"mw_{n}", "lore": ["x" * 60] * 450} for n in range(250)])}), "application/zip",
        "?filename=kit.lcp"),
    "an LCP item nested deep": (zipped({"lcp_manifest.json": lcp_manifest, "weapons.json":
                                        "[" + json.dumps(lcp_weapon)[:-1] + ', "lore": ' + "[" * 900 + "]" * 900 + "}]"}),
                                "application/zip", "?filename=kit.lcp"),
    "numbers of 4,000 digits in a CSV": ("key,name,cost,carry,damage\n" + "".join(
        f"w{n},W,{'9' * 4000},1H,1\n" for n in range(400)), "text/csv",
        "?name=digits&version=1.0.0&ruleset=darkmetal&title=T&category=weapon"),
}
client = Client()
results = {}
for name, (body, content_type, query) in uploads.items():
    raw = body.encode() if isinstance(body, str) else body
    peak_reset()
    response = client.post("/api/packs" + query, data=raw, content_type=content_type)
    page = None
    if response.status_code == 201:
        page = client.get(response.json()["share_url"]).status_code
    stored = Item.objects.aggregate(total=Sum(Length("stats")))["total"] or 0
    largest = max((len(json.dumps(s)) for s in Item.objects.values_list("stats", flat=True)), default=0)
    results[name] = {"bytes": len(raw), "status": response.status_code, "page": page, "peak_mb": peak_mb(),
                     "stored": stored, "largest_item": largest}
    Item.objects.all().delete()
    UserPack.objects.all().delete()
print(json.dumps(results))
'''


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="peak memory is read from Linux's /proc")
def test_no_upload_makes_the_server_use_more_than_256_mb_or_store_past_the_caps(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "builder.settings", "DATABASE_URL": f"sqlite:///{tmp_path}/db",
           "DEBUG": "0", "SECRET_KEY": "tests-only", "RATE_LIMITS": "0", "ALLOWED_HOSTS": "testserver",
           "PYTHONPATH": str(ROOT)}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(results, indent=1))
    for name, result in results.items():
        assert result["status"] < 500 and result["page"] in (None, 200), (name, result)
        assert result["peak_mb"] < SERVER_LIMIT_MB, (name, result)
        assert result["stored"] <= MAX_PACK_BYTES and result["largest_item"] <= MAX_ITEM_BYTES, (name, result)
    assert results["2,500 items of 600 characters"]["status"] == 201  # a big honest pack loads
    assert all(r["status"] >= 400 for n, r in results.items() if n != "2,500 items of 600 characters")
