"""Amounts of money as the club writes them: its own currency symbol before the amount,
with pence (cents) always shown ("£2.50", "€10.00", "$0.00"). Each club sets its symbol in
its settings (Club.currency_symbol)."""

from decimal import Decimal


def money(amount, club) -> str:
    """`amount` in `club`'s currency: money(Decimal("2.5"), club) -> "£2.50"."""
    value = Decimal(amount or 0).quantize(Decimal("0.01"))
    return f"{club.currency_symbol}{value:,}"
