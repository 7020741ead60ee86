from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from .models import Attendance, KeepApart, Member, Seat, SeatingPlan, SeatingTable, Session


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = [
        "table_name",
        "name",
        "experience",
        "is_active",
        "is_guest",
        "fixed_table",
        "joined",
        "user",
    ]
    list_filter = ["is_active", "is_guest", "experience"]
    search_fields = ["name", "table_name", "email", "phone"]


@admin.register(KeepApart)
class KeepApartAdmin(admin.ModelAdmin):
    list_display = ["member_a", "member_b", "reason"]
    search_fields = ["member_a__name", "member_b__name", "member_a__table_name", "reason"]
    autocomplete_fields = ["member_a", "member_b"]


class AttendanceInline(admin.TabularInline):
    model = Attendance
    extra = 0
    autocomplete_fields = ["member"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["date", "venue", "status", "created"]
    list_filter = ["status", "venue"]
    search_fields = ["venue", "notes"]
    date_hierarchy = "date"
    inlines = [AttendanceInline]


@admin.register(Attendance)
class AttendanceAdmin(admin.ModelAdmin):
    list_display = ["session", "member", "arrived_at", "left_at"]
    list_filter = ["session__date"]
    search_fields = ["member__name", "member__table_name"]
    autocomplete_fields = ["member"]


class SeatingTableInline(admin.TabularInline):
    model = SeatingTable
    extra = 0


@admin.register(SeatingPlan)
class SeatingPlanAdmin(admin.ModelAdmin):
    list_display = ["session", "status", "published_at", "updated"]
    list_filter = ["status"]
    inlines = [SeatingTableInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["member", "table", "wind", "position", "plan"]
    list_filter = ["plan__session__date", "wind"]
    search_fields = ["member__name", "member__table_name"]
    autocomplete_fields = ["member"]


class UserChangeForm(auth_admin.UserChangeForm):
    """The admin's change of a login: a new username may not differ from another login's
    only in case, since logging in ignores case (club/login_names.py)."""

    def clean_username(self):
        username = self.cleaned_data.get("username")
        users = get_user_model()._default_manager.filter(username__iexact=username)
        other = users.exclude(pk=self.instance.pk).first() if username else None
        if other is not None:
            raise ValidationError(
                f"The username “{username}” is taken: it is the login “{other.username}”, "
                "since capitals do not count when logging in. Please choose another."
            )
        return username


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
