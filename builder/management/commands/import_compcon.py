"""`manage.py import_compcon FILE`: a COMP/CON pilot export saved as a LANCER pilot (see import_build)."""
from .import_build import Command as ImportBuild


class Command(ImportBuild):
    help = "Import a pilot exported from COMP/CON as a Hardpoint LANCER pilot with its mechs."
    format = "compcon"
