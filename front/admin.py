from django import forms
from django.contrib import admin

from club.models import Club
from scoring.rules import rule_set_choices, validate_club_rules


class ClubAdminForm(forms.ModelForm):
    """The club's rule set from the list of rule sets, and its options checked by the hand
        engine: registered here, since club (below scoring) keeps a plain rule-set name. (The
    admin makes it a form of Club's fields.)"""

    rule_set = forms.ChoiceField(label="Rule set", choices=rule_set_choices)

    def clean(self):
        cleaned = super().clean()
        validate_club_rules(
            cleaned.get("rule_set", "classical"),
            cleaned.get("rule_options"),
            cleaned.get("rule_values"),
        )
        return cleaned


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    form = ClubAdminForm
    list_display = ["name", "rule_set", "starting_tally"]
