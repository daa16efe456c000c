"""The builds opened on this browser, kept in its session: no accounts, and no listing of anyone else's."""
from .models import Build

KEPT_BUILDS = 50


def keep(request, *builds: Build) -> None:
    """Put these builds at the top of this browser's list, the first one topmost."""
    tokens = request.session.get("builds", [])
    first = [b.edit_token for b in builds]
    if tokens[: len(first)] != first:  # unchanged lists are not rewritten on every edit
        request.session["builds"] = (first + [t for t in tokens if t not in first])[:KEPT_BUILDS]


def forget(request, build: Build) -> None:
    request.session["builds"] = [t for t in request.session.get("builds", []) if t != build.edit_token]


def has_builds(request) -> bool:
    return bool(request.session.get("builds"))


def mine(request, ruleset: str | None = None, kind: str | None = None) -> list[Build]:
    """This browser's builds, newest first; of one ruleset and kind when given."""
    tokens = request.session.get("builds", [])
    if not tokens:
        return []  # most visitors of a share link: no query
    builds = Build.objects.filter(edit_token__in=tokens)
    if ruleset:
        builds = builds.filter(ruleset=ruleset)
    if kind:
        builds = builds.filter(kind=kind)
    return sorted(builds, key=lambda b: tokens.index(b.edit_token))
