"""The club's privacy notice: the coordinator's own text, or the standard one, with a few
words filled in from the club's settings. The text is plain text (blank lines part the
paragraphs): the page escapes it, so nothing typed into it can become HTML."""

from __future__ import annotations

import re

from club.models import Club

# The words a notice may use in braces, each filled in from the club's settings; any other
# braces stay as they are typed.
STANDARD_NOTICE = """\
This is how {club} looks after what it knows about its members.

What the club keeps: your full name and the name shown at the table; your email address and \
phone number, if you gave them; the day you joined; notes the coordinators keep to run the \
evenings (for example a table you need); the evenings you came to; and every hand you played \
or recorded, with its results and any corrections.

Who sees it: the club's coordinators see all of it. {results} Notes are for the \
coordinators only. Your email address and phone number are seen by the coordinators, and by \
other members only if you choose "All members of the club" on your "My details" page.

A copy of your data: log in, open "My details" and choose "Download my data" to get \
everything the club holds about you, as a spreadsheet (CSV) or a file for a computer (JSON). \
Or ask a coordinator.

How long it is kept: {how_long}

Erasing your details: ask a coordinator. Once you have left the club, a coordinator can erase \
your name, email address, phone number, notes and login. Your results stay in the club's \
records under another name ({former}), so other members' standings do not change. If a member \
dies, their family may ask a coordinator for the same.
"""

_PLACEHOLDER = re.compile(r"\{(club|results|how_long|former)\}")


def facts(club: Club) -> dict[str, str]:
    """The words each placeholder stands for in `club`."""
    if club.standings_visibility == Club.Visibility.PUBLIC:
        results = (
            "The names at the table, results and standings are public: anyone with the "
            "link can read them."
        )
    else:
        results = "Members who log in see the names at the table, results and standings."
    if club.erase_after_months:
        months = club.erase_after_months
        how_long = (
            "while you are a member. When you leave, your name, email address, phone number, "
            f"notes and login are erased {months} month{'' if months == 1 else 's'} after a "
            "coordinator marks you as lapsed. Results are kept for the club's records."
        )
    else:
        how_long = (
            "while you are a member, and after you leave until you ask a coordinator to erase "
            "them. Results are kept for the club's records."
        )
    former = (
        "your initials"
        if club.former_member_names == "initials"
        else '"Former member" and a number'
    )
    return {"club": club.name, "results": results, "how_long": how_long, "former": former}


def notice_text(club: Club) -> str:
    """The notice as the page shows it (plain text, to be escaped)."""
    words = facts(club)
    template = club.privacy_notice.strip() or STANDARD_NOTICE
    return _PLACEHOLDER.sub(lambda match: words[match.group(1)], template)
