"""Scoring outside a match: practice with the tile picker, and the scoring API for other
tools. Neither stores anything."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from club.refusals import Refused
from games.flow import WIND_WORDS
from scoring import engine
from scoring.engine import EngineError
from scoring.engine.cli import MAX_LINE_BYTES, answer_one
from scoring.engine.rulesets import RULESET_NAMES
from scoring.engine.tiles import WINDS
from scoring.forms import PickerForm, PracticeForm, Preview, result_preview
from scoring.picker_words import in_words
from scoring.rules import club_ruleset
from scoring.selectors import pay_words

PRACTICE = "scoring/practice.html"
PICKER_BODY = "scoring/picker.html#body"
JSON_TYPES = ("application/json",)


def picker_preview(form: PickerForm, hand_fields: dict, score) -> Preview:
    """What the picker shows for the hand built so far. `score(hand)` returns (result,
    payment lines) or raises EngineError. The picker's own checks come first (the tile
    count, robbing a kong); while something is still to be chosen, the tiles alone are
    checked (as a self-drawn hand) so what is wrong with them shows at once. Every refusal
    is in a player's words (the engine's own message is kept in `reason`)."""
    draft = form.draft
    if draft.is_empty:
        return Preview(empty=True)
    missing = form.missing()
    short, status = draft.count_problem()
    if short:
        return Preview(needs=short, status=status, to_choose=missing)
    problem = form.tile_problem()
    if problem:
        return Preview(error=problem, to_choose=missing)
    if missing:
        hand_fields = {k: v for k, v in hand_fields.items() if k not in ("discarder", "first_turn")}
        hand_fields["won_by"] = "wall"
    hand = draft.contract(form.winning_tile, **hand_fields)
    try:
        result, payments, unit = score(hand)
    except (EngineError, Refused) as error:  # the engine's refusal, or the table's rules'
        return Preview(error=in_words(str(error)), reason=str(error), to_choose=missing)
    if missing:
        return Preview(complete=True, to_choose=missing)
    return result_preview(Preview(), result, unit, payments)


@login_required
@require_http_methods(["GET", "POST"])
def practice(request):
    """Score a hand (practice): the tile picker under the club's rules, winds chosen by
    hand. Nothing is recorded."""
    ruleset = club_ruleset(request.club)
    form = PracticeForm(request.POST or None)
    form.build()

    def score(hand):
        result = engine.score(hand, ruleset)
        words = [WIND_WORDS[w] for w in WINDS]
        amounts = [result.payments[w] for w in WINDS]
        return result, pay_words(words, amounts), ruleset.unit

    context = {
        "form": form,
        "preview": picker_preview(form, form.hand_fields(), score),
        "ruleset": ruleset,
        "fields_template": "scoring/practice_fields.html",
    }
    if request.htmx:
        return render(request, PICKER_BODY, context)
    return render(request, PRACTICE, context)


def _api_error(message: str, rules: str | None = None) -> HttpResponse:
    body = {"ok": False} | ({"rules": rules} if rules else {}) | {"error": message}
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), status=400, content_type="application/json"
    )


@csrf_exempt  # changes nothing and needs no login: there is no session to ride on
@require_POST
def api_score(request):
    """POST /api/score/?rules=NAME[&option=K=V...]: one hand (contract JSON) in the body,
    answered with exactly the line the command line prints for it; 200 when it scored,
    400 otherwise."""
    name = request.GET.get("rules", "")
    if not name:
        return _api_error(
            f"Say which rules to score by: ?rules= one of {', '.join(RULESET_NAMES)}."
        )
    options: dict[str, str] = {}
    for pair in request.GET.getlist("option"):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            return _api_error(f"option needs KEY=VALUE, e.g. option=limit=1000, not {pair!r}.")
        options[key.strip()] = value.strip()
    try:
        ruleset = engine.get_ruleset(name)
        if options:
            ruleset = ruleset.with_overrides(options=options)
    except EngineError as error:
        return _api_error(str(error))
    # A form's or a file's body is never a hand; a body sent without a type is read as JSON.
    content_type = request.content_type or ""
    if content_type and content_type not in JSON_TYPES:
        return _api_error(
            "Send the hand as JSON, with the header Content-Type: application/json.",
            ruleset.name,
        )
    # One byte over the limit is enough to refuse it as the command line refuses a long line.
    answer = answer_one(ruleset, request.read(MAX_LINE_BYTES + 1))
    ok = answer.startswith('{"ok": true')
    # Encoded as the command line writes it, so the bytes are the same.
    return HttpResponse(
        (answer + "\n").encode("utf-8", "backslashreplace"),
        status=200 if ok else 400,
        content_type="application/json",
    )
