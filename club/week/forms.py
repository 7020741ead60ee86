"""The forms of the club's week: an answer, a time away, an answer given for a member."""

from __future__ import annotations

from django import forms

from club.models import Member
from club.week.models import NOTE_MAX, ReplyAnswer

NOTE_HELP = "Optional, e.g. “late, about 3 pm”."
NOTE_TOO_LONG = f"Please keep the note to {NOTE_MAX} characters."


def _note() -> forms.CharField:
    return forms.CharField(
        label="Note",
        required=False,
        max_length=NOTE_MAX,
        strip=True,
        help_text=NOTE_HELP,
        error_messages={"max_length": NOTE_TOO_LONG},
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def _answer() -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=ReplyAnswer.choices,
        error_messages={
            "required": "Please press “I'm coming” or “Not this week”.",
            "invalid_choice": "Please press “I'm coming” or “Not this week”.",
        },
    )


class _Errors:
    def first_error(self) -> str:
        return next(iter(self.errors.values()))[0]


class ReplyForm(_Errors, forms.Form):
    answer = _answer()
    note = _note()


class ReplyForForm(_Errors, forms.Form):
    """A coordinator answering for a member who rang."""

    member = forms.ModelChoiceField(
        queryset=Member.objects.none(),
        label="Member",
        empty_label="Choose a member",
        error_messages={
            "required": "Please choose the member who rang.",
            "invalid_choice": "That member is not in the list: please choose again.",
        },
    )
    answer = _answer()
    note = _note()

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Member.objects.filter(club=club, is_active=True).order_by(
            "table_name"
        )
        self.fields["member"].label_from_instance = lambda m: f"{m.table_name} ({m.name})"


class AwayForm(_Errors, forms.Form):
    """Not coming for a while: every session from one day to another."""

    first = forms.DateField(
        label="Away from",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Please give the first day you are away.",
            "invalid": "Please give the first day as a date, e.g. 2026-12-02.",
        },
    )
    last = forms.DateField(
        label="Back after",
        help_text="The last day you are away.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Please give the last day you are away.",
            "invalid": "Please give the last day as a date, e.g. 2026-12-23.",
        },
    )
    note = _note()

    def clean(self):
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first and last and last < first:
            self.add_error("last", "The last day away is before the first: please check them.")
        return data
