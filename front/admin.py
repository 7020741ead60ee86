from django import forms
from django.contrib import admin, messages

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
    list_display = ["name", "slug", "served_at_root", "rule_set", "starting_tally"]
    readonly_fields = ["served_at_root"]
    actions = ["serve_at_root"]

    @admin.action(description="Serve the chosen club at the site's root")
    def serve_at_root(self, request, queryset):
        """The operators' choice (as `manage.py club_at_root`): the club's pages answer at
        `/` as well as at `/c/<slug>/`; the club that was there keeps only its `/c/<slug>/`."""
        chosen = list(queryset[:2])
        if len(chosen) != 1:
            self.message_user(request, "Please choose one club.", messages.ERROR)
            return
        Club.objects.serve_at_root(chosen[0])
        self.message_user(
            request,
            f"{chosen[0].name} is served at the site's root, and at /c/{chosen[0].slug}/.",
            messages.SUCCESS,
        )
