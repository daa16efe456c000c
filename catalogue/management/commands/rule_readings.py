from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.rule_index import readings_table, with_readings


class Command(BaseCommand):
    help = ("Print each ruleset's readings of unclear rules from its rule index, as the README's tables; "
            "--write puts them into README.md between its `<!-- readings:<ruleset> -->` markers.")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="update README.md in place")

    def handle(self, *args, write=False, **options):
        readme = Path(settings.BASE_DIR) / "README.md"
        text = readme.read_text(encoding="utf-8")
        try:
            for key, ruleset in ACTIVE.items():
                if not ruleset.rules():
                    continue
                table = readings_table(ruleset.rules())
                if write:
                    text = with_readings(text, key, table)
                else:
                    self.stdout.write(f"{ruleset.name}\n{table}\n")
        except (PackError, ValueError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        if write:
            readme.write_text(text, encoding="utf-8")
