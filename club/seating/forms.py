"""The posted choices of the seating page: who, limited to the people the action can concern.

Ids are parsed by Django's ModelChoiceField, so anything that is not one of the listed
members ('', 'abc', '-1', a superscript '²') is refused with a sentence, never a crash.
"""

from django import forms

from club.models import Member, Seat, Session

CHOOSE = "Please choose a person from the list."
NOT_LISTED = "That person is not in the list any more: please choose again."


def _person(label: str) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Member.objects.none(),
        label=label,
        error_messages={"required": CHOOSE, "invalid_choice": NOT_LISTED},
    )


def _seated(session: Session):
    return Member.objects.filter(pk__in=Seat.objects.filter(plan__session=session).values("member"))


class _SessionForm(forms.Form):
    def __init__(self, session: Session, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session

    def first_error(self) -> str:
        return next(iter(self.errors.values()))[0]


class SwapForm(_SessionForm):
    a = _person("First person")
    b = _person("Second person")

    def __init__(self, session: Session, *args, **kwargs):
        super().__init__(session, *args, **kwargs)
        self.fields["a"].queryset = self.fields["b"].queryset = _seated(session)

    def clean(self):
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            raise forms.ValidationError("Choose two different people to swap.")
        return data


# The coordinator's pick among the options the page offered: an option's number or "keep".
CHOICE = forms.RegexField(
    regex=r"\A(?:[0-9]{1,3}|keep)\Z",
    required=False,
    error_messages={"invalid": "That choice is no longer available: please choose again."},
)


class LateArrivalForm(_SessionForm):
    """A member of the club who has no seat yet (it checks them in if needed)."""

    member = _person("Who has arrived?")
    choice = CHOICE

    def __init__(self, session: Session, *args, **kwargs):
        super().__init__(session, *args, **kwargs)
        self.fields["member"].queryset = Member.objects.filter(club=session.club).exclude(
            pk__in=_seated(session).values("pk")
        )


class LeaverForm(_SessionForm):
    """Someone seated (also one already marked gone at the door, who still has a chair)."""

    member = _person("Who is leaving?")
    choice = CHOICE

    def __init__(self, session: Session, *args, **kwargs):
        super().__init__(session, *args, **kwargs)
        self.fields["member"].queryset = _seated(session)
