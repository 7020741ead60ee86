"""The key figures of a standings page, the same for the old release's pages and the new
one's: every table row that holds a figure, as its first cell's words and the numbers in it;
a CSV's rows as they are. Imports nothing of the app: the old release's code runs it too
(tests/old_release/make_backup.py)."""

import csv
import io
import re
from html.parser import HTMLParser

NUMBER = re.compile(r"[−-]?\d[\d,]*(?:\.\d+)?")


class _Rows(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def page_figures(html: str) -> list[list]:
    parser = _Rows()
    parser.feed(html)
    figures = []
    for row in parser.rows:
        numbers = [
            number.replace("−", "-").replace(",", "")
            for cell in row[1:]
            for number in NUMBER.findall(cell)
        ]
        if row and numbers:
            figures.append([row[0], numbers])
    return figures


def csv_figures(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text.lstrip("\ufeff")))]
