"""`{% session_progress session as progress %}` for the session's page: play at its tables."""

from django import template

from scoring import selectors

register = template.Library()


@register.simple_tag
def session_progress(session):
    return selectors.session_progress(session)
