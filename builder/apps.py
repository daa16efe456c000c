from django.apps import AppConfig


class BuilderConfig(AppConfig):
    name = "builder"
    verbose_name = "Builds"
