from django.apps import AppConfig
from django.db.models.signals import post_delete


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = "Catalogue"

    def ready(self):
        from . import loader
        from .models import Pack

        # Builds pinned to a deleted pack must stop reading at once, not when the process restarts.
        post_delete.connect(lambda sender, instance, **kwargs: loader.forget(instance.ref), sender=Pack,
                            weak=False, dispatch_uid="forget-deleted-pack")
