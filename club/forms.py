import uuid

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.core.validators import RegexValidator
from django.db import IntegrityError, transaction

from .accounts import logins_to_attach, may_manage_login
from .login_names import create_login, stored_usernames
from .models import (
    LAST_TABLE,
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

# --- Members, sessions and attendance -------------------------------------------------


def check_table_name_free(club: Club, table_name: str, member: Member) -> None:
    """Refuse a name at the table another member of `club` has (any case)."""
    clash = Member.objects.filter(club=club, table_name__iexact=table_name)
    if member.pk:
        clash = clash.exclude(pk=member.pk)
    if clash.exists():
        raise forms.ValidationError(
            f"Another member is already called “{table_name}” at the table. "
            "Please choose a different name at the table, e.g. add an initial."
        )


class LoginByUsername(forms.ModelChoiceField):
    """A login given by its typed username, in any case (as the login page takes it);
    spaces around it (a phone's keyboard adds one after a word) are not part of it."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            value = (stored_usernames(value) or [value.strip()])[0]
        return super().to_python(value)


class MemberForm(forms.ModelForm):
    """A member's details, and optionally their login.

    Coordinators often make a login for a member: type the username of an existing login
    that belongs to nobody, or type a username and a first password to create one.

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
    # Typed, not chosen from a list: a list would be every free login of the installation
    # (hundreds of clubs' users read to find them, and other clubs' usernames shown); a
    # typed username is one lookup by its unique index, checked against the same rules.
    existing_user = LoginByUsername(
        label="Username of the existing login",
        queryset=get_user_model().objects.none(),
        to_field_name="username",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
        required=False,
        help_text="A login that belongs to nobody yet.",
        error_messages={
            "invalid_choice": "That login cannot be given to a member: there is no login of "
            "that username, or it belongs to someone else, is switched off, or can run the "
            "club. Please check the username."
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
        help_text="Tell the member; they can change it under My details.",
    )
    form_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Member
        fields = [
            "name",
            "table_name",
            "email",
            "phone",
            "membership_number",
            "membership_status",
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
            check_table_name_free(self.club, table_name, self.instance)
        return table_name

    def clean_membership_number(self):
        number = " ".join(self.cleaned_data.get("membership_number", "").split())
        if number:
            clash = Member.objects.filter(club=self.club, membership_number=number)
            if self.instance.pk:
                clash = clash.exclude(pk=self.instance.pk)
            if clash.exists():
                raise forms.ValidationError(
                    f"Membership number {number} is already {clash.first().name}'s",
                    code="taken",
                )
        return number

    def clean(self):
        cleaned = super().clean()
        action = cleaned.get("login") or (
            self.LOGIN_KEEP if self.instance.pk and self.instance.user_id else self.LOGIN_NONE
        )
        cleaned["login"] = action
        if action == self.LOGIN_EXISTING and not cleaned.get("existing_user"):
            self.add_error(
                "existing_user",
                "Please type the username of the login that belongs to this member.",
            )
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

    def save(self) -> Member | None:
        """Save the member with the login chosen: kept, removed, an existing one linked, or
        a new one created. The login is written with the member or not at all (None, with
        the form's error beside the username, when a login like it was made meanwhile). The same
        add form posted twice at once saves one member; the other post gets `already_added`."""
        if self.already_added is not None:
            return self.already_added
        try:
            return self._save_with_login()
        except forms.ValidationError as error:
            # Its new login's name was made elsewhere since the form was checked: nothing
            # is saved, and the form says so beside the username, everything kept.
            self.add_error("username", error)
            return None
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
            member.user = create_login(
                self.cleaned_data["username"].strip(),
                self.cleaned_data["password"],
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
        if may_manage_login(self.actor, user, member.club):
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


class MyDetailsForm(forms.ModelForm):
    """A member's own details in one club: email, phone, name at the table, and who may see
    the email and phone. Another club's details of the same login are that club's member."""

    class Meta:
        model = Member
        fields = ["table_name", "email", "phone", "contact_sharing"]
        widgets = {
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
            "contact_sharing": forms.RadioSelect,
        }
        labels = {
            "table_name": "Your name at the table",
            "contact_sharing": "Who may see your email and phone",
        }
        help_texts = {
            "table_name": "Shown on the seating, the table's page and the standings.",
            "contact_sharing": "The coordinators always see them, to run the club.",
        }
        error_messages = {
            "email": {"invalid": "Please type a whole email address, like ann@example.com."},
        }

    def clean_table_name(self):
        table_name = tidy_name(self.cleaned_data.get("table_name", ""))
        if not has_a_letter(table_name):
            raise forms.ValidationError(
                "Please type your name at the table, with at least one letter we can show.",
                code="no_letter",
            )
        check_table_name_free(self.instance.club, table_name, self.instance)
        return table_name

    def clean_phone(self):
        return " ".join(self.cleaned_data.get("phone", "").split())

    @transaction.atomic
    def save(self) -> bool:
        """Save what changed, under a lock on the member's row: the same form posted again
        (or twenty times at once) finds nothing to change, so it is one change and one line
        of the member's history. Returns whether anything changed."""
        member = Member.objects.select_for_update().get(pk=self.instance.pk)
        changed = [
            name for name in self.Meta.fields if getattr(member, name) != self.cleaned_data[name]
        ]
        if not changed:
            return False
        for name in changed:
            setattr(member, name, self.cleaned_data[name])
        member.save(update_fields=changed)
        return True


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
