"""Reopening a closed session, to correct something or to add what the tables could not
save before the evening was ended.

The session's status moves here, and the tables' matches follow through the
`session_reopened` signal (sent inside the transaction, sender: Session, with `session`),
so the club does not need to know about matches.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

from club.models import Session

session_reopened = Signal()


@transaction.atomic
def reopen(session: Session, status: str) -> tuple[Session, list]:
    """Move the closed `session` to `status` (in play), holding its row as "End the
    evening" does, so the two never interleave. Returns the session and the receivers'
    answers (games: how many tables carry on). Raises Refused as Session.move_to does."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    session.move_to(status)
    answers = session_reopened.send(sender=Session, session=session)
    return session, [answer for _, answer in answers]
