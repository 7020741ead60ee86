"""`{% table_key_cards session as cards %}`: the tables' key cards for the seating's print
page, for coordinators only (a member printing the seating sees no keys)."""

from django import template

from club.roles import is_coordinator
from games.table_keys import key_cards

register = template.Library()


@register.simple_tag(takes_context=True)
def table_key_cards(context, session) -> dict:
    """Each table's card by its number, issuing keys not issued yet (see TableKey)."""
    request = context.get("request")
    if request is None or not is_coordinator(request.user, request.club):
        return {}
    return {card.table_number: card for card in key_cards(request, session, by=request.user)}


@register.filter
def card_of(cards: dict, number: int):
    return cards.get(number)
