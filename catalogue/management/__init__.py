"""What the catalogue's commands and the builder's share: reading a file, or standard input for "-", no larger
than a build may be; and saying why an input was refused, on one line, with the exit status the command
documents."""
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from django.conf import settings
from django.core.management.base import BaseCommand

from catalogue.rulesets.base import BuildError

# What a command refuses: the error's class, what the command says of it, and the exit status it documents.
Refusal = tuple[type[Exception], str, int]


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


@contextmanager
def exit_on_bad_input(command: BaseCommand, *refusals: Refusal, file: str = "") -> Iterator[None]:
    """Runs a command's reading (and saving) of its input. A file that cannot be read prints
    "FILE: cannot read: REASON" (FILE is `file`, else the file the error names) and exits 2; an error of a refused
    class prints "SAYS: ERROR" and exits with its status, the first refusal it is an instance of speaking (list a
    subclass before its base). One line on stderr and nothing on stdout; the command saved nothing if its saving
    is inside. A refusal that names the file says so itself: (BuildError, f"{file}: not imported", 2)."""
    try:
        yield
    except OSError as exc:
        command.stderr.write(f"{file or exc.filename or 'input'}: cannot read: {exc.strerror}")
        sys.exit(2)
    except tuple(kind for kind, _, _ in refusals) as exc:
        says, status = next((says, status) for kind, says, status in refusals if isinstance(exc, kind))
        command.stderr.write(f"{says}: {exc}")
        sys.exit(status)
