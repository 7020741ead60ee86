"""Correcting a recorded hand: what it should say (a win, a draw, or void it) and why."""

from __future__ import annotations

from django import forms

from club.numbers import WholeNumberField
from scoring.corrections import REASON_MAX, Draw, Void
from scoring.engine.rulesets.base import MAX_TOTAL
from scoring.forms.liability import LiabilityForm
from scoring.hand_entry import check_form_win
from scoring.models import Hand
from scoring.recording import Win

TOTAL_MESSAGE = f"The total must be a whole number from 0 to {MAX_TOTAL:,}."


class CorrectionForm(LiabilityForm):
    """What hand `number` should say, and why. The players offered are those who played
    that hand (East first)."""

    WHAT = [
        ("win", "Someone went out (a win)"),
        ("draw", "Nobody went out (a draw)"),
        ("void", "This hand should not be in the record (void it)"),
    ]

    hand_id = forms.IntegerField(widget=forms.HiddenInput)
    what = forms.ChoiceField(
        label="What happened in this hand?",
        choices=WHAT,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose whether it was a win, a draw, or to void it."},
    )
    winner = forms.TypedChoiceField(
        label="Who won?", coerce=int, required=False, empty_value=None, widget=forms.RadioSelect
    )
    won_by = forms.ChoiceField(
        label="How?", choices=Hand.WonBy.choices, required=False, widget=forms.RadioSelect
    )
    discarder = forms.TypedChoiceField(
        label="Who discarded the winning tile (or whose kong was robbed)?",
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    total = WholeNumberField(
        required=False,
        min_value=0,
        max_value=MAX_TOTAL,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "invalid": "Type the total as a whole number, digits only.",
            "min_value": TOTAL_MESSAGE,
            "max_value": TOTAL_MESSAGE,
        },
    )
    reason = forms.CharField(
        label="Why is it being corrected?",
        max_length=REASON_MAX,
        error_messages={"required": "Say why the hand is being corrected."},
    )

    def __init__(
        self, *args, players: list[tuple[int, str]], unit: str, liability: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = players
        self.fields["discarder"].choices = players
        self.offer_liability(liability, players)
        self.fields["total"].label = f"Total ({unit})"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("what") != "win":
            return cleaned
        cleaned["discarder"] = check_form_win(
            self,
            cleaned.get("winner"),
            cleaned.get("won_by"),
            cleaned.get("discarder"),
            self.liable_chair(),
        )
        if cleaned.get("total") is None and "total" not in self.errors:
            self.add_error("total", "Type the hand's total.")
        return cleaned

    def change(self):
        data = self.cleaned_data
        if data["what"] == "void":
            return Void()
        if data["what"] == "draw":
            return Draw()
        return Win(
            data["winner"], data["won_by"], data["discarder"], data["total"], self.liable_chair()
        )

    @staticmethod
    def initial_for(hand: Hand) -> dict:
        return {
            "hand_id": hand.pk,
            "what": "draw" if hand.is_draw else "win",
            "winner": hand.winner,
            "won_by": hand.won_by,
            "discarder": hand.discarder,
            "liable": "" if hand.liable is None else hand.liable,
            "total": hand.total,
        }
