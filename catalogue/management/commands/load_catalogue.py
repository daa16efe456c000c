from django.core.management.base import BaseCommand, CommandError

from catalogue.loader import load_all
from catalogue.rulesets.base import PackError


class Command(BaseCommand):
    help = "Load every ruleset's packs into the catalogue (idempotent)."

    def handle(self, *args, **options):
        try:
            results = load_all()
        except PackError as exc:
            raise CommandError(str(exc), returncode=2) from None
        for result in results:
            self.stdout.write(f"{result.ref}: {result.status} ({result.items} items)")
