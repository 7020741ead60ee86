from django.contrib import admin
from django.core.exceptions import ValidationError

from scoring.rules import EngineError, build_ruleset

from .models import Club, Member


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "rule_set", "starting_tally"]

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)

        class ValidatedForm(form):
            def clean(self):
                cleaned = super().clean()
                try:
                    build_ruleset(
                        cleaned.get("rule_set", "classical"),
                        cleaned.get("rule_options") or {},
                        cleaned.get("rule_values") or {},
                    )
                except EngineError as error:
                    raise ValidationError(str(error)) from error
                return cleaned

        return ValidatedForm


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["table_name", "name", "experience", "is_active", "joined", "user"]
    list_filter = ["is_active", "experience"]
    search_fields = ["name", "table_name", "email"]
