"""`manage.py validate FILE.json`: print the Report; exit 0 legal, 1 illegal, 2 unreadable."""
import json
import sys

from django.core.management.base import BaseCommand

from builder import store
from catalogue.management import exit_on_bad_input, read_input
from catalogue.rulesets.base import BuildError


class Command(BaseCommand):
    help = "Validate a build JSON file and print its Report as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to a build JSON file, or - for standard input")

    def handle(self, *args, file, **options):
        with exit_on_bad_input(self, (BuildError, f"{file}: unreadable build", 2), file=file):
            checked = store.check(store.decode(read_input(file)))
        self.stdout.write(json.dumps(checked.report.as_dict(), indent=2, ensure_ascii=False))
        sys.exit(0 if checked.report.legal else 1)
