"""`manage.py import_build FORMAT FILE`: another app's file, in a format a ruleset exchanges (the registry's
EXCHANGES), saved as a build. Prints the new build's links and what was left out; exit 0 imported and legal, 1
imported with issues or unknown ids, 2 unreadable (nothing saved)."""
import json
import sys

from django.core.management.base import BaseCommand
from django.db import transaction

from builder import exchange, store
from catalogue.management import exit_on_bad_input, read_input
from catalogue.models import Pack
from catalogue.rulesets import EXCHANGES
from catalogue.rulesets.base import BuildError, pack_refs


class Command(BaseCommand):
    help = ("Import another app's build file, in a format a ruleset exchanges, as a Hardpoint build. Prints its "
            "links and what was left out as JSON; exit 0 imported and legal, 1 imported with issues or unknown "
            "ids, 2 unreadable (nothing saved).")

    def add_arguments(self, parser):
        formats = "; ".join(f"{key}: {found.label}" for key, (_, found) in sorted(EXCHANGES.items()))
        parser.add_argument("format", choices=sorted(EXCHANGES), help=f"the file's format ({formats})")
        parser.add_argument("file", help="the file to import, or - for standard input")
        parser.add_argument("--pack", default="", help="name@version (or an uploaded pack's share link; several "
                                                       "as base,extension,…) to read it against; default: the "
                                                       "packs the file names or whose ids it uses")

    def handle(self, *args, file, pack, **options):
        with exit_on_bad_input(self, (BuildError, f"{file}: not imported", 2), file=file):
            raw = read_input(file)
            with transaction.atomic():
                # The server's operator may read against any pack loaded here, uploaded ones included.
                imported = exchange.read(options["format"], raw, pack,
                                         Pack.objects.filter(source="user").select_related("ruleset"))
                checked, unknown = imported.checked, imported.unknown
                build = store.create(checked)
        self.stdout.write(json.dumps({"share_url": build.share_url(), "edit_url": build.get_absolute_url(),
                                      "legal": checked.report.legal,
                                      "issues": [i.as_dict() for i in checked.report.issues],
                                      "packs": pack_refs(build.pack_ref), "missing_packs": imported.missing,
                                      "unknown": exchange.unknown_as_dicts(unknown)}, indent=2, ensure_ascii=False))
        sys.exit(0 if checked.report.legal and not unknown else 1)
