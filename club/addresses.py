"""A club's address, the `<slug>` of `/c/<slug>/`: one rule for every way a club gets one
(sign-up, `create_club`, `import_club`, the operators' admin), so an address one of them
refuses is refused by all.

Lower-case words of letters and digits joined by single dashes, starting with a letter, 3 to
40 characters: readable on a printed sheet and in an email, with no dash at the end or two in
a row that a reader cannot tell apart. A few words are the site's own.
"""

import re

from django.core.exceptions import ValidationError

SLUG_LENGTH = 40
WORDS = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
SLUG_MESSAGE = (
    "The address may use lower-case letters, digits and dashes only (3 to 40 of them), "
    "starting with a letter, with one dash between two words and none at the end, "
    "e.g. “thursday-mahjong”."
)

# Addresses no club may take: the site's own pages and words that would pass a club off as
# the site's operators or staff.
RESERVED_SLUGS = frozenset(
    {
        "about",
        "accounts",
        "admin",
        "administrator",
        "api",
        "club",
        "clubs",
        "contact",
        "favicon",
        "health",
        "help",
        "login",
        "logout",
        "media",
        "new",
        "official",
        "operator",
        "operators",
        "root",
        "settings",
        "sign-up",
        "signup",
        "static",
        "staff",
        "support",
        "system",
        "www",
    }
)


def reserved_message(slug: str) -> str:
    return f"The address “{slug}” is kept for the site itself. Please choose another."


def validate_club_slug(slug: str) -> None:
    """Refuses (ValidationError, in words) an address that is not of the form above
    (code "invalid") or is one of the site's own (code "reserved")."""
    if not 3 <= len(slug) <= SLUG_LENGTH or not WORDS.fullmatch(slug):
        raise ValidationError(SLUG_MESSAGE, code="invalid")
    if slug in RESERVED_SLUGS:
        raise ValidationError(reserved_message(slug), code="reserved")
