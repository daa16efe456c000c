"""The builds opened on this browser, kept in its session: no accounts, and no listing of anyone else's."""
from .models import Build

REMEMBERED_BUILDS = 50


def remember(request, build: Build) -> None:
    tokens = request.session.get("builds", [])
    if tokens[:1] != [build.edit_token]:  # unchanged lists are not rewritten on every edit
        others = [t for t in tokens if t != build.edit_token]
        request.session["builds"] = [build.edit_token] + others[: REMEMBERED_BUILDS - 1]


def forget(request, build: Build) -> None:
    request.session["builds"] = [t for t in request.session.get("builds", []) if t != build.edit_token]


def mine(request, kind: str | None = None) -> list[Build]:
    tokens = request.session.get("builds", [])
    builds = Build.objects.filter(edit_token__in=tokens)
    if kind:
        builds = builds.filter(kind=kind)
    return sorted(builds, key=lambda b: tokens.index(b.edit_token))
