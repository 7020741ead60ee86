from django import template

from club import accounts

register = template.Library()


@register.simple_tag
def login_locked(user) -> bool:
    return accounts.is_locked_out(user)
