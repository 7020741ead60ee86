from django import template

from club.money import money as money_in

register = template.Library()


@register.filter
def money(amount, club):
    """`{{ amount|money:club }}`: "£2.50" in a club whose symbol is £ (club/money.py)."""
    return money_in(amount, club)
