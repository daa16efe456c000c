"""The database table of the "sheets" cache (settings.CACHES), made by `migrate` so that no deployment can
serve a PDF link before it exists. With Redis configured, createcachetable makes nothing."""
from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("builder", "0001_initial")]
    operations = [migrations.RunPython(create_cache_tables, migrations.RunPython.noop)]
