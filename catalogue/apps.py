from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = "Catalogue"

    def ready(self):
        from . import loader
        from .models import Pack

        # Builds pinned to a deleted pack must stop reading at once, and a new version serve new builds.
        def forget(sender, instance, **kwargs):
            loader.forget(instance.ref)

        post_delete.connect(forget, sender=Pack, weak=False, dispatch_uid="forget-deleted-pack")
        post_save.connect(forget, sender=Pack, weak=False, dispatch_uid="forget-loaded-pack")
