from django import template

from club import accounts

register = template.Library()


@register.simple_tag
def login_locked(user) -> bool:
    return accounts.is_locked_out(user)


@register.simple_tag(takes_context=True)
def may_manage_login(context, user) -> bool:
    request = context["request"]
    return accounts.may_manage_login(request.user, user, request.club)
