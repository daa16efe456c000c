"""`manage.py dice <ruleset> ...`: an exact dice distribution as JSON."""
import json

from django.core.management.base import BaseCommand, CommandError

from catalogue.rulesets import dice

MAX_DICE = 200


class Command(BaseCommand):
    help = ("Print an exact distribution as JSON: metallurgent --pool N --criterion C [--indirect]; "
            "megamercs --target T; darkmetal --pool N --target T [--defence M].")

    def add_arguments(self, parser):
        parser.add_argument("ruleset", choices=["metallurgent", "megamercs", "darkmetal"])
        parser.add_argument("--pool", type=int, help="number of dice")
        parser.add_argument("--criterion", type=int, help="METALLURGENT success criterion (2-6)")
        parser.add_argument("--indirect", action="store_true", help="METALLURGENT indirect: 6s do not count twice")
        parser.add_argument("--target", type=int, help="MEGA MERCS d100 target / DARK METAL d10 target number")
        parser.add_argument("--defence", type=int, default=0, help="DARK METAL defence d6 (each 1 cancels a success)")

    def handle(self, ruleset, pool, criterion, indirect, target, defence, **options):
        if pool is not None and not 0 <= pool <= MAX_DICE:
            raise CommandError(f"--pool must be 0 to {MAX_DICE}", returncode=2)
        if ruleset == "metallurgent":
            if pool is None or criterion is None:
                raise CommandError("metallurgent needs --pool and --criterion", returncode=2)
            distribution = dice.metallurgent_pool(pool, criterion, duplicate=not indirect)
        elif ruleset == "megamercs":
            if target is None:
                raise CommandError("megamercs needs --target", returncode=2)
            distribution = dice.d100_roll_under(target)
        else:
            if pool is None or target is None:
                raise CommandError("darkmetal needs --pool and --target", returncode=2)
            if not 0 <= defence <= MAX_DICE:
                raise CommandError(f"--defence must be 0 to {MAX_DICE}", returncode=2)
            distribution = dice.darkmetal_pool(pool, target, defence)
        self.stdout.write(json.dumps({"distribution": distribution.as_dict()}))
