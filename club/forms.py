import uuid
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.core.validators import RegexValidator
from django.db import IntegrityError, transaction

from scoring.rules import club_options, get_ruleset, validate_club_rules

from .accounts import logins_to_attach, may_manage_login
from .models import (
    LAST_TABLE,
    MIN_SESSIONS_MESSAGE,
    STARTING_TALLY_MESSAGE,
    TABLE_MONEY_MESSAGE,
    TABLE_RANGE_MESSAGE,
    Club,
    KeepApart,
    Member,
    Session,
    long_date,
)
from .names import (
    USERNAME,
    USERNAME_MESSAGE,
    check_new_username,
    clean_name,
    has_a_letter,
    tidy_name,
)
from .numbers import WholeNumberField

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


class ClubSettingsForm(forms.ModelForm):
    """The club's name, rule set and its options, starting tally and seating preferences.

    The chosen rule set's options (and, for the adventurous, every value of its scoring
    tables) become fields of their own, so a coordinator never types JSON.
    """

    class Meta:
        model = Club
        fields = [
            "name",
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
        # Digits 0-9 only (club/numbers.py), each refused outside its range in words.
        field_classes = {"starting_tally": WholeNumberField, "min_sessions": WholeNumberField}
        error_messages = {
            "starting_tally": {
                "min_value": STARTING_TALLY_MESSAGE,
                "max_value": STARTING_TALLY_MESSAGE,
            },
            "min_sessions": {"min_value": MIN_SESSIONS_MESSAGE, "max_value": MIN_SESSIONS_MESSAGE},
            "table_money": {"min_value": TABLE_MONEY_MESSAGE, "max_value": TABLE_MONEY_MESSAGE},
        }
        widgets = {
            "odd_tables": forms.RadioSelect,
            "dice_count": forms.RadioSelect,
            "standings_ranking": forms.RadioSelect,
            "standings_visibility": forms.RadioSelect,
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
        ruleset = get_ruleset(rule_set)
        same_rules = rule_set == self.instance.rule_set
        saved_options = self.instance.rule_options if same_rules else {}
        saved_values = self.instance.rule_values if same_rules else {}
        for key, default in club_options(rule_set).items():
            label = key.replace("_", " ").capitalize()
            limits = ruleset.option_ranges.get(key)
            self.fields[OPTION_PREFIX + key] = _field_for(
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
            self.fields[VALUE_PREFIX + key] = field
        if self.is_bound:
            self._fill_options_not_shown()

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

    @property
    def changes_rule_set(self) -> bool:
        return bool(self.instance.pk) and self.rule_set_name != self.saved_rule_set

    @property
    def rule_set_confirmed(self) -> bool:
        """Whether the post confirms this change of rule set (the confirmation's button)."""
        return self.data.get(self.CONFIRM) == self.rule_set_name

    def clean_name(self):
        return clean_name(self.cleaned_data["name"], "Please type the club's name.")

    def clean_table_money(self):
        # Only asked for when the club collects table money; empty means none.
        return self.cleaned_data.get("table_money") or Decimal("0")

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
        if cleaned.get("collects_table_money") and not cleaned.get("table_money"):
            self.add_error(
                "table_money", "Please give the table money each person pays, e.g. 2.50."
            )
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


# --- Members, sessions and attendance -------------------------------------------------


class MemberForm(forms.ModelForm):
    """A member's details, and optionally their login.

    Coordinators often make a login for a member: pick an existing login that belongs to
    nobody, or type a username and a first password to create one.

    Adding is idempotent: the add form carries a one-time token that is stored on the member
    it creates (under a unique constraint). Posting the same form again, after a double tap
    or a retry, finds that member (`already_added`) instead of adding a second or answering
    "name taken". A token rather than natural keys, because two real people may share every
    detail the form asks for.
    """

    LOGIN_KEEP = "keep"
    LOGIN_NONE = "none"
    LOGIN_EXISTING = "existing"
    LOGIN_NEW = "new"

    login = forms.ChoiceField(
        label="Login to the app",
        widget=forms.RadioSelect,
        required=False,
    )
    existing_user = forms.ModelChoiceField(
        label="Existing login",
        queryset=get_user_model().objects.none(),
        required=False,
        empty_label="Choose a login",
        error_messages={
            "invalid_choice": "That login cannot be given to a member: it belongs to someone "
            "else, is switched off, or can run the club. Please choose another."
        },
    )
    username = forms.CharField(
        label="New username",
        max_length=150,
        required=False,
        # Plain ASCII for new logins: a Cyrillic "е" would make a login that passes for
        # another's (names.check_new_username also compares it with the logins there).
        validators=[RegexValidator(rf"\A{USERNAME.pattern}\Z", USERNAME_MESSAGE, code="invalid")],
    )
    password = forms.CharField(
        label="First password",
        required=False,
        widget=forms.PasswordInput(render_value=True),
        help_text="Tell the member; they can change it under Password.",
    )
    form_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Member
        fields = [
            "name",
            "table_name",
            "email",
            "phone",
            "joined",
            "is_active",
            "is_guest",
            "experience",
            "fixed_table",
            "notes",
        ]
        widgets = {
            "joined": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "experience": forms.RadioSelect,
            "notes": forms.Textarea(attrs={"rows": 3}),
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "off"}),
        }
        help_texts = {
            "table_name": "Short name shown at the table, e.g. first name. Must be unique."
        }
        # The model refuses 0 and too large; this is the form field's own check for < 0.
        error_messages = {"fixed_table": {"min_value": TABLE_RANGE_MESSAGE}}

    def __init__(self, *args, club: Club, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.actor = actor
        self.instance.club = club
        self.already_added: Member | None = None
        if self.instance.pk:
            del self.fields["form_token"]
        else:
            self.fields["form_token"].initial = uuid.uuid4
        self.fields["table_name"].required = False
        self.fields["fixed_table"].widget.attrs.update(
            {"min": 1, "max": LAST_TABLE, "inputmode": "numeric"}
        )
        current = self.instance.user if self.instance.pk else None
        choices = []
        if current is not None:
            choices.append((self.LOGIN_KEEP, f"Keep the login “{current.get_username()}”"))
            choices.append((self.LOGIN_NONE, "Remove the login (the login itself is kept)"))
        else:
            choices.append((self.LOGIN_NONE, "No login (the coordinator records for them)"))
        choices.append((self.LOGIN_EXISTING, "Use an existing login"))
        choices.append((self.LOGIN_NEW, "Create a new login"))
        self.fields["login"].choices = choices
        self.fields["login"].initial = self.LOGIN_KEEP if current else self.LOGIN_NONE
        # Only plain member logins (any, for a superuser `actor`): see accounts.logins_to_attach.
        self.fields["existing_user"].queryset = logins_to_attach(actor)

    def clean_name(self):
        return clean_name(
            self.cleaned_data["name"],
            "Please type the member's name, with at least one letter we can show.",
        )

    def clean_table_name(self):
        # Invisible characters out first: "Bob" and "Bob" + a zero-width space are one name.
        typed = self.cleaned_data.get("table_name", "")
        table_name = tidy_name(typed)
        name = self.cleaned_data.get("name", "")
        if not typed and name:
            table_name = name.split()[0]
        if (typed or table_name) and not has_a_letter(table_name):
            raise forms.ValidationError(
                "Please type a name at the table with at least one letter we can show.",
                code="no_letter",
            )
        if table_name:
            clash = Member.objects.filter(club=self.club, table_name__iexact=table_name)
            if self.instance.pk:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(
                    f"Another member is already called “{table_name}” at the table. "
                    "Please choose a different name at the table, e.g. add an initial."
                )
        return table_name

    def clean(self):
        cleaned = super().clean()
        action = cleaned.get("login") or (
            self.LOGIN_KEEP if self.instance.pk and self.instance.user_id else self.LOGIN_NONE
        )
        cleaned["login"] = action
        if action == self.LOGIN_EXISTING and not cleaned.get("existing_user"):
            self.add_error("existing_user", "Please choose which login belongs to this member.")
        if action == self.LOGIN_NEW:
            username = cleaned.get("username", "").strip()
            password = cleaned.get("password", "")
            if self.has_error("username"):
                pass
            elif not username:
                self.add_error("username", "Please type a username for the new login.")
            else:
                # A list, not .iterator(): a server-side cursor left half-read when a
                # look-alike is found breaks the rest of the request on PostgreSQL.
                existing = list(get_user_model().objects.values_list("username", flat=True))
                try:
                    check_new_username(username, existing)
                except forms.ValidationError as error:
                    self.add_error("username", error)
            if not password:
                self.add_error("password", "Please type a first password for the new login.")
            else:
                try:
                    password_validation.validate_password(
                        password, get_user_model()(username=username)
                    )
                except forms.ValidationError as error:
                    self.add_error("password", error)
        return cleaned

    def full_clean(self):
        # A form posted again after it added its member is that member, whatever else it
        # says now (the name and username it chose are taken, by that very member).
        self.already_added = self._added_with_this_token()
        if self.already_added is None:
            super().full_clean()
        else:
            self._errors, self.cleaned_data = forms.utils.ErrorDict(), {}

    def _added_with_this_token(self) -> Member | None:
        if not self.is_bound or "form_token" not in self.fields:
            return None
        try:
            token = self.fields["form_token"].clean(self["form_token"].data)
        except forms.ValidationError:
            return None
        return Member.objects.filter(form_token=token, club=self.club).first() if token else None

    def save(self) -> Member:
        """Save the member with the login chosen: kept, removed, an existing one linked, or
        a new one created. The login is written with the member or not at all. The same
        add form posted twice at once saves one member; the other post gets `already_added`."""
        if self.already_added is not None:
            return self.already_added
        try:
            return self._save_with_login()
        except IntegrityError:
            self.already_added = self._added_with_this_token()
            if self.already_added is None:
                raise
            return self.already_added

    @transaction.atomic
    def _save_with_login(self) -> Member:
        member = super().save(commit=False)
        if "form_token" in self.fields:
            member.form_token = self.cleaned_data.get("form_token")
        action = self.cleaned_data["login"]
        if action == self.LOGIN_NONE:
            member.user = None
        elif action == self.LOGIN_EXISTING:
            member.user = self.cleaned_data["existing_user"]
        elif action == self.LOGIN_NEW:
            member.user = get_user_model().objects.create_user(
                username=self.cleaned_data["username"].strip(),
                password=self.cleaned_data["password"],
                email=member.email,
                first_name=member.table_name,
            )
        member.save()
        self._keep_login_email_in_step(member)
        return member

    def _keep_login_email_in_step(self, member: Member) -> None:
        """ "Forgot your password?" mails the login's address, so it follows the member's:
        a changed address must not leave the reset link going to the old one. A coordinator's
        or the administrator's login keeps its own (only the administrator changes that)."""
        user = member.user
        if user is None or user.email == member.email:
            return
        if may_manage_login(self.actor, user):
            user.email = member.email
            user.save(update_fields=["email"])


class MemberSearchForm(forms.Form):
    SHOW_CHOICES = [
        ("active", "Active members"),
        ("lapsed", "Lapsed members"),
        ("guests", "Guests"),
        ("all", "Everyone"),
    ]

    q = forms.CharField(label="Find a member", required=False, max_length=100)
    show = forms.ChoiceField(label="Show", choices=SHOW_CHOICES, required=False)

    def values(self) -> tuple[str, str]:
        if not self.is_valid():
            return "", "active"
        return self.cleaned_data["q"].strip(), self.cleaned_data["show"] or "active"


class KeepApartForm(forms.Form):
    other = forms.ModelChoiceField(
        label="Never seat with",
        queryset=Member.objects.none(),
        empty_label="Choose a member",
        error_messages={
            "required": "Please choose a member.",
            "invalid_choice": "Please choose a member from the list.",
        },
    )
    reason = forms.CharField(
        label="Reason (only coordinators see it)", max_length=200, required=False
    )

    def __init__(self, *args, member: Member, **kwargs):
        super().__init__(*args, **kwargs)
        self.member = member
        already = KeepApart.objects.involving(member)
        paired = {ka.member_a_id for ka in already} | {ka.member_b_id for ka in already}
        others = Member.objects.filter(club_id=member.club_id, is_active=True).exclude(pk=member.pk)
        # The list offers those not yet kept apart; a pair posted again (a double tap, a
        # retry) is still accepted and answered with the pair that exists.
        self.fields["other"].queryset = others
        self.fields["other"].widget.choices = forms.ModelChoiceField(
            queryset=others.exclude(pk__in=paired), empty_label=self.fields["other"].empty_label
        ).choices

    def save(self) -> KeepApart:
        return self.member.keep_apart_from(self.cleaned_data["other"], self.cleaned_data["reason"])


class SessionForm(forms.ModelForm):
    """A session's date, venue, notes and status.

    Adding is idempotent on the session's natural key, its date: the same details posted
    again (a double tap, a retry) are the session already there (`already_added`). Other
    details on a taken date are a clash the coordinator must resolve.
    """

    class Meta:
        model = Session
        fields = ["date", "venue", "notes", "status"]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "status": forms.RadioSelect,
        }

    def __init__(self, *args, club: Club, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.actor = actor
        self.instance.club = club
        self.already_added: Session | None = None

    def clean(self):
        cleaned = super().clean()
        date = cleaned.get("date")
        if date is None:
            return cleaned
        clash = Session.objects.filter(club=self.club, date=date).exclude(pk=self.instance.pk)
        clash = clash.first()
        if clash is None:
            return cleaned
        same = all(cleaned.get(field) == getattr(clash, field) for field in self.Meta.fields)
        if same and not self.instance.pk:
            self.already_added = clash
        else:
            self.add_error(
                "date",
                f"There is already a session on {long_date(date)}. Please choose another date.",
            )
        return cleaned

    def save(self, commit: bool = True) -> Session:
        if self.already_added is not None:
            return self.already_added
        adding = self.instance.pk is None
        try:
            with transaction.atomic():
                return super().save(commit)
        except IntegrityError:  # the same session added at the same moment
            if not adding:
                raise
            self.already_added = Session.objects.filter(
                club=self.club, date=self.cleaned_data["date"]
            ).first()
            if self.already_added is None:
                raise
            return self.already_added


class NextWeekForm(forms.Form):
    """The "Create next week's session" button: it posts the session the new one follows
    (as `from`), so a retry names the same date instead of a week after the new one."""

    def __init__(self, *args, club: Club, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        sessions = club.sessions.all()
        refusal = (
            "That session could not be found. Please use the “Create next week's session” "
            "button on the sessions list or on a session's page."
        )
        if not sessions.exists():
            refusal = "There is no session yet to copy. Please add the first one."
        self.fields["from"] = forms.ModelChoiceField(
            queryset=sessions,
            error_messages={"required": refusal, "invalid_choice": refusal},
        )

    def error_message(self) -> str:
        return " ".join(error for errors in self.errors.values() for error in errors)


class WalkInForm(forms.Form):
    name = forms.CharField(
        label="Name of the walk-in or guest",
        max_length=120,
        error_messages={"required": "Please type the person's name."},
        help_text="If they are already a member we find them by name and check them in.",
    )
    joining = forms.BooleanField(label="Joining the club today (not just visiting)", required=False)
    # Set by the "Which one is here?" buttons when several members share the name.
    member_id = forms.ModelChoiceField(
        label="The member chosen",
        queryset=Member.objects.none(),
        required=False,
        widget=forms.HiddenInput,
        error_messages={
            "invalid_choice": "That member could not be found. Please type the name again."
        },
    )

    def __init__(self, *args, club: Club, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member_id"].queryset = club.members.all()

    def clean_name(self):
        return clean_name(self.cleaned_data["name"], "Please type the person's name.")
