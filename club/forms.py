from django import forms

from scoring.rules import EngineError, build_ruleset, get_ruleset

from .models import Club

OPTION_PREFIX = "option_"
VALUE_PREFIX = "value_"


# Options that describe one hand or one table, not the club: recorded with the hand.
PER_HAND_OPTIONS = {"liable", "goulash", "players"}


def club_level_options(ruleset) -> dict:
    return {k: v for k, v in ruleset.option_defaults.items() if k not in PER_HAND_OPTIONS}


def value_label(key: str) -> str:
    """'pong.minor.exposed.points' -> 'Pong · minor · exposed · points'."""
    return " · ".join(part.replace("_", " ") for part in key.split(".")).capitalize()


def _field_for(default, label: str, initial, help_text: str = ""):
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, initial=initial, help_text=help_text)
    return forms.IntegerField(label=label, initial=initial, help_text=help_text)


class ClubSettingsForm(forms.ModelForm):
    """The club's name, rule set and its options, starting tally and seating preferences.

    The chosen rule set's options (and, for the adventurous, every value of its scoring
    tables) become fields of their own, so a coordinator never types JSON.
    """

    class Meta:
        model = Club
        fields = ["name", "rule_set", "starting_tally", "odd_tables", "spread_beginners"]
        widgets = {"odd_tables": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rule_set = self.data.get("rule_set") if self.is_bound else self.instance.rule_set
        if rule_set not in dict(self.fields["rule_set"].choices):
            rule_set = self.instance.rule_set
        self.rule_set_name = rule_set
        ruleset = get_ruleset(rule_set)
        same_rules = rule_set == self.instance.rule_set
        saved_options = self.instance.rule_options if same_rules else {}
        saved_values = self.instance.rule_values if same_rules else {}
        for key, default in club_level_options(ruleset).items():
            self.fields[OPTION_PREFIX + key] = _field_for(
                default,
                key.replace("_", " ").capitalize(),
                saved_options.get(key, default),
                help_text=f"Usual value: {default}",
            )
        for key, default in ruleset.value_defaults.items():
            field = _field_for(default, value_label(key), saved_values.get(key, default))
            field.required = False
            field.help_text = f"Usual value: {default}"
            self.fields[VALUE_PREFIX + key] = field

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def value_fields(self):
        return [self[name] for name in self.fields if name.startswith(VALUE_PREFIX)]

    def _changed(self, prefix: str, defaults) -> dict:
        changed = {}
        for key, default in defaults.items():
            value = self.cleaned_data.get(prefix + key)
            if value is None:
                continue
            if value != default:
                changed[key] = value
        return changed

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        ruleset = get_ruleset(self.rule_set_name)
        self.rule_options = self._changed(OPTION_PREFIX, club_level_options(ruleset))
        self.rule_values = self._changed(VALUE_PREFIX, ruleset.value_defaults)
        try:
            build_ruleset(self.rule_set_name, self.rule_options, self.rule_values)
        except EngineError as error:
            raise forms.ValidationError(str(error)) from error
        return cleaned

    def save(self, commit=True):
        club = super().save(commit=False)
        club.rule_options = self.rule_options
        club.rule_values = self.rule_values
        if commit:
            club.save()
        return club
