"""A build as text to paste in a chat or a forum: plain (`/s/<id>.txt`) or Markdown (`/s/<id>.md`).

Every kind's text says the same things in the same order: its name and what it is, its verdict, its key stats and
budgets, its parts or its members, the rules it breaks by rule ID, and its share link. The kind gives only what is
its own (Kind.summary); this module words it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import reverse

from catalogue.rulesets.base import Issue
from catalogue.rulesets.spec import Summary

SHOWN_ISSUES = 6  # a chat message, not the share page: the rest are counted and linked
VERDICTS = {"legal": "Legal", "illegal": "Illegal", "incomplete": "Incomplete", "empty": "Empty"}
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


@dataclass(frozen=True)
class Text:
    """What the text of one build says, before it is worded plain or in Markdown."""

    name: str
    what: str  # the game, the kind and the packs it is built on
    subtitle: str
    verdict: str
    summary: Summary
    budgets: list[tuple[str, str]]
    issues: list[Issue]
    share_id: str
    site: str  # the scheme and host its links start with

    @classmethod
    def of(cls, page, checked, build, site: str) -> "Text":
        """`build` is what its share link shows (store.shown)."""
        headline = page.headline(checked, build)
        meters = [(b["label"], f"{b['meter'].used}/{b['meter'].limit}{' ' + b['meter'].unit if b['meter'].unit else ''}"
                   + (" OVER" if b["meter"].over else "")) for b in headline["budgets"]]
        return cls(name=build.name, what=f"{page.ruleset.name} {page.kind.label} on {build.pack_ref}",
                   subtitle=page.describe(checked.document), verdict=headline["verdict"],
                   summary=filled(checked.kind.summarise(checked.build, checked.catalogue, checked.report,
                                                         checked.linked)),
                   budgets=meters,
                   issues=[i for i in checked.report.issues if i.severity != "info"],
                   share_id=build.share_id, site=site)

    def counts(self) -> str:
        errors = sum(i.severity == "error" for i in self.issues)
        warnings = len(self.issues) - errors
        said = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((errors, "error"), (warnings, "warning")) if n]
        return f": {', '.join(said)}" if said else ""

    def plain(self) -> str:
        lines = [one_line(self.name), one_line(self.what)]
        if self.subtitle:
            lines.append(one_line(self.subtitle))
        lines.append(VERDICTS.get(self.verdict, self.verdict) + self.counts())
        if self.summary.stats:
            lines.append(" · ".join(f"{one_line(label)} {one_line(value)}" for label, value in self.summary.stats))
        if self.budgets:
            lines.append(" · ".join(f"{one_line(label)} {used}" for label, used in self.budgets))
        for where, what in self.summary.parts:
            lines.append(f"  {one_line(where)}: {one_line(what)}")
        for member in self.summary.members:
            link = f" {self.site_url(member.share_id)}" if member.share_id else ""
            lines.append(f"  - {one_line(member.name)}{' · ' + one_line(member.line) if member.line else ''}{link}")
        for issue in self.issues[:SHOWN_ISSUES]:
            lines.append(f"  {issue.code} ({issue.severity}): {one_line(issue.message)}")
        if len(self.issues) > SHOWN_ISSUES:
            lines.append(f"  … and {len(self.issues) - SHOWN_ISSUES} more on the share page")
        lines.append(self.share_url)
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        lines = [f"**{md(self.name)}**: {md(self.what)}"]
        if self.subtitle:
            lines.append(f"*{md(self.subtitle)}*")
        lines.append(f"**{VERDICTS.get(self.verdict, self.verdict)}**{md(self.counts())}")
        if self.summary.stats:
            lines.append(" · ".join(f"{md(label)} **{md(value)}**" for label, value in self.summary.stats))
        if self.budgets:
            lines.append(" · ".join(f"{md(label)} {md(used)}" for label, used in self.budgets))
        block = [f"- **{md(where)}:** {md(what)}" for where, what in self.summary.parts]
        for member in self.summary.members:
            name = f"[{md(member.name)}]({self.site_url(member.share_id)})" if member.share_id else md(member.name)
            block.append(f"- {name}{' · ' + md(member.line) if member.line else ''}")
        block += [f"- `{issue.code}` {issue.severity}: {md(issue.message)}" for issue in self.issues[:SHOWN_ISSUES]]
        if len(self.issues) > SHOWN_ISSUES:
            block.append(f"- … and {len(self.issues) - SHOWN_ISSUES} more on the share page")
        # Markdown joins lines that are not a list into one paragraph: each line ends with a hard break.
        return "  \n".join(lines) + "\n\n" + "".join(line + "\n" for line in block) + ("\n" if block else "") \
            + f"<{self.share_url}>\n"

    @property
    def share_url(self) -> str:
        return self.site_url(self.share_id)

    def site_url(self, share_id: str) -> str:
        return f"{self.site}{reverse('build-share', args=[share_id])}"


def filled(summary: Summary) -> Summary:
    """A summary without the places that hold nothing (no Pilot gear, no systems): a kind lists every place."""
    return Summary(summary.stats, tuple((where, what) for where, what in summary.parts if what), summary.members)


def one_line(value) -> str:
    """Text a player typed, on one line of the plain text: newlines and runs of spaces become one space."""
    return " ".join(str(value).split())


def md(value) -> str:
    """Text on one line of Markdown, with every character Markdown would read escaped (names are players' text)."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", one_line(value))
