"""The club's members' data settings: how long a leaver's details are kept, what an erased
member is called, and the privacy notice's text."""

from django import forms

from club.models import ERASE_AFTER_MESSAGE, Club
from club.numbers import WholeNumberField
from club.privacy.notice import STANDARD_NOTICE


class MembersDataSettingsForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["erase_after_months", "former_member_names", "privacy_notice"]
        field_classes = {"erase_after_months": WholeNumberField}
        error_messages = {
            "erase_after_months": {
                "min_value": ERASE_AFTER_MESSAGE,
                "max_value": ERASE_AFTER_MESSAGE,
            },
        }
        widgets = {
            "former_member_names": forms.RadioSelect,
            "privacy_notice": forms.Textarea(attrs={"rows": 16}),
        }
        help_texts = {
            "privacy_notice": (
                "Plain text: a blank line starts a new paragraph. These words in braces are "
                "filled in from the club's settings: {club} (its name), {results} (who sees "
                "results), {how_long} (how long details are kept) and {former} (what an erased "
                "member is called)."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The standard text to start from, so a coordinator edits rather than writes.
        if not self.instance.privacy_notice:
            self.initial["privacy_notice"] = STANDARD_NOTICE
        self.fields["privacy_notice"].strip = True

    def clean_privacy_notice(self) -> str:
        """The standard text unchanged is kept as "the standard one" (empty), so it
        follows the app's own wording as it improves."""
        text = self.cleaned_data["privacy_notice"].replace("\r\n", "\n").strip()
        return "" if text == STANDARD_NOTICE.strip() else text
