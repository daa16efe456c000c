"""The catalogue store: each pack version is kept, so saved builds keep the parts they were built with."""
from django.db import models


class Ruleset(models.Model):
    key = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    tagline = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Pack(models.Model):
    SOURCES = [("starter", "Starter (authored by Hardpoint)"), ("rulebook", "Rulebook")]

    ruleset = models.ForeignKey(Ruleset, on_delete=models.CASCADE, related_name="packs")
    name = models.SlugField(max_length=64)
    version = models.CharField(max_length=20)
    source = models.CharField(max_length=10, choices=SOURCES)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64)
    examples = models.JSONField(default=list, blank=True)
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="unique_pack_version")]
        ordering = ["ruleset__key", "name", "-loaded_at"]

    def __str__(self) -> str:
        return self.ref

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def semver(self) -> tuple[int, ...]:
        return tuple(int(n) for n in self.version.split("."))


class Item(models.Model):
    pack = models.ForeignKey(Pack, on_delete=models.CASCADE, related_name="items")
    category = models.SlugField(max_length=40)
    key = models.SlugField(max_length=64)
    name = models.CharField(max_length=80)
    stats = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["pack", "key"], name="unique_item_key_per_pack")]
        indexes = [models.Index(fields=["pack", "category"])]
        ordering = ["category", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.category})"
