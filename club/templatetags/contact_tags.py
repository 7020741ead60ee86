"""`{% if member|contact_shown_to:user %}`: the one rule of who sees a member's email and
phone (`Member.contact_shown_to`), for templates."""

from django import template

register = template.Library()


@register.filter
def contact_shown_to(member, user) -> bool:
    return member.contact_shown_to(user)
