"""`manage.py dice <ruleset> [options]`: an exact dice distribution as JSON; each ruleset names its options."""
import json
import re

from django.core.management.base import BaseCommand, CommandError

from catalogue.rulesets import RULESETS


class Command(BaseCommand):
    help = "Print an exact dice distribution as JSON. `manage.py dice <ruleset> --help` lists a ruleset's options."

    def add_arguments(self, parser):
        rulesets = parser.add_subparsers(dest="ruleset", required=True, metavar="ruleset")
        for ruleset in RULESETS.values():
            if ruleset.dice is None:
                continue
            sub = rulesets.add_parser(ruleset.key, help=f"{ruleset.name} dice")
            for option in ruleset.dice.options:
                if option.flag:
                    sub.add_argument(f"--{option.name}", action="store_true", help=option.help)
                elif option.choices or option.pattern:
                    sub.add_argument(f"--{option.name}", default=option.default, help=option.help,
                                     **({"choices": option.choices} if option.choices else {}))
                else:
                    sub.add_argument(f"--{option.name}", type=int, default=option.default,
                                     help=f"{option.help} ({option.low} to {option.high})")

    def handle(self, *args, ruleset, **options):
        dice = RULESETS[ruleset].dice
        values = {}
        for option in dice.options:
            value = options[option.name.replace("-", "_")]
            if option.flag:
                values[option.name] = bool(value)
                continue
            if value is None:
                raise CommandError(f"{ruleset} needs --{option.name}", returncode=2)
            if option.pattern and not re.fullmatch(option.pattern, str(value)):
                raise CommandError(f"--{option.name} {str(value)[:30]!r}: {option.help}", returncode=2)
            if option.choices or option.pattern:
                values[option.name] = value
                continue
            if not option.low <= value <= option.high:
                raise CommandError(f"--{option.name} must be {option.low} to {option.high}", returncode=2)
            values[option.name] = value
        result = dice.roll(**values)
        self.stdout.write(json.dumps({"distribution": result.as_dict()} if hasattr(result, "as_dict") else result))
