"""`hx-trigger="{% poll_every 4 %}"`: a page that updates itself, at an interval drawn anew
at each render.

With thousands of tablets on one installation, a fixed "every 4s" would have the tablets
that opened their page together ask together, tick after tick. Each render picks its
interval at random within SPREAD of the one asked for (4 s: 3.5 to 4.5 s), and each swap of
the polling element renders a new one, so the tablets drift apart. No JavaScript: htmx
reads the interval from the attribute.
"""

import random

from django import template

register = template.Library()

# How far either side of the interval asked for: 4 s becomes 3.5 to 4.5 s.
SPREAD = 0.125


def poll_interval_ms(seconds: float, rng: random.Random | None = None) -> int:
    """An interval in milliseconds within SPREAD of `seconds`."""
    low, high = seconds * (1 - SPREAD), seconds * (1 + SPREAD)
    return round((rng or random).uniform(low, high) * 1000)


@register.simple_tag
def poll_every(seconds) -> str:
    """htmx's trigger: "every 3871ms" for `{% poll_every 4 %}`."""
    return f"every {poll_interval_ms(float(seconds))}ms"
