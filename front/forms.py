"""The club's settings page's form: its name, time zone and currency, rule set and the rule set's options, starting
tally, seating and standings preferences. Here rather than in club: the rule sets are
scoring's (club, below it, keeps a plain rule-set name and options)."""

from decimal import Decimal

from django import forms
from django.conf import settings

from club.models import (
    ABSENT_ALERT_MESSAGE,
    MAX_TABLE_MONEY,
    MIN_SESSIONS_MESSAGE,
    SESSION_TIMES_MESSAGE,
    STARTING_TALLY_MESSAGE,
    TABLE_MONEY_MESSAGE,
    TIME_ZONE_MESSAGE,
    Club,
)
from club.names import clean_name, tidy_name
from club.numbers import WholeNumberField
from front.clubs import (
    CURRENCY_MESSAGE,
    ClubNotStarted,
    problems_with,
    start_club,
    suggest_slug,
    tidy_entries,
    time_zone_choices,
)
from front.first_setup import set_up_installation, setup_problems
from scoring.rules import (
    club_options,
    get_ruleset,
    rule_set_choices,
    short_name,
    validate_club_rules,
)

OPTION_PREFIX = "option_"
VALUE_PREFIX = "value_"


def value_label(key: str) -> str:
    """'pong.minor.exposed.points' -> 'Pong · minor · exposed · points'."""
    return " · ".join(part.replace("_", " ") for part in key.split(".")).capitalize()


def _field_for(default, label: str, initial, help_text: str = "", limits=None, message=""):
    """A rule set's option or table value as a field; a whole number gets the rule set's
    range (`limits`, low and high), refused beside the field with `message`."""
    if isinstance(default, bool):
        return forms.BooleanField(label=label, required=False, initial=initial, help_text=help_text)
    low, high = limits or (None, None)
    return WholeNumberField(
        label=label,
        initial=initial,
        help_text=help_text,
        min_value=low,
        max_value=high,
        error_messages={"min_value": message, "max_value": message},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


SESSION_TIME_MESSAGE = "Please write a time of day like 14:00 (two in the afternoon)."


class ClubSettingsForm(forms.ModelForm):
    """The club's name, rule set and its options, starting tally and seating preferences.

    The chosen rule set's options (and, for the adventurous, every value of its scoring
    tables) become fields of their own, so a coordinator never types JSON.
    """

    rule_set = forms.ChoiceField(label="Rule set", choices=rule_set_choices)
    time_zone = forms.ChoiceField(
        label="The club's time zone",
        choices=time_zone_choices,
        required=False,
        help_text="“Tonight” and the times on the club's pages are in this time zone.",
        error_messages={"invalid_choice": TIME_ZONE_MESSAGE},
    )

    class Meta:
        model = Club
        fields = [
            "name",
            "time_zone",
            "currency_symbol",
            "rule_set",
            "starting_tally",
            "odd_tables",
            "spread_beginners",
            "show_dice",
            "dice_count",
            "collects_table_money",
            "table_money",
        ]
        fields += ["standings_ranking", "placing_points", "min_sessions", "standings_visibility"]
        fields += ["sessions_begin", "sessions_end", "public_calendar"]
        fields += ["absent_alert_after"]
        # Digits 0-9 only (club/numbers.py), each refused outside its range in words.
        field_classes = {
            "starting_tally": WholeNumberField,
            "min_sessions": WholeNumberField,
            "absent_alert_after": WholeNumberField,
        }
        error_messages = {
            "starting_tally": {
                "min_value": STARTING_TALLY_MESSAGE,
                "max_value": STARTING_TALLY_MESSAGE,
            },
            "min_sessions": {"min_value": MIN_SESSIONS_MESSAGE, "max_value": MIN_SESSIONS_MESSAGE},
            "absent_alert_after": {
                "min_value": ABSENT_ALERT_MESSAGE,
                "max_value": ABSENT_ALERT_MESSAGE,
            },
            "table_money": {"min_value": TABLE_MONEY_MESSAGE, "max_value": TABLE_MONEY_MESSAGE},
            "currency_symbol": {"max_length": CURRENCY_MESSAGE},
            "sessions_begin": {"invalid": SESSION_TIME_MESSAGE, "required": SESSION_TIME_MESSAGE},
            "sessions_end": {"invalid": SESSION_TIME_MESSAGE, "required": SESSION_TIME_MESSAGE},
        }
        labels = {"currency_symbol": "The club's money: its symbol"}
        help_texts = {"currency_symbol": "E.g. £, € or $: table money is written with it."}
        widgets = {
            "odd_tables": forms.RadioSelect,
            "dice_count": forms.RadioSelect,
            "standings_ranking": forms.RadioSelect,
            "standings_visibility": forms.RadioSelect,
            "sessions_begin": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "sessions_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    # The rule set whose option fields the page showed (a hidden field inside the options'
    # fieldset, swapped with it): when the list names another, those fields are not this
    # rule set's, and its own options start at their usual values.
    OPTIONS_FOR = "options_for"
    # The button that confirms a change of rule set carries the rule set confirmed.
    CONFIRM = "confirm_rule_set"
    # The confirmation's other button: keep the club's rule set, save the other entries.
    KEEP = "keep_rule_set"

    @classmethod
    def keeping_rule_set(cls, data, club: Club):
        """`data` with the club's own rule set chosen again: its saved options are used
        (the fields posted were the other rule set's), every other entry as posted."""
        data = data.copy()
        data["rule_set"] = club.rule_set
        data.pop(cls.OPTIONS_FOR, None)
        data.pop(cls.CONFIRM, None)
        for name in list(data):
            if name.startswith((OPTION_PREFIX, VALUE_PREFIX)):
                data.pop(name)
        return data

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rule_set = self.data.get("rule_set") if self.is_bound else self.instance.rule_set
        if rule_set not in dict(self.fields["rule_set"].choices):
            rule_set = self.instance.rule_set
        self.rule_set_name = rule_set
        # The club's rule set before this form (validating copies the new one onto it).
        self.saved_rule_set = self.instance.rule_set
        self.fields["dice_count"].required = False
        for name in self.STANDINGS_FIELDS:
            self.fields[name].required = False
        self.fields["table_money"].required = False
        self.fields["absent_alert_after"].required = False
        self.fields["absent_alert_after"].help_text = (
            "The members page lists them, so you can check on them. Apologies sent with "
            "“Not this week” do not count."
        )
        self.fields["table_money"].help_text = (
            f"In {self.instance.currency_symbol}, e.g. 2.50."
            if self.instance.currency_symbol
            else "E.g. 2.50."
        )
        # Left out of a post (an older page, a script): the saved one stays (clean_...).
        self.fields["currency_symbol"].required = False
        self.fields["currency_symbol"].widget.attrs.update(size=3, autocomplete="off")
        self.fields.update(self._rule_fields(rule_set))
        # Labels of the entries typed for a rule set the page showed but that is not chosen.
        self.discarded: list[str] = []
        if self.is_bound:
            self._fill_options_not_shown()

    def _rule_fields(self, rule_set: str) -> dict[str, forms.Field]:
        """`rule_set`'s options and table values as fields, at the club's saved values when
        it is the club's rule set, else at their usual ones."""
        fields = {}
        ruleset = get_ruleset(rule_set)
        same_rules = rule_set == self.instance.rule_set
        saved_options = self.instance.rule_options if same_rules else {}
        saved_values = self.instance.rule_values if same_rules else {}
        for key, default in club_options(rule_set).items():
            label = key.replace("_", " ").capitalize()
            limits = ruleset.option_ranges.get(key)
            fields[OPTION_PREFIX + key] = _field_for(
                default,
                label,
                saved_options.get(key, default),
                help_text=f"Usual value: {default}",
                limits=limits,
                message=limits
                and f"The {label.lower()} must be {ruleset.option_range_words(key)}.",
            )
        for key, default in ruleset.value_defaults.items():
            value_range = ruleset.value_ranges[key]
            field = _field_for(
                default,
                value_label(key),
                saved_values.get(key, default),
                limits=(value_range.low, value_range.high),
                message=f"This value must be {ruleset.value_range_words(key)}.",
            )
            field.required = False
            field.help_text = f"Usual value: {default}"
            fields[VALUE_PREFIX + key] = field
        return fields

    def _fill_options_not_shown(self) -> None:
        """A change of rule set posts (or, for the htmx swap, sends) the option fields the
        page showed: the old rule set's. The new rule set's own options and table values
        then start at their usual values (its saved ones when it is the club's rule set
        again) instead of coming back blank and "required"."""
        shown = self.data.get(self.OPTIONS_FOR)
        names = [n for n in self.fields if n.startswith((OPTION_PREFIX, VALUE_PREFIX))]
        if shown == self.rule_set_name:
            return  # the page showed this rule set's fields: what is posted stands
        if shown is None and any(name in self.data for name in names):
            return  # an older page without the hidden field, showing this rule set
        self.discarded = self._typed_for(shown)
        self.shown_rule_set = shown
        data = self.data.copy()
        for name in names:
            data.pop(name, None)
            initial = self.fields[name].initial
            if isinstance(initial, bool):
                if initial:
                    data[name] = "on"
            else:
                data[name] = str(initial)
        data[self.OPTIONS_FOR] = self.rule_set_name
        self.data = data

    def _typed_for(self, shown: str | None) -> list[str]:
        """The labels of `shown`'s options and table values posted with another value than
        the page showed them with: what the coordinator typed for a rule set not chosen."""
        if shown not in dict(self.fields["rule_set"].choices):
            return []
        fields = self._rule_fields(shown)
        if not any(name in self.data for name in fields):
            return []  # nothing of it was sent (the htmx swap sends only the list)
        typed = []
        for name, field in fields.items():
            posted = self.data.get(name)
            if isinstance(field, forms.BooleanField):
                changed = bool(posted) != bool(field.initial)
            else:
                try:
                    changed = posted is not None and field.clean(posted) != field.initial
                except forms.ValidationError:
                    changed = posted != ""
            if changed:
                typed.append(field.label)
        return typed

    @property
    def discarded_words(self) -> str:
        """What the page says when entries for a rule set not chosen were left out."""
        if not self.discarded:
            return ""
        return (
            f"The options on the page were {short_name(self.shown_rule_set)}'s, so what was typed there "
            f"({', '.join(self.discarded)}) is not used with {short_name(self.rule_set_name)}. "
            f"{short_name(self.rule_set_name)}'s own options are below: check them, then save."
        )

    @property
    def changes_rule_set(self) -> bool:
        return bool(self.instance.pk) and self.rule_set_name != self.saved_rule_set

    @property
    def rule_set_confirmed(self) -> bool:
        """Whether the post confirms this change of rule set (the confirmation's button)."""
        return self.data.get(self.CONFIRM) == self.rule_set_name

    def clean_name(self):
        return clean_name(self.cleaned_data["name"], "Please type the club's name.")

    def clean_time_zone(self):
        if "time_zone" not in self.data:
            return self.instance.time_zone
        if not self.cleaned_data.get("time_zone"):
            raise forms.ValidationError(TIME_ZONE_MESSAGE)
        return self.cleaned_data["time_zone"]

    def clean_currency_symbol(self):
        if "currency_symbol" not in self.data:
            return self.instance.currency_symbol
        symbol = tidy_name(self.cleaned_data.get("currency_symbol") or "")
        if not symbol or len(symbol) > 3:
            raise forms.ValidationError(CURRENCY_MESSAGE)
        return symbol

    def clean_table_money(self):
        # Only asked for when the club collects table money; empty means none.
        amount = self.cleaned_data.get("table_money") or Decimal("0")
        if not 0 <= amount <= MAX_TABLE_MONEY:
            symbol = self.instance.currency_symbol
            raise forms.ValidationError(
                f"The table money must be between {symbol}0 and {symbol}{MAX_TABLE_MONEY}.",
                code="max_value" if amount > 0 else "min_value",
            )
        return amount

    def clean_dice_count(self):
        # Only asked for when the dice are shown; an absent choice keeps the saved one.
        return self.cleaned_data.get("dice_count") or self.instance.dice_count

    STANDINGS_FIELDS = (
        "standings_ranking",
        "placing_points",
        "min_sessions",
        "standings_visibility",
    )

    def _clean_standings(self, name: str):
        # Left out of a post (an older page, a script): the saved choice stays.
        value = self.cleaned_data.get(name)
        return getattr(self.instance, name) if value in (None, "") else value

    def clean_standings_ranking(self):
        return self._clean_standings("standings_ranking")

    def clean_placing_points(self):
        return self._clean_standings("placing_points")

    def clean_min_sessions(self):
        return self._clean_standings("min_sessions")

    def clean_absent_alert_after(self):
        # Left out of a post (an older page, a script): the saved number stays.
        value = self.cleaned_data.get("absent_alert_after")
        return self.instance.absent_alert_after if value is None else value

    def clean_standings_visibility(self):
        return self._clean_standings("standings_visibility")

    def standings_fields(self):
        return [self["standings_ranking"], self["standings_visibility"]]

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def value_fields(self):
        return [self[name] for name in self.fields if name.startswith(VALUE_PREFIX)]

    def value_errors(self) -> bool:
        """Whether a table value was refused: the table opens to show it beside the field."""
        return any(name.startswith(VALUE_PREFIX) for name in self.errors)

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
        money_missing = "table_money" not in self.errors and not cleaned.get("table_money")
        if cleaned.get("collects_table_money") and money_missing:
            self.add_error(
                "table_money", "Please give the table money each person pays, e.g. 2.50."
            )
        begin, end = cleaned.get("sessions_begin"), cleaned.get("sessions_end")
        if begin is not None and end is not None and end <= begin:
            self.add_error("sessions_end", SESSION_TIMES_MESSAGE)
        if self.errors:
            return cleaned
        ruleset = get_ruleset(self.rule_set_name)
        self.rule_options = self._changed(OPTION_PREFIX, club_options(self.rule_set_name))
        self.rule_values = self._changed(VALUE_PREFIX, ruleset.value_defaults)
        validate_club_rules(self.rule_set_name, self.rule_options, self.rule_values)
        return cleaned

    def save(self, commit=True):
        club = super().save(commit=False)
        club.rule_options = self.rule_options
        club.rule_values = self.rule_values
        if commit:
            club.save()
        return club


class SignupForm(forms.Form):
    """A new club and its first coordinator's login (the sign-up page). The checks and the
    write are front/clubs.py's, shared with `manage.py create_club`."""

    name = forms.CharField(
        label="The club's name",
        max_length=120,
        error_messages={"required": "Please type the club's name."},
    )
    slug = forms.CharField(
        label="The club's address",
        max_length=40,
        required=False,
        help_text="Lower-case letters and digits, with a dash between words. Leave it empty to "
        "make one from the club's name. The club keeps this address for good: clubs that "
        "start here later never change it.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
    )
    rule_set = forms.ChoiceField(
        label="The rules you play",
        choices=rule_set_choices,
        # Nothing chosen for the club: a rule set taken by default would be played unnoticed.
        widget=forms.RadioSelect,
        help_text="You can change the rules and their details later, in the club's settings.",
        error_messages={
            "required": "Please choose the rules your club plays: one of the four above."
        },
    )
    username = forms.CharField(
        label="Your login name",
        max_length=150,
        help_text="You will be the club's first coordinator. Letters a to z, digits and "
        "@ . + - _, no spaces.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "username"}),
        error_messages={"required": "Please choose a login name for yourself."},
    )
    password1 = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not a common password and not all digits.",
        error_messages={"required": "Please choose a password."},
    )
    password2 = forms.CharField(
        label="Your password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"required": "Please type the password a second time."},
    )
    email = forms.CharField(
        label="Your email (optional)",
        required=False,
        max_length=254,
        help_text="Only for resetting a forgotten password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    # Where start_club's findings go on this form.
    FIELDS = {"password": "password1"}

    def tidy_club_and_login(self, cleaned: dict) -> tuple[str, str, str, str]:
        """The club's name and address and the login's name and email as they are kept
        (an empty address made from the name, shown when the page comes back), and the
        two passwords compared; the four, tidied."""
        name, slug, username, email = tidy_entries(
            cleaned.get("name", ""),
            cleaned.get("slug", ""),
            cleaned.get("username", ""),
            cleaned.get("email", ""),
        )
        if not slug and name:
            slug = suggest_slug(name)
            # Shown in the field when the page comes back, to keep or change.
            self.data = self.data.copy()
            self.data["slug"] = slug
        cleaned.update(name=name, slug=slug, username=username, email=email)
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords are not the same. Please type it again.")
        return name, slug, username, email

    def clean(self):
        cleaned = super().clean()
        name, slug, username, email = self.tidy_club_and_login(cleaned)
        problems = problems_with(
            name=name,
            slug=slug,
            rule_set=cleaned.get("rule_set", ""),
            username=username,
            password=cleaned.get("password1") or "",
            email=email,
        )
        self.add_refusal(ClubNotStarted(problems))
        return cleaned

    def add_refusal(self, refusal: ClubNotStarted) -> None:
        """start_club's findings beside their fields (a field refused already keeps its
        own message)."""
        for field, messages in refusal.problems.items():
            field = self.FIELDS.get(field, field)
            if field in self.errors:
                continue
            for message in messages:
                self.add_error(field, message)

    def start(self) -> Club:
        data = self.cleaned_data
        return start_club(
            data["name"],
            data["slug"],
            data["rule_set"],
            data["username"],
            data["password1"],
            data["email"],
            signed_up=True,
        )


class SetupForm(SignupForm):
    """An empty installation's first set-up (front/first_setup.py): the setup code from the
    server's log, the operator's login, and the first club as the sign-up page makes one,
    with its time zone and its coordinator (the operator, or a new login)."""

    ME = "me"
    SOMEONE_ELSE = "other"

    setup_code = forms.CharField(
        label="The setup code",
        max_length=40,
        help_text="Printed in the server's log when it started, e.g. ABCD-EFGH-JKMN.",
        widget=forms.TextInput(
            attrs={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"}
        ),
        error_messages={"required": "Please type the setup code from the server's log."},
    )
    time_zone = forms.ChoiceField(
        label="The club's time zone",
        choices=time_zone_choices,
        help_text="The club's evenings and results are dated in it.",
    )
    coordinator = forms.ChoiceField(
        label="Who runs the club's evenings (its coordinator)?",
        choices=[
            (ME, "I do: my login is the club's first coordinator"),
            (SOMEONE_ELSE, "Someone else: make their login now"),
        ],
        initial=ME,
        widget=forms.RadioSelect,
    )
    coordinator_username = forms.CharField(
        label="The coordinator's login name",
        max_length=150,
        required=False,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )
    coordinator_password = forms.CharField(
        label="The coordinator's password",
        strip=False,
        required=False,
        help_text="Tell it to them; they can change it after logging in.",
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    FIELDS = {"password": "password1"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].initial = settings.TIME_ZONE
        self.fields["username"].label = "Your login name (the site's operator)"
        self.fields["username"].help_text = (
            "Your own login: it can run every club here and the site's administration. "
            "Letters a to z, digits and @ . + - _, no spaces."
        )
        # The setup code first, then the operator's login, then the club.
        self.order_fields(
            ["setup_code", "username", "password1", "password2", "email", "name", "slug"]
        )

    def clean(self):
        # SignupForm.clean checks the club with the operator as its coordinator; the other
        # coordinator's login is checked here too.
        cleaned = forms.Form.clean(self)
        name, slug, username, email = self.tidy_club_and_login(cleaned)
        someone_else = cleaned.get("coordinator") == self.SOMEONE_ELSE
        coordinator_username = (cleaned.get("coordinator_username") or "").strip()
        cleaned["coordinator_username"] = coordinator_username if someone_else else None
        problems = setup_problems(
            name=name,
            slug=slug,
            rule_set=cleaned.get("rule_set", ""),
            time_zone=cleaned.get("time_zone", settings.TIME_ZONE),
            username=username,
            password=cleaned.get("password1") or "",
            email=email,
            coordinator_username=cleaned["coordinator_username"],
            coordinator_password=cleaned.get("coordinator_password") or "",
        )
        if someone_else and not coordinator_username:
            problems["coordinator_username"] = [
                "Please choose a login name for the club's coordinator, or choose “I do”."
            ]
        self.add_refusal(ClubNotStarted(problems))
        return cleaned

    def set_up(self) -> Club:
        data = self.cleaned_data
        return set_up_installation(
            name=data["name"],
            slug=data["slug"],
            rule_set=data["rule_set"],
            time_zone=data["time_zone"],
            username=data["username"],
            password=data["password1"],
            email=data["email"],
            coordinator_username=data["coordinator_username"],
            coordinator_password=data.get("coordinator_password") or "",
        )
