"""What a browser would submit from a page's form: the successful controls of one <form>, as a dict of lists; and
the page a browser shows once htmx has swapped an answer's out-of-band fragments into it."""
from __future__ import annotations

import re
from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.depth = form_id, False, 0
        self.fields: list[tuple[str, str]] = []
        self.number_fields: list[str] = []
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside, self.depth = True, 0
            return
        if not self.inside:
            return
        if tag == "form":
            self.depth += 1
        if "disabled" in a or not a.get("name") and tag in ("input", "select", "textarea"):
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button", "file", "image", "reset"):
                self.fields.append((a["name"], a.get("value", "")))
                if kind == "number":
                    self.number_fields.append(a["name"])
        elif tag == "select":
            self._select = {"name": a["name"], "chosen": None, "first": None}
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "text": "", "selected": "selected" in a}
        elif tag == "textarea":
            self._textarea = {"name": a["name"], "text": ""}

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag == "option" and self._option is not None:
            value = self._option["value"] if self._option["value"] is not None else self._option["text"].strip()
            if self._select["first"] is None:
                self._select["first"] = value
            if self._option["selected"]:
                self._select["chosen"] = value
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = self._select["chosen"] if self._select["chosen"] is not None else self._select["first"]
            if chosen is not None:
                self.fields.append((self._select["name"], chosen))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            # Browsers drop the one newline that may follow <textarea>.
            self.fields.append((self._textarea["name"], self._textarea["text"].removeprefix("\n")))
            self._textarea = None
        elif tag == "form":
            if self.depth == 0:
                self.inside = False
            else:
                self.depth -= 1


def read_form(html: str, form_id: str = "builder-form") -> tuple[dict[str, list[str]], list[str]]:
    """The form's values (name -> list of values, as Django's QueryDict takes them) and its number fields."""
    reader = _FormReader(form_id)
    reader.feed(html)
    values: dict[str, list[str]] = {}
    for name, value in reader.fields:
        values.setdefault(name, []).append(value)
    return values, reader.number_fields


def settled(client, url: str, form: dict, html: str) -> str:
    """A workbench redraw as the browser shows it once settled: one drawn before its pickers' choices were tried
    asks for them as it loads (builder.live), and they swap in by id."""
    if "pickers-stale from:body, load" not in html:
        return html
    answer = client.post(url, {**form, "view": ["pickers"]}, HTTP_HX_REQUEST="true").content.decode()
    for element_id in re.findall(r'<select name="[^"]*" id="([^"]+)"[^>]*hx-swap-oob="true"', answer):
        html = html.replace(element(html, element_id), element(answer, element_id).replace(' hx-swap-oob="true"', "", 1))
    return html.replace("pickers-stale from:body, load", "pickers-stale from:body")


def element(html: str, element_id: str) -> str:
    """The outer HTML of the element with this id, or "" when the page has none."""
    found = re.search(rf'<(\w+)\b[^>]*\bid="{re.escape(element_id)}"', html)
    if found is None:
        return ""
    start, tag = found.start(), found.group(1)
    if tag in ("input", "br", "img", "hr"):
        return html[start:html.index(">", start) + 1]
    depth, at = 0, start
    while True:
        opening = re.compile(rf"<{tag}[\s>]").search(html, at + 1)
        closing = html.find(f"</{tag}>", at + 1)
        if opening and opening.start() < closing:
            depth, at = depth + 1, opening.start()
        elif depth:
            depth, at = depth - 1, closing
        else:
            return html[start:closing + len(tag) + 3]


HTMX = {"HTTP_HX_REQUEST": "true"}
OOB = re.compile(r'<(\w+)[^>]*\bid="([^"]+)"[^>]*\bhx-swap-oob="true"')


def swapped(page: str, fragments: str) -> str:
    """The page with each out-of-band element of the answer put in place of the page's element of its id."""
    for tag, element_id in OOB.findall(fragments):
        new = element(fragments, element_id).replace(' hx-swap-oob="true"', "", 1)
        old = element(page, element_id)
        assert old, f"the answer swaps #{element_id}, which the page does not have"
        page = page.replace(old, new, 1)
    return page


def without_state(html: str, fields: list[str]) -> str:
    """The page without what the browser keeps of the edited fields (their values) and the tab title."""
    html = re.sub(r"<title>.*?</title>", "", html)
    for field in fields:
        name = re.escape(field)
        html = re.sub(rf'(<input[^>]*name="{name}"[^>]*?) value="[^"]*"', r"\1", html)
        html = re.sub(rf'(<input[^>]*name="{name}"[^>]*?) checked', r"\1", html)
        html = re.sub(rf'(<textarea[^>]*name="{name}"[^>]*>).*?(</textarea>)', r"\1\2", html, flags=re.S)

        def unselect(match):
            return match.group(0).replace(" selected", "")
        html = re.sub(rf'<select[^>]*name="{name}".*?</select>', unselect, html, flags=re.S)
    return html


def without_text_to_paste(html: str) -> str:
    """A share page without its "Text to paste" box, which says the build's parts over again in plain words."""
    return re.sub(r'<section class="card links paste".*?</section>', "", html, flags=re.S)
