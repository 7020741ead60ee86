"""`{% tonight_seating as tonight %}`: the home page's "Your table tonight"."""

from django import template

from club.seating.display import tonight_for

register = template.Library()


@register.simple_tag(takes_context=True)
def tonight_seating(context):
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return None
    return tonight_for(request.user, request.club)
