"""Forms for correcting a hand and for typing in a paper score sheet."""

from __future__ import annotations

from django import forms

from scoring.corrections import REASON_MAX, Draw, Void
from scoring.models import Hand
from scoring.recording import Win

WIND_WORDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


class CorrectionForm(forms.Form):
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
    total = forms.IntegerField(
        required=False,
        min_value=0,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={"invalid": "Type the total as a whole number, digits only."},
    )
    reason = forms.CharField(
        label="Why is it being corrected?",
        max_length=REASON_MAX,
        error_messages={"required": "Say why the hand is being corrected."},
    )

    def __init__(self, *args, players: list[tuple[int, str]], unit: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = players
        self.fields["discarder"].choices = players
        self.fields["total"].label = f"Total ({unit})"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("what") != "win":
            return cleaned
        winner, won_by = cleaned.get("winner"), cleaned.get("won_by")
        if winner is None:
            self.add_error("winner", "Choose who went out.")
        if not won_by:
            self.add_error("won_by", "Choose how the winning tile came.")
        if cleaned.get("total") is None and "total" not in self.errors:
            self.add_error("total", "Type the hand's total.")
        if won_by in Hand.DISCARDER_PAYS:
            discarder = cleaned.get("discarder")
            if discarder is None:
                self.add_error("discarder", "Choose who discarded the winning tile or was robbed.")
            elif discarder == winner:
                self.add_error("discarder", "The winner cannot also be the one who pays for it.")
        else:
            cleaned["discarder"] = None
        return cleaned

    def change(self):
        data = self.cleaned_data
        if data["what"] == "void":
            return Void()
        if data["what"] == "draw":
            return Draw()
        return Win(data["winner"], data["won_by"], data["discarder"], data["total"])

    @staticmethod
    def initial_for(hand: Hand) -> dict:
        return {
            "hand_id": hand.pk,
            "what": "draw" if hand.is_draw else "win",
            "winner": hand.winner,
            "won_by": hand.won_by,
            "discarder": hand.discarder,
            "total": hand.total,
        }


# --- a paper score sheet ----------------------------------------------------------------

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
    if text.isdigit():
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
            if not typed:
                raise forms.ValidationError(
                    "A win on a discard (d) or robbing a kong (k) needs who paid for it."
                )
            discarder = who(typed, self.names, "discarder")
            if discarder == winner:
                raise forms.ValidationError("The winner cannot also be the one who paid for it.")
        elif typed:
            raise forms.ValidationError(
                "Only a win on a discard (d) or robbing a kong (k) has a discarder: clear it."
            )
        total = (cleaned.get("total") or "").strip()
        if not total.isdigit():
            raise forms.ValidationError(
                f"Type the total as a whole number, not “{total}”."
                if total
                else "Type the hand's total."
            )
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
