"""The table page's forms. Each carries the hand number the page showed, so a stale or
doubled form is refused by the recording functions rather than recorded twice."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.html import format_html

from scoring.forms import LiabilityForm, PickerForm
from scoring.hand_entry import check_form_win
from scoring.models import Hand, KongChips
from scoring.recording import Win

WHO_PAYS_LABEL = "Who discarded the winning tile (or whose kong was robbed)?"
STALE_KONG_FORM = (
    "This kong form was out of date, so nothing was saved: check the kong chips saved this "
    "hand, then press Save kong chips again if yours are not there."
)


def _player_choices(board) -> list[tuple[int, str]]:
    """The chairs playing this hand in their chairs' order, the same all evening (the winds
    move round with the deal; the buttons do not), each as its name and a mark of its wind:
    "Betty East, deals", the name first so it is what is read out and found."""
    return [
        (
            seat.chair,
            format_html(
                '<span class="player-name">{}</span> <span class="player-wind">'
                '<span class="wind-mark" aria-hidden="true">{}</span> '
                '<span class="wind-word">{}</span>{}</span>',
                seat.name,
                seat.wind,
                f"{seat.wind_word}," if seat.dealer else seat.wind_word,
                " deals" if seat.dealer else "",
            ),
        )
        for seat in board.seats
        if not seat.sits_out
    ]


def hand_number_refusal(posted) -> str:
    """Why a posted hand number is no hand at all (missing, 0, negative, not a number): every
    write that takes a hand number says it so. A number that is a hand but not the next one
    is the recording functions' to refuse ("The next hand to record is hand 3, not 5.")."""
    posted = str(posted or "").strip()
    if not posted:
        return "The form did not say which hand it was for, so nothing was saved."
    return f"“{posted[:20]}” is not a hand number (hands count from 1), so nothing was saved."


class HandNumberField(forms.IntegerField):
    """A form's hidden hand number: anything but a whole number from 1 is refused, saying
    so in words (hand_number_refusal), never taken for the hand being played."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        super().__init__(min_value=1, **kwargs)

    def clean(self, value):
        try:
            return super().clean(value)
        except forms.ValidationError:
            raise forms.ValidationError(hand_number_refusal(value), code="hand") from None


class HandNumberForm(forms.Form):
    hand = HandNumberField()

    def clean(self):
        # A hidden field's error is not shown beside it: said at the top of the form.
        cleaned = super().clean()
        if "hand" in self._errors:
            self.add_error(None, self._errors.pop("hand"))
        return cleaned

    @property
    def first_error(self) -> str | None:
        """The first field (in page order) with an error: it gets the focus."""
        return next((name for name in self.fields if name in self.errors), None)


def _how_choices() -> list[tuple[str, str]]:
    """How the winning tile came, the first words large and the rest small beneath them
    (read out as one: "Self-drawn from the wall"), so four fit across a phone in two rows."""
    split = {
        Hand.WonBy.WALL: ("Self-drawn", "from the wall"),
        Hand.WonBy.REPLACEMENT: ("Replacement tile", "(after a kong or flower)"),
    }
    choices = []
    for value, label in Hand.WonBy.choices:
        main, more = split.get(value, (label, ""))
        choices.append(
            (
                value,
                format_html(
                    '<span class="how-main">{}</span> <span class="how-more">{}</span>', main, more
                )
                if more
                else label,
            )
        )
    return choices


class WinForm(HandNumberForm, LiabilityForm):
    winner = forms.TypedChoiceField(
        label="Who won?",
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who went out."},
    )
    won_by = forms.ChoiceField(
        label="How?",
        choices=_how_choices(),
        widget=forms.RadioSelect,
        error_messages={"required": "Choose how the winning tile came."},
    )
    discarder = forms.TypedChoiceField(
        label=WHO_PAYS_LABEL,
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    total = forms.IntegerField(
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
        ),
        error_messages={
            "required": "Type the total the table agreed.",
            "invalid": "Type the total as a whole number, digits only.",
        },
    )

    def __init__(self, *args, board, **kwargs):
        super().__init__(*args, **kwargs)
        players = _player_choices(board)
        self.fields["winner"].choices = players
        self.fields["discarder"].choices = players
        self.offer_liability(board.liability, players)
        self.fields["total"].label = f"Total the table agreed ({board.unit})"
        if not self.is_bound:
            self.initial.setdefault("hand", board.hand)

    def clean(self):
        cleaned = super().clean()
        cleaned["discarder"] = check_form_win(
            self,
            cleaned.get("winner"),
            cleaned.get("won_by"),
            cleaned.get("discarder"),
            self.liable_chair(),
        )
        return cleaned

    def win(self) -> Win:
        data = self.cleaned_data
        return Win(
            data["winner"], data["won_by"], data["discarder"], data["total"], self.liable_chair()
        )


class KongForm(HandNumberForm):
    chair = forms.TypedChoiceField(
        label="Who made the kong?",
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose who made the kong."},
    )
    kind = forms.ChoiceField(
        label="Which kind?",
        choices=KongChips.Kind.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose which kind of kong it was."},
    )
    # A new key for every kong form the page shows: posting the same form again finds the
    # chips it saved instead of saving them twice.
    key = forms.UUIDField(
        widget=forms.HiddenInput,
        error_messages={
            "required": STALE_KONG_FORM,
            "invalid": STALE_KONG_FORM,
        },
    )

    def __init__(self, *args, board, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["chair"].choices = _player_choices(board)
        if not self.is_bound:
            self.initial.setdefault("hand", board.hand)
            self.initial.setdefault("key", uuid.uuid4())

    def with_fresh_key(self, board) -> KongForm:
        """The same entries in a form with a new key (the posted one was missing)."""
        data = self.data.copy()
        data["key"] = str(uuid.uuid4())
        return KongForm(data, board=board)


class TakeBackKongForm(forms.Form):
    kong = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class TablePickerForm(PickerForm, LiabilityForm):
    """The tile picker at a table: who won and who discarded are chairs; the winds, the
    dealer and the goulash come from the match's state."""

    hand = HandNumberField()
    winner = forms.TypedChoiceField(
        label="Who won?", coerce=int, widget=forms.RadioSelect, required=False, empty_value=None
    )
    discarder = forms.TypedChoiceField(
        label=PickerForm.discarder_label,
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, board, **kwargs):
        super().__init__(*args, **kwargs)
        players = _player_choices(board)
        self.fields["winner"].choices = players
        self.fields["discarder"].choices = players
        self.offer_liability(board.liability, players)
        if not self.is_bound:
            self.initial.setdefault("hand", board.hand)

    def clean(self):
        cleaned = super().clean()
        # What is not chosen yet is the picker's to list (missing()), not an error.
        cleaned["discarder"] = check_form_win(
            self,
            cleaned.get("winner"),
            cleaned.get("won_by"),
            cleaned.get("discarder"),
            self.liable_chair(),
            complete=False,
        )
        return cleaned

    def missing(self) -> list[str]:
        missing = [] if self.choice("winner") is not None else ["who won"]
        return missing + super().missing()

    def full_win(self) -> Win:
        """The win as recording.record_full takes it (call once nothing is missing)."""
        fields = self.hand_fields()
        tiles = self.draft.contract(self.winning_tile)
        for name in ("last_tile", "first_turn"):
            if name in fields:
                tiles[name] = fields[name]
        return Win(
            self.choice("winner"),
            self.choice("won_by"),
            self.choice("discarder"),
            liable=self.liable_chair(),
            tiles=tiles,
        )
