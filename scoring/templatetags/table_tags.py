"""`{% session_progress session as progress %}` for the session's page: play at its tables;
`{% sent_key_field %}` in the table page's forms."""

import uuid

from django import template
from django.utils.html import format_html

from scoring import selectors

register = template.Library()


@register.simple_tag
def session_progress(session):
    return selectors.session_progress(session)


@register.simple_tag
def sent_key_field():
    """The hidden one-time key of a table write (see scoring.models.SentWrite): a fresh one
    each time a form is drawn, so one drawing of a form is one write however often sent."""
    return format_html('<input type="hidden" name="sent_key" value="{}">', uuid.uuid4())
