"""Fan's 9-piece penalty (one player pays for everyone), offered by both the table's entry
and a correction where the match's rules have it."""

from __future__ import annotations

from django import forms


class LiabilityForm(forms.Form):
    """Fan's 9-piece penalty: the player whose discard let the winner finish a pure hand
    pays for everyone. Offered only where the match's rules have it; "Nobody" by default."""

    liable = forms.TypedChoiceField(
        label="9-piece penalty: does one player pay for everyone?",
        help_text="Only when a discard gave the winner a pure hand. Otherwise leave “Nobody”.",
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )

    def offer_liability(self, liability: bool, players) -> None:
        if liability:
            self.fields["liable"].choices = [("", "Nobody"), *players]
            self.initial.setdefault("liable", "")
        else:
            del self.fields["liable"]

    def liable_chair(self) -> int | None:
        """The chair that pays for everyone, or None."""
        data = getattr(self, "cleaned_data", {})
        return data.get("liable") if "liable" in self.fields else None
