"""`manage.py preview BUILD.json [--unit KEY | --against OTHER.json | --build SHARE_ID] [situation options]`."""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from builder import store
from builder.kinds import page_for
from catalogue.rulesets.base import BuildError


class Command(BaseCommand):
    help = ("Preview a build's attacks (an Anvil against a target, a Squad Leader against the situation); "
            "prints the preview as JSON (exit 2 on unreadable input).")

    def add_arguments(self, parser):
        parser.add_argument("attacker", help="the attacking build's JSON file")
        target = parser.add_mutually_exclusive_group()
        target.add_argument("--unit", help="a conventional unit's key from the units pack")
        target.add_argument("--against", help="another build's JSON file")
        target.add_argument("--build", help="a saved build's share id")
        parser.add_argument("--situation", default="{}", help='JSON, e.g. \'{"range": 8, "target_dodging": true}\'')
        parser.add_argument("--range", type=int, help="distance to the target (overrides --situation)")
        parser.add_argument("--turns", type=int, help="turns of the firing plan (overrides --situation)")

    def handle(self, *args, attacker, unit, against, build, situation, range, turns, **options):
        try:
            checked = store.check(store.decode(Path(attacker).read_bytes()))
            chosen = store.decode(situation)
            if not isinstance(chosen, dict):
                raise BuildError([{"path": "situation", "message": "must be a JSON object"}])
            chosen.update({k: v for k, v in (("range", range), ("turns", turns)) if v is not None})
            request = {"situation": chosen}
            if unit:
                request["target"] = {"unit": unit}
            elif build:
                request["target"] = {"build": build}
            elif against:
                request["target"] = store.decode(Path(against).read_bytes())
            result = page_for(checked.ruleset.key, checked.kind.key).preview(checked, request)
        except OSError as exc:
            self.stderr.write(f"cannot read: {exc.filename}: {exc.strerror}")
            sys.exit(2)
        except BuildError as exc:
            self.stderr.write(f"unreadable input: {exc}")
            sys.exit(2)
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False, default=str))
