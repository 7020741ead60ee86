"""The longest request line each `hx-get` of a page can send, against gunicorn's limit.

htmx sends a GET's parameters in the address, and gunicorn refuses a request line (method,
address, protocol) longer than its `limit_request_line`, 4094 characters, with 414 before
the app sees it: the page then silently stays as it was. The development server and the
test client have no such limit, so only production meets it.

For every element with `hx-get` in a page this adds up the worst case: the address as
written, the longest club prefix (`/c/<slug>/`), and every parameter htmx sends with it
(the element's own value, a form's fields when the element is a form, `hx-include`), each
at its longest: a text box at its `maxlength` in two-byte letters (each 6 characters once
percent-encoded), a list at its longest choice, a hidden field as written. A field with no
bound (a text box without `maxlength`) is itself a problem: its request has no limit.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote_plus

# gunicorn's default `limit_request_line` (deploy/gunicorn.conf.py keeps the default).
GUNICORN_REQUEST_LINE_LIMIT = 4094
# `/c/` + the longest slug club.models allows + `/`.
LONGEST_CLUB_PREFIX = len("/c/") + 40 + len("/")
# A letter such as "ë" is two bytes of UTF-8, each %XX in the address.
WORST_ENCODED_CHARACTER = len(quote_plus("ë"))
FIELDS = {"input", "select", "textarea"}
# Inputs whose value the visitor types.
TYPED = {"text", "search", "email", "tel", "url", "password", "number", "date", "time"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None
    children: list[Element] = field(default_factory=list)
    options: list[str] = field(default_factory=list)  # a <select>'s choices

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def descendants(self):
        for child in self.children:
            yield child
            yield from child.descendants()


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.current = self.root
        self.all: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: html.unescape(v or "") for k, v in attrs}, self.current)
        self.current.children.append(element)
        self.all.append(element)
        if tag == "option":
            select = next((a for a in element.ancestors() if a.tag == "select"), None)
            if select is not None:
                select.options.append(element.attrs.get("value", ""))
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.current = self.current.parent

    def handle_endtag(self, tag):
        for node in [self.current, *self.current.ancestors()]:
            if node.tag == tag:
                self.current = node.parent or self.root
                return


def _select(tree: Tree, origin: Element, selector: str) -> list[Element]:
    """The elements an `hx-include` selector names: `this`, `closest <tag>`, `#id`,
    `[name='x']` (what the app's templates use; anything else is reported)."""
    selector = selector.strip()
    if selector == "this":
        return [origin]
    if selector.startswith("closest "):
        tag = selector.removeprefix("closest ").strip()
        return [next(a for a in origin.ancestors() if a.tag == tag)]
    if re.fullmatch(r"#[\w-]+", selector):
        return [e for e in tree.all if e.attrs.get("id") == selector[1:]]
    named = re.fullmatch(r"\[name=['\"]?([\w-]+)['\"]?\]", selector)
    if named:
        return [e for e in tree.all if e.attrs.get("name") == named.group(1)]
    raise ValueError(f"hx-include={selector!r}: teach tests/htmx_requests.py this selector")


def _fields(element: Element) -> list[Element]:
    """The named fields an element contributes: itself, or those inside it."""
    inside = [element, *element.descendants()]
    return [e for e in inside if e.tag in FIELDS and e.attrs.get("name")]


def longest_value(element: Element) -> int | None:
    """The longest this field's value can be once encoded, or None when nothing bounds it."""
    encoded = len(quote_plus(element.attrs["name"])) + 2  # name=...&
    if element.tag == "select":
        return encoded + max((len(quote_plus(v)) for v in element.options), default=0)
    kind = element.attrs.get("type", "text")
    if kind == "number" and {"min", "max"} <= element.attrs.keys():
        step = element.attrs.get("step", "1")
        decimals = len(step.partition(".")[2]) + 1 if "." in step else 0
        widest = max(len(element.attrs["min"]), len(element.attrs["max"]))
        return encoded + widest + decimals
    if element.tag == "textarea" or kind in TYPED:
        if "maxlength" not in element.attrs:
            return None
        return encoded + int(element.attrs["maxlength"]) * WORST_ENCODED_CHARACTER
    return encoded + len(quote_plus(element.attrs.get("value", "on")))


def longest_request_lines(page: str) -> list[tuple[str, int | None]]:
    """Each `hx-get` of `page` with the longest request line it can send (None: unbounded)."""
    tree = Tree()
    tree.feed(page)
    tree.close()
    found = []
    for element in tree.all:
        address = element.attrs.get("hx-get")
        if address is None:
            continue
        sent: dict[int, Element] = {id(f): f for f in _fields(element)}
        for selector in filter(None, element.attrs.get("hx-include", "").split(",")):
            for included in _select(tree, element, selector):
                sent.update({id(f): f for f in _fields(included)})
        lengths = {f.attrs["name"]: longest_value(f) for f in sent.values()}
        unbounded = [name for name, length in lengths.items() if length is None]
        if unbounded:
            found.append((f"{address} (unbounded: {', '.join(unbounded)})", None))
            continue
        lengths = lengths.values()
        line = len("GET ") + LONGEST_CLUB_PREFIX + len(address) + 1 + sum(lengths)
        found.append((address, line + len(" HTTP/1.1")))
    return found


def too_long(page: str, where: str) -> list[str]:
    """A problem for each `hx-get` of `page` that could pass gunicorn's request-line limit."""
    problems = []
    for address, line in longest_request_lines(page):
        if line is None:
            problems.append(
                f"{where}: hx-get={address!r} sends a field without maxlength: no limit"
            )
        elif line > GUNICORN_REQUEST_LINE_LIMIT:
            problems.append(
                f"{where}: hx-get={address!r} can send {line} characters, more than "
                f"gunicorn's {GUNICORN_REQUEST_LINE_LIMIT}"
            )
    return problems
