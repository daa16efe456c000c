from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from catalogue.rulesets import ACTIVE
from catalogue.rulesets.base import PackError
from catalogue.rulesets.rule_index import readings_page, readings_table, with_readings


class Command(BaseCommand):
    help = ("Print each ruleset's readings of unclear rules from its rule index, as its docs page's table; "
            "--write puts each table into docs/rulesets/<ruleset>.md between its "
            "`<!-- readings:<ruleset> -->` markers.")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="update docs/rulesets/<ruleset>.md in place")

    def handle(self, *args, write=False, **options):
        base = Path(settings.BASE_DIR)
        pages: dict[Path, str] = {}
        try:
            for key, ruleset in ACTIVE.items():
                if not ruleset.rules():
                    continue
                table = readings_table(ruleset.rules())
                if not write:
                    self.stdout.write(f"{ruleset.name}\n{table}\n")
                    continue
                page = base / readings_page(key)
                try:
                    text = pages.get(page) or page.read_text(encoding="utf-8")
                    pages[page] = with_readings(text, key, table)
                except OSError as exc:
                    raise ValueError(f"{readings_page(key)}: {exc.strerror}") from None
                except ValueError as exc:
                    raise ValueError(f"{readings_page(key)}: {exc}") from None
        except (PackError, ValueError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        # Written only once every page has its block, so a missing marker leaves no page half updated.
        for page, text in pages.items():
            page.write_text(text, encoding="utf-8")
