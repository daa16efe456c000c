"""The rulesets Hardpoint knows: one folder each, registered here and nowhere else."""
from dataclasses import dataclass
from types import ModuleType

from . import darkmetal, metallurgent

ACTIVE: dict[str, ModuleType] = {metallurgent.KEY: metallurgent, darkmetal.KEY: darkmetal}


@dataclass(frozen=True)
class Planned:
    key: str
    name: str
    tagline: str


# Shown on the home page as coming; each gets a folder when its issue is taken.
PLANNED = (
    Planned("megamercs", "MEGA MERCS 2028", "Mecha and tanks with typed, sized hardpoints on d100."),
    Planned("lancer", "LANCER (beta mech combat)", "Pilots and mechs: mounts, weapons by size, systems."),
    Planned("ember", "Ember·Obsidian Protocol", "M.A.P. mechs from Part cards and a Pilot, custom dice."),
)
