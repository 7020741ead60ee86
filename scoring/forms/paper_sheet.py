"""Typing in a paper score sheet: a row per hand (who won, how in one letter, who paid,
the total; or x for a draw), checked row by row and as a whole."""

from __future__ import annotations

from django import forms

from club.numbers import WHOLE_NUMBER
from scoring.corrections import Draw
from scoring.engine.rulesets.base import MAX_TOTAL
from scoring.forms.correction import TOTAL_MESSAGE
from scoring.hand_entry import check_win
from scoring.models import Hand
from scoring.recording import Win

# Plain strings: the flow checks the type exactly.
HOW_LETTERS = {
    "w": Hand.WonBy.WALL.value,
    "r": Hand.WonBy.REPLACEMENT.value,
    "d": Hand.WonBy.DISCARD.value,
    "k": Hand.WonBy.ROBBING_KONG.value,
}
DRAW_LETTERS = {"x", "-", "draw"}


def who(text: str, names: list[str], role: str) -> int:
    """A player typed by chair number (1 upwards) or by the start of their name."""
    text = text.strip()
    if WHOLE_NUMBER.fullmatch(text):
        chair = int(text) - 1
        if 0 <= chair < len(names):
            return chair
        raise forms.ValidationError(
            f"There is no chair {text} for the {role}: type 1 to {len(names)}, or a name."
        )
    matches = [i for i, name in enumerate(names) if name.lower().startswith(text.lower())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise forms.ValidationError(
            f"Nobody at this table is called “{text}” (the {role}): type a chair number "
            "or the start of a name."
        )
    both = " or ".join(names[i] for i in matches)
    raise forms.ValidationError(
        f"“{text}” could be {both}: type more of the name, or the chair number."
    )


class PaperRowForm(forms.Form):
    """One row of a paper sheet: who won, how (one letter), who discarded, the total; or
    a draw (x in the "how" column)."""

    winner = forms.CharField(required=False, max_length=40)
    how = forms.CharField(required=False, max_length=10)
    discarder = forms.CharField(required=False, max_length=40)
    total = forms.CharField(required=False, max_length=10)

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.names = names

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return not any((data.get(name) or "").strip() for name in self.fields)

    def clean(self):
        cleaned = super().clean()
        if self.is_blank:
            cleaned["row"] = None
            return cleaned
        how = (cleaned.get("how") or "").strip().lower()
        if how in DRAW_LETTERS:
            if (cleaned.get("winner") or "").strip() or (cleaned.get("total") or "").strip():
                raise forms.ValidationError(
                    "A draw (x) has no winner and no total: clear them, or choose how they won."
                )
            cleaned["row"] = Draw()
            return cleaned
        if how not in HOW_LETTERS:
            raise forms.ValidationError(
                f"How they won must be w (wall), r (replacement tile), d (discard), "
                f"k (robbing a kong) or x (a draw), not “{how or 'nothing'}”."
            )
        if not (cleaned.get("winner") or "").strip():
            raise forms.ValidationError("Type who won (a chair number or a name).")
        winner = who(cleaned["winner"], self.names, "winner")
        won_by = HOW_LETTERS[how]
        discarder = None
        typed = (cleaned.get("discarder") or "").strip()
        if won_by in Hand.DISCARDER_PAYS:
            discarder = who(typed, self.names, "discarder") if typed else None
        elif typed:
            raise forms.ValidationError(
                "Only a win on a discard (d) or robbing a kong (k) has a discarder: clear it."
            )
        if refusals := check_win(winner, won_by, discarder):
            raise forms.ValidationError(refusals[0].message)
        total = (cleaned.get("total") or "").strip()
        if not WHOLE_NUMBER.fullmatch(total):
            raise forms.ValidationError(
                f"Type the total as a whole number, not “{total}”."
                if total
                else "Type the hand's total."
            )
        if int(total) > MAX_TOTAL:
            raise forms.ValidationError(TOTAL_MESSAGE)
        cleaned["row"] = Win(winner, won_by, discarder, int(total))
        return cleaned


class BasePaperSheet(forms.BaseFormSet):
    def rows(self) -> list:
        """The typed rows in order, blank rows at the end left out. Call after is_valid()."""
        rows = [form.cleaned_data.get("row") for form in self.forms]
        while rows and rows[-1] is None:
            rows.pop()
        return rows

    def clean(self):
        if any(self.errors):
            return
        rows = [form.cleaned_data.get("row") for form in self.forms]
        while rows and rows[-1] is None:
            rows.pop()
        for number, row in enumerate(rows, start=1):
            if row is None:
                self.forms[number - 1].add_error(
                    None, "This row is empty but later rows are not: fill it in or move them up."
                )


PaperSheet = forms.formset_factory(
    PaperRowForm, formset=BasePaperSheet, extra=0, max_num=200, absolute_max=200
)
