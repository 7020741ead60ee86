"""People's names and usernames as typed: tidied, and refused when nobody could read them.

A name made only of invisible characters (zero-width spaces, joiners, a byte-order mark,
combining marks on nothing, odd spaces) shows as a blank on every list and table, and two
names that differ only by them look the same. A username with a Cyrillic "е" in it looks
exactly like "member" with a Latin "e": someone could be given a login that passes for
another member's.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError

# Letters Unicode files as letters but that print as nothing (Hangul fillers, the braille
# blank): stripped like the invisible format characters.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Control, format (zero-width space and joiners, word joiner, byte-order mark, direction
# marks), surrogates, private use and unassigned characters.
_INVISIBLE_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))

NO_LETTER_MESSAGE = "Please type a name with at least one letter we can show."


def tidy_name(text: str) -> str:
    """`text` as it is stored: compatibility forms made plain (NFKC: full-width letters,
    ligatures), invisible characters taken out, every kind of space made one plain space,
    none at either end."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(
        " " if unicodedata.category(ch) in ("Zs", "Zl", "Zp") else ch
        for ch in text
        if ch not in _BLANK_LETTERS and unicodedata.category(ch) not in _INVISIBLE_CATEGORIES
    )
    return " ".join(text.split())


def has_a_letter(text: str) -> bool:
    """Whether `text` shows at least one letter or digit (a combining mark alone does not)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def clean_name(text: str, message: str = NO_LETTER_MESSAGE) -> str:
    """The tidied name, or ValidationError `message` when nothing readable is left."""
    name = tidy_name(text)
    if not has_a_letter(name):
        raise ValidationError(message, code="no_letter")
    return name


# --- usernames -------------------------------------------------------------------------------

USERNAME = re.compile(r"[A-Za-z0-9.@+_-]+")
USERNAME_MESSAGE = (
    "A username can have only the letters a to z (without accents or letters of other "
    "alphabets), the digits 0 to 9 and the signs @ . + - _, with no spaces."
)

# Letters of other alphabets that look like Latin ones, by what they look like: enough to
# compare a new username with the logins already there (which older versions let in).
_LOOK_ALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u",
    # Latin look-alikes of other letters and digits
    "ı": "i", "ℓ": "l", "0": "o", "1": "l", "|": "l",
}  # fmt: skip


def username_skeleton(username: str) -> str:
    """What a username looks like: case, accents, width and look-alike letters of other
    alphabets ignored, and 0/1 read as o/l, so "mеmber" (Cyrillic е), "MEMBER" and "member"
    have the same skeleton."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", username).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = "".join(_LOOK_ALIKES.get(ch, ch) for ch in text)
    return text.replace("rn", "m").replace("vv", "w")


def check_new_username(username: str, existing) -> None:
    """ValidationError in plain words unless `username` is plain ASCII and looks like no
    login in `existing` (usernames)."""
    if not USERNAME.fullmatch(username):
        raise ValidationError(USERNAME_MESSAGE, code="invalid")
    skeleton = username_skeleton(username)
    for other in existing:
        if username_skeleton(other) == skeleton:
            if other == username:
                raise ValidationError(
                    f"The username “{username}” is taken. Please choose another.", code="taken"
                )
            if other.casefold() == username.casefold():  # logging in ignores capitals
                raise ValidationError(
                    f"The username “{username}” is taken: it is the login “{other}”, since "
                    "capitals do not count when logging in. Please choose another.",
                    code="taken",
                )
            raise ValidationError(
                f"The username “{username}” looks too much like the login “{other}”: "
                "people could mistake one for the other. Please choose another.",
                code="look_alike",
            )
