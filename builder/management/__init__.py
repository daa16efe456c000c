"""What the builder's commands share: reading a file, or standard input for "-", no larger than a build may be."""
import sys
from pathlib import Path

from django.conf import settings

from catalogue.rulesets.base import BuildError


def read_input(file: str) -> bytes:
    """The bytes of `file` (or of standard input for "-"); BuildError when over the size a build may be, before
    reading a large file whole. OSError when it cannot be read."""
    if file == "-":
        raw = sys.stdin.buffer.read(settings.HARDPOINT_MAX_BODY + 1)
    else:
        path = Path(file)
        if path.stat().st_size > settings.HARDPOINT_MAX_BODY:
            raise BuildError([{"path": file, "message": "file too large for a build"}])
        raw = path.read_bytes()
    if len(raw) > settings.HARDPOINT_MAX_BODY:
        raise BuildError([{"path": file, "message": "input too large for a build"}])
    return raw
