"""A page's outline as a screen reader lists it: its headings by level and its landmarks
by role and name, read from the HTML without a browser, so a test can check that no two
share a name (axe's "landmark-unique") on many variants of a page cheaply."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# Elements that are landmarks (section and form only when they have a name).
LANDMARK_TAGS = {
    "nav": "navigation",
    "main": "main",
    "aside": "complementary",
    "header": "banner",
    "footer": "contentinfo",
    "section": "region",
    "form": "form",
}
LANDMARK_ROLES = {"banner", "complementary", "contentinfo", "form", "main", "navigation"}
LANDMARK_ROLES |= {"region", "search"}
NAMED_ONLY = {"region", "form"}


def _plain(text: str) -> str:
    return " ".join(text.split())


class PageOutline(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self._open: list[dict] = []  # the elements open now, innermost last
        self.texts: dict[str, str] = {}  # id -> text
        self.headings: list[tuple[int, str]] = []
        self._landmarks: list[dict] = []
        self.feed(html)
        self.close()

    @property
    def landmarks(self) -> list[tuple[str, str]]:
        """(role, accessible name) of each landmark, in page order."""
        found = []
        for mark in self._landmarks:
            name = mark["label"] or _plain(
                " ".join(self.texts.get(ref, "") for ref in mark["labelledby"])
            )
            if mark["role"] in NAMED_ONLY and not name:
                continue
            found.append((mark["role"], name))
        return found

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        role = attributes.get("role") or LANDMARK_TAGS.get(tag)
        if role in LANDMARK_ROLES:
            self._landmarks.append(
                {
                    "role": role,
                    "label": _plain(attributes.get("aria-label") or ""),
                    "labelledby": (attributes.get("aria-labelledby") or "").split(),
                }
            )
        if tag in VOID:
            return
        self._open.append({"tag": tag, "id": attributes.get("id"), "text": []})

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self._open:
            element = self._open.pop()
            text = _plain("".join(element["text"]))
            if element["id"]:
                self.texts[element["id"]] = text
            if element["tag"] in HEADINGS:
                self.headings.append((int(element["tag"][1]), text))
            if self._open:
                self._open[-1]["text"].append(" " + text + " ")
            if element["tag"] == tag:
                break

    def handle_data(self, data):
        if self._open:
            self._open[-1]["text"].append(data)


def repeated_headings(html: str) -> list[tuple[int, str]]:
    """Headings at the same level with the same text (each listed once)."""
    counts = Counter(PageOutline(html).headings)
    return [heading for heading, count in counts.items() if count > 1]


def repeated_landmarks(html: str) -> list[tuple[str, str]]:
    """Landmarks of the same role with the same name (each listed once)."""
    counts = Counter(PageOutline(html).landmarks)
    return [landmark for landmark, count in counts.items() if count > 1]
