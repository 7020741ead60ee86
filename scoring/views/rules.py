"""Our rules: the club's rule set as the club plays it, for anyone to read."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.rulebook import rulebook
from scoring.rules import club_ruleset


@require_safe
def rules(request):
    """The club's rule set with the club's own values (a house change shows at once)."""
    club = request.club
    book = rulebook(club_ruleset(club), club.effective_starting_tally)
    return render(request, "scoring/rules.html", {"book": book})
