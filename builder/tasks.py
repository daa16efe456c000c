"""Background jobs (django-tasks, run by `manage.py db_worker`): PDFs of more builds than a request should wait for.

A job is found by the key of the sheet version it renders: the sheets cache keeps, beside the PDF, the job's id
and how many builds it has laid out, so any web process or machine can show its progress.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.utils import timezone
from django_tasks import TaskResult, TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist

from . import store
from .models import Build
from .pdf import Sheet


@task()
def render_sheet(share_id: str, paper: str, origin: str, version: int | None = None, reveal: str = "") -> None:
    """Renders the sheet as its builds are when the job runs: were one edited since it was queued, the PDF is kept
    under the new version's key, which is also the one the progress page asks about by then. A `version` asks
    for that saved version of the build."""
    build = Build.objects.get(share_id=share_id)
    sheet = Sheet(store.at_version(build, version) if version else build, paper, origin, reveal)
    sheet.render(progress=lambda done: caches["sheets"].set(f"{sheet.key}:done", done,
                                                            settings.HARDPOINT_PDF_CACHE_SECONDS))


@dataclass
class Progress:
    """Where a version of a sheet is: rendered, or how far the latest job rendering it has got."""
    ready: bool  # its PDF is in the cache
    job: TaskResult | None  # None: no job renders this version (it changed since, or the record expired)
    done: int  # builds laid out

    @property
    def under_way(self) -> bool:
        return (self.job is not None and self.job.status in (TaskResultStatus.READY, TaskResultStatus.RUNNING)
                and not self.stalled)

    @property
    def stalled(self) -> bool:
        """Running far longer than any sheet takes: its worker died (the queue still says running)."""
        return (self.job is not None and self.job.status == TaskResultStatus.RUNNING and self.job.started_at is not None
                and (timezone.now() - self.job.started_at).total_seconds() > settings.HARDPOINT_PDF_JOB_STALLED_SECONDS)

    @property
    def failed(self) -> bool:
        return self.job is not None and (self.job.status == TaskResultStatus.FAILED or self.stalled)

    @property
    def waited(self) -> int:
        """Seconds since the job was queued."""
        return int((timezone.now() - self.job.enqueued_at).total_seconds()) if self.job else 0


def progress(sheet: Sheet) -> Progress:
    job_id = caches["sheets"].get(f"{sheet.key}:job")
    try:
        job = render_sheet.get_result(job_id) if job_id else None
    except TaskResultDoesNotExist:  # pruned from the queue (`manage.py prune_db_task_results`)
        job = None
    return Progress(caches["sheets"].has_key(sheet.key), job, caches["sheets"].get(f"{sheet.key}:done", 0))


def start(sheet: Sheet, retry: bool = False) -> Progress:
    """The job rendering this version of the sheet: the one queued or running, a failed one unless `retry` asks
    again, or else a new one (also when the last one ended but its PDF has since left the cache)."""
    current = progress(sheet)
    if current.ready or current.under_way or (current.failed and not retry):
        return current
    caches["sheets"].delete(f"{sheet.key}:done")
    job = render_sheet.enqueue(sheet.build.share_id, sheet.paper, sheet.origin, sheet.version, sheet.reveal)
    caches["sheets"].set(f"{sheet.key}:job", job.id, settings.HARDPOINT_PDF_CACHE_SECONDS)
    return Progress(False, job, 0)
