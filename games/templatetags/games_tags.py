"""`{% my_table as mine %}` for a member's home page."""

from django import template

from games.models import Match

register = template.Library()


@register.simple_tag(takes_context=True)
def my_table(context):
    """The match in play where the logged-in member sits, if any."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return None
    return (
        Match.objects.in_play()
        .filter(chairs__member__user=request.user)
        .select_related("session")
        .first()
    )
