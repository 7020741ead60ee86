"""The house's one word for "the rules refuse this": `Refused`, and the one place a refusal
becomes what the user sees (`show_refusal`).

Every refusal of the club, the games and scoring derives from `Refused` (a closed session,
a login only the administrator may change, a backup that cannot be restored, a total the
rules do not allow...), so a view catches one class. Its str() is one plain sentence, ready
for the page. The pure cores keep their own errors (the engine's `EngineError`, the flow's
`FlowError`, the planner's `SeatingError`): they import nothing of the apps.
"""

from django.contrib import messages
from django.shortcuts import redirect


class Refused(Exception):
    """What was asked cannot be done under the rules; str() says why, in plain words."""


def show_refusal(request, refusal: Refused, to, *args, **kwargs):
    """Tell the user why (`refusal`'s sentence, as an error message) and send them to `to`
    (a URL name with its arguments, as `redirect` takes them)."""
    messages.error(request, str(refusal))
    return redirect(to, *args, **kwargs)
