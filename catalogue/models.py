"""The catalogue store: each pack version is kept, so saved builds keep the parts they were built with."""
import re
import secrets

from django.db import models
from django.urls import reverse

from catalogue.rulesets.base import SHARE_ID


class Ruleset(models.Model):
    key = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    tagline = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def new_edit_token() -> str:
    # Hex, because a url-safe token may begin with "-" and then reads as an option on load_pack's command line.
    return secrets.token_hex(24)


def new_share_id() -> str:
    return secrets.token_urlsafe(8)


class UserPack(models.Model):
    """An uploaded pack's name and its capability links, shared by all its versions: the edit link publishes
    new versions, the share link lets others build with it. Never listed; nobody's default."""

    name = models.SlugField(max_length=64, unique=True)
    edit_token = models.CharField(max_length=64, unique=True, default=new_edit_token, editable=False)
    share_id = models.CharField(max_length=32, unique=True, default=new_share_id, editable=False)
    owner_note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pack-edit", args=[self.edit_token])

    @classmethod
    def by_link(cls, text: str) -> "UserPack | None":
        """The pack a pasted share link (or its bare id) names; None for anything else."""
        found = re.search(rf"(?:/packs/)?({SHARE_ID})/?$", str(text).strip().partition("?")[0])
        return cls.objects.filter(share_id=found.group(1)).first() if found else None

    def newest(self) -> "Pack | None":
        """Its newest loaded version."""
        return max(self.versions.all(), key=lambda p: p.semver, default=None)

    def share_url(self) -> str:
        return reverse("pack-share", args=[self.share_id])


class Pack(models.Model):
    SOURCES = [("starter", "Starter (authored by Hardpoint)"), ("rulebook", "Rulebook"), ("user", "Uploaded")]
    PUBLIC = ("starter", "rulebook")  # the sources a ruleset's default pack comes from

    ruleset = models.ForeignKey(Ruleset, on_delete=models.CASCADE, related_name="packs")
    name = models.SlugField(max_length=64)
    version = models.CharField(max_length=20)
    source = models.CharField(max_length=10, choices=SOURCES)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64)
    examples = models.JSONField(default=list, blank=True)
    # An upload's entries that could not be read, each {file, category, id, field, message}: the rest loaded.
    skipped = models.JSONField(default=list, blank=True)
    user_pack = models.ForeignKey(UserPack, null=True, blank=True, on_delete=models.CASCADE, related_name="versions")
    # An extending pack stores its base's items with its own, so a build reads one pack; this names the base.
    extends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="extensions")
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
