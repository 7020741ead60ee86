"""CSV files a spreadsheet opens safely: a text cell that a spreadsheet would read as a
formula (it starts with = + - @, a tab or a carriage return) gets a leading apostrophe, as
OWASP advises, so a member named "=HYPERLINK(...)" is shown as text and never run.

Numbers stay numbers: -12 written as a number, or a text cell that is only a number such as
"-12.5", cannot be a formula and is left alone. A pure module with no Django imports, so
games and scoring may use it (apps depend one way: scoring -> games -> club).
"""

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe_cell(value):
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer with every row's text cells passed through safe_cell()."""

    def __init__(self, out, **kwargs):
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row):
        return self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(out, **kwargs) -> SafeWriter:
    """Use instead of csv.writer for every file the app hands out."""
    return SafeWriter(out, **kwargs)
