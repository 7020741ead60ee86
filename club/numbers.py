"""Whole numbers as people type them: the digits 0-9 only.

Python's str.isdigit() takes "²" (and int() then fails), and int() itself reads Arabic-Indic
and full-width digits: a form that meant "digits" would crash on the first, or quietly read
the others. Every number a form reads goes through here instead.
"""

import re

from django import forms

WHOLE_NUMBER = re.compile(r"[0-9]+")
SIGNED_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
# More digits than any range here allows: read as "too large" without converting them all
# (int() refuses over 4,300 digits).
_MOST_DIGITS = 18


def read_whole_number(text: str) -> int | None:
    """The number written in `text` (digits 0-9, an optional minus sign, blanks around
    ignored), or None. Absurdly long numbers come back as 10**18 (with their sign), which
    every range refuses in its own words."""
    text = text.strip()
    if not SIGNED_WHOLE_NUMBER.fullmatch(text):
        return None
    if len(text.lstrip("-")) > _MOST_DIGITS:
        return -(10**_MOST_DIGITS) if text.startswith("-") else 10**_MOST_DIGITS
    return int(text)


class WholeNumberField(forms.IntegerField):
    """An IntegerField that reads only the digits 0-9 (and a minus sign): anything else is
    the field's "invalid" message, never a crash; its min and max give the range."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = read_whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number
