"""`manage.py load_pack FILE`: upload a user pack (YAML, CSV or zip) as the browser and API do.

Prints {"pack", "items" (its own, not the base's), "extends", "status", "share_url", "edit_url", "skipped" (each
entry left out: {file, category, id, field, message})} as JSON. Exit 0 when loaded (or already loaded unchanged),
3 when loaded with problems (some entries could not be read and were left out), 1 when refused for schema or rule
problems, 2 when the file is no pack at all or cannot be read.
"""
import json
import sys
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand

from catalogue.management import exit_on_bad_input
from catalogue.loader import publish
from catalogue.rulesets.base import PackError, PackUnreadable
from catalogue.rulesets.packs import LONE_CSV_HEADER, MAX_UPLOAD, left_out



class Command(BaseCommand):
    help = "Load a user pack from a YAML, CSV or zip file and print its links as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a .yaml, .csv or .zip pack")
        parser.add_argument("--owner-note", default="", help="a note kept with the pack (who made it, for what)")
        parser.add_argument("--edit-token", help="publish a new version of a pack you uploaded before")
        for field in LONE_CSV_HEADER:
            # Django's own --version is the command's; the pack's is --pack-version.
            flag = "--pack-version" if field == "version" else f"--{field}"
            parser.add_argument(flag, dest=field, help=f"the pack's {field}, for a lone CSV file")

    def handle(self, *args, file, owner_note, edit_token, **options):
        path = Path(file)
        header = {f: options[f] for f in LONE_CSV_HEADER if options.get(f)} or None
        with exit_on_bad_input(self, (PackUnreadable, "unreadable", 2), (PackError, "refused", 1), file=file):
            if path.stat().st_size > MAX_UPLOAD:
                raise PackUnreadable(f"{path.name}: {path.stat().st_size} bytes; a pack is at most {MAX_UPLOAD}")
            published = publish(path.read_bytes(), path.name, header=header, edit_token=edit_token,
                                owner_note=owner_note)
        owner = published.user_pack
        self.stdout.write(json.dumps({
            "pack": published.result.ref, "items": published.own_items, "extends": published.extends,
            "status": published.result.status,
            "share_url": owner.share_url(), "edit_url": owner.get_absolute_url(),
            "skipped": [asdict(entry) for entry in published.skipped]}, indent=2))
        if published.skipped:
            count = left_out(published.skipped)
            self.stderr.write(f"loaded with problems: {count} entr{'y' if count == 1 else 'ies'} could not be read\n"
                              + "\n".join(str(entry) for entry in published.skipped))
            sys.exit(3)
