"""`manage.py import_compcon FILE`: a pilot exported from COMP/CON saved as a build (see import_build)."""
from .import_build import Command as ImportBuild


class Command(ImportBuild):
    help = "Import a pilot exported from COMP/CON, with its mechs, as a Hardpoint build."
    format = "compcon"
