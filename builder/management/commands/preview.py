"""`manage.py preview BUILD.json [--target JSON | --against OTHER.json | --build SHARE_ID] [situation options]`:
the build's kind's combat preview (what POST /api/preview answers) as JSON."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand

from builder import store
from catalogue.management import exit_on_bad_input
from catalogue.rulesets.base import BuildError


class Command(BaseCommand):
    help = ("Preview a build's attacks against a target and a situation, as its kind's combat preview reads them "
            "(the request POST /api/preview takes; a kind whose preview reads no target takes only the "
            "situation); prints the preview as JSON (exit 2 on unreadable input).")

    def add_arguments(self, parser):
        parser.add_argument("attacker", help="the attacking build's JSON file")
        target = parser.add_mutually_exclusive_group()
        target.add_argument("--target", help="the target as JSON, in a shape the build's kind's preview reads")
        target.add_argument("--against", help="another build's JSON file as the target")
        target.add_argument("--build", help="a saved build's share id as the target")
        parser.add_argument("--situation", default="{}", help='JSON, e.g. \'{"range": 8, "target_dodging": true}\'')
        parser.add_argument("--range", type=int, help="distance to the target (overrides --situation)")
        parser.add_argument("--turns", type=int, help="turns of the firing plan (overrides --situation)")

    def handle(self, *args, attacker, target, against, build, situation, range, turns, **options):
        with exit_on_bad_input(self, (BuildError, "unreadable input", 2)):
            checked = store.check(store.decode(Path(attacker).read_bytes()))
            chosen = store.decode(situation)
            if not isinstance(chosen, dict):
                raise BuildError([{"path": "situation", "message": "must be a JSON object"}])
            chosen.update({k: v for k, v in (("range", range), ("turns", turns)) if v is not None})
            request = {"situation": chosen}
            if target:
                request["target"] = store.decode(target)
            elif build:
                request["target"] = {"build": build}
            elif against:
                request["target"] = store.decode(Path(against).read_bytes())
            result = store.preview(checked, request)
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False, default=str))
