"""The posted choices of the seating page: who, limited to the people the action can concern.

Ids are parsed by Django's ModelChoiceField, so anything that is not one of the listed
members ('', 'abc', '-1', a superscript '²') is refused with a sentence, never a crash.
"""

from django import forms

from club.models import Member, Seat, Session

CHOOSE = "Please choose a person from the list."
NOT_LISTED = "That person is not in the list any more: please choose again."

# The coordinator's pick among the options the page offered: an option's number, "keep",
# "confirm", "cancel", or the suggested swap ("pair-" and two members' ids).
CHOICE = forms.RegexField(
    regex=r"\A(?:[0-9]{1,3}|keep|confirm|cancel|pair-[0-9]{1,10}-[0-9]{1,10})\Z",
    required=False,
    error_messages={"invalid": "That choice is no longer available: please choose again."},
)


def _person(label: str, required: bool = True) -> forms.ModelChoiceField:
    return forms.ModelChoiceField(
        queryset=Member.objects.none(),
        label=label,
        required=required,
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
    """Two people to swap: chosen from the lists (a, b), or by tapping names on the table
    cards one after the other (``pick``; the page carries the first tap as ``a``).
    After a first tap ``b`` is None; tapping the same name again leaves ``a`` None."""

    a = _person("First person", required=False)
    b = _person("Second person", required=False)
    pick = _person("Tapped person", required=False)
    choice = CHOICE

    def __init__(self, session: Session, *args, **kwargs):
        super().__init__(session, *args, **kwargs)
        seated = _seated(session)
        for name in ("a", "b", "pick"):
            self.fields[name].queryset = seated

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        a, b, pick = data.get("a"), data.get("b"), data.get("pick")
        if pick is None and (a is None or b is None):
            raise forms.ValidationError(CHOOSE)
        if pick is not None:
            if a is None:
                a = pick
            elif pick == a:
                a = None
            else:
                b = pick
        if a is not None and a == b:
            raise forms.ValidationError("Choose two different people to swap.")
        data["a"], data["b"] = a, b
        return data


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
