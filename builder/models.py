"""Saved builds. Links are capabilities: the edit token edits, the share id only reads."""
from django.db import models
from django.urls import reverse
from django.utils.crypto import salted_hmac

from catalogue.models import new_edit_token, new_share_id  # builds and uploaded packs: the same kind of links


# What a build's badge says, everywhere: nothing chosen yet, parts still to fit, a rule broken, or none.
VERDICTS = [("empty", "empty"), ("incomplete", "incomplete"), ("illegal", "illegal"), ("legal", "legal")]


class Build(models.Model):
    edit_token = models.CharField(max_length=64, unique=True, default=new_edit_token, editable=False)
    share_id = models.CharField(max_length=32, unique=True, default=new_share_id, editable=False)
    ruleset = models.SlugField(max_length=40)
    kind = models.SlugField(max_length=40)
    name = models.CharField(max_length=80)
    pack_ref = models.CharField(max_length=1000)  # the base pack, then its extensions
    document = models.JSONField()
    # Bumped on every save; an edit based on an older version is refused (409), never merged.
    version = models.PositiveIntegerField(default=1)
    legal = models.BooleanField(default=False)
    verdict = models.CharField(max_length=12, choices=VERDICTS, default="illegal")
    forked_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="forks")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("build-edit", args=[self.edit_token])

    def share_url(self) -> str:
        return reverse("build-share", args=[self.share_id])

    @property
    def reveal_token(self) -> str:
        """Shows a share link's secret items (Kind.secrecy) whole: the owner hands it out. Derived from the
        edit token, so it takes no column and opens nothing the share link does not."""
        return salted_hmac("hardpoint.reveal", self.edit_token).hexdigest()[:32]

    def reveal_url(self) -> str:
        return f"{self.share_url()}?reveal={self.reveal_token}"


class BuildVersion(models.Model):
    """Every save of a build, kept: its pages, JSON and PDF stay readable by number, and any two compare."""

    build = models.ForeignKey(Build, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=80)
    pack_ref = models.CharField(max_length=1000)  # the base pack, then its extensions
    document = models.JSONField()
    legal = models.BooleanField(default=False)
    verdict = models.CharField(max_length=12, choices=VERDICTS, default="illegal")
    saved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["build", "number"], name="unique_build_version")]
        ordering = ["build", "-number"]

    def __str__(self) -> str:
        return f"{self.name} v{self.number}"


class Draft(models.Model):
    """A builder page's unsaved form, kept for the browser that left it (by its session) to restore there. A row
    of its own, not a key in the session: a page's last edit and a reload never overwrite each other's session."""

    session_key = models.CharField(max_length=40)
    page = models.CharField(max_length=200)  # the builder's address; a new build's carries its ?draft= token
    form = models.JSONField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session_key", "page"], name="one_draft_per_page")]
        ordering = ["-at"]


class HouseRulePreset(models.Model):
    """A named set of house-rule choices (a tournament's, a table's standing rules), shared by link and applied
    to any build of its ruleset. Never changed once made: a new set is a new preset."""

    share_id = models.CharField(max_length=32, unique=True, default=new_share_id, editable=False)
    ruleset = models.SlugField(max_length=40)
    name = models.CharField(max_length=80)
    choices = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("house-rules-preset", args=[self.share_id])


class Collection(models.Model):
    """The builds a player keeps, on every browser that opened its link: no account, the link is the key. Knowing
    it is knowing every edit link in it, so its owner can replace it (`replace`): the old one opens nothing."""

    token = models.CharField(max_length=64, unique=True, default=new_edit_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    builds = models.ManyToManyField(Build, through="Kept", related_name="collections")

    def get_absolute_url(self) -> str:
        return reverse("collection-join", args=[self.token])

    def replace(self) -> None:
        self.token = new_edit_token()
        self.save(update_fields=["token"])


class Kept(models.Model):
    """A build in a collection. Taking it out leaves the build and its links as they were."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="kept")
    build = models.ForeignKey(Build, on_delete=models.CASCADE, related_name="kept")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["collection", "build"], name="kept_once")]


class Table(models.Model):
    """One game of one build at the version it was opened on, on every screen that has its link: the tracks its
    kind declared then (kept, so the table never changes under the players), their values, and what changed."""

    token = models.CharField(max_length=64, unique=True, default=new_edit_token, editable=False)
    build = models.ForeignKey(Build, on_delete=models.CASCADE, related_name="tables")
    version = models.PositiveIntegerField()
    reveal = models.BooleanField(default=False)  # opened by the reveal link: it shows what the share link masks
    sheet = models.JSONField()  # the sections of tracks (builder.table)
    state = models.JSONField(default=dict)  # track key -> value, where it is not the track's start
    revision = models.PositiveIntegerField(default=0)  # bumped by every change: a screen asks whether it moved
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.token])

    @property
    def round(self) -> int:
        return self.state.get("@round", 1)


class TableEvent(models.Model):
    """One change at a table, with every value it moved (before, after): the log, and what undo puts back."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    revision = models.PositiveIntegerField()  # the revision it made
    what = models.CharField(max_length=300)
    changes = models.JSONField()  # [[key, before, after], ...]
    undone_by = models.PositiveIntegerField(null=True, blank=True)  # the revision of the undo that took it back
    undo_of = models.PositiveIntegerField(null=True, blank=True)  # for an undo, the revision it took back
    change_id = models.CharField(max_length=40, blank=True)  # the screen's id for it: one sent twice counts once
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-revision"]
        constraints = [models.UniqueConstraint(fields=["table", "revision"], name="one_event_per_revision"),
                       models.UniqueConstraint(fields=["table", "change_id"], condition=~models.Q(change_id=""),
                                               name="one_event_per_change")]
