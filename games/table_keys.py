"""Table keys as the coordinator's pages show them: each table's card with its QR code
(drawn here as SVG, no JavaScript and no outside service) and its short code, and the room
card the same way. The keys themselves, and issuing and stopping them, are
games.models.TableKey and RoomKey."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from club.models import SeatingPlan
from games.models import Match, RoomKey, TableKey


@dataclass(frozen=True)
class KeyCard:
    """A table's card, or the room card (`key` a RoomKey, `table_number` not used)."""

    key: TableKey | RoomKey
    address: str  # what the QR code holds: https://host/t/<code>/
    typed_at: str  # where to type the code: host/t/
    qr: SafeString

    @property
    def table_number(self) -> int:
        return self.key.table_number


def qr_svg(address: str, label: str) -> SafeString:
    """The QR code of `address` as inline SVG, sized by its stylesheet, with the four-module
    quiet zone scanners need, on white (a dark screen would swallow it otherwise)."""
    code = segno.make(address, error="m", micro=False)
    svg = code.svg_inline(border=4, omitsize=True, svgclass="key-qr", lineclass=None, light="#fff")
    # role and label: screen readers name the picture (segno writes no attributes of its own).
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))


def key_card(request, key: TableKey | RoomKey) -> KeyCard:
    address = request.build_absolute_uri(f"/t/{key.code}/")
    return KeyCard(
        key=key,
        address=address,
        typed_at=f"{request.get_host()}/t/",
        qr=qr_svg(address, f"QR code that opens {key.opens}"),
    )


def table_numbers(session) -> list[int]:
    """The evening's tables: the seating's, and any where play started (a walk-in table)."""
    seated = SeatingPlan.objects.filter(session=session).values_list("tables__number", flat=True)
    played = Match.objects.filter(session=session).values_list("table_number", flat=True)
    return sorted({n for n in [*seated, *played] if n is not None})


def key_cards(request, session, by=None) -> list[KeyCard]:
    """A card for every table of the evening, issuing the keys not issued yet."""
    keys = TableKey.objects.for_tables(session, table_numbers(session), by=by)
    return [key_card(request, key) for key in keys.values()]
