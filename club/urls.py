"""Members, sessions, attendance and seating. Mounted under /club/."""

from django.urls import include, path

from .seating import views as seating_views
from .views import attendance, members, my_details, privacy, sessions

app_name = "club"
urlpatterns: list = [
    path("members/", members.member_list, name="member_list"),
    path("contacts/", my_details.contacts, name="contacts"),
    path("members/add/", members.member_create, name="member_add"),
    path("members/import/", members.member_import, name="member_import"),
    path("members/import/confirm/", members.member_import_confirm, name="member_import_confirm"),
    path(
        "members/import/members-template.csv",
        members.member_import_template,
        name="member_import_template",
    ),
    path("members/<int:pk>/", members.member_detail, name="member_detail"),
    path("members/<int:pk>/edit/", members.member_edit, name="member_edit"),
    path("members/<int:pk>/retire/", members.member_retire, name="member_retire"),
    path("members/<int:pk>/reactivate/", members.member_reactivate, name="member_reactivate"),
    path("members/<int:pk>/delete/", members.member_delete, name="member_delete"),
    path("members/<int:pk>/erase/", privacy.member_erase, name="member_erase"),
    path("members/<int:pk>/keep-apart/", members.keep_apart_add, name="keep_apart_add"),
    path(
        "members/<int:pk>/keep-apart/<int:pair_pk>/remove/",
        members.keep_apart_remove,
        name="keep_apart_remove",
    ),
    path("", include("club.account_urls")),
    path("", include("club.calendar_feed.urls")),
    path("sessions/", sessions.session_list, name="session_list"),
    path("sessions/add/", sessions.session_create, name="session_add"),
    path("sessions/next/", sessions.session_next, name="session_next"),
    path("sessions/<int:pk>/", sessions.session_detail, name="session_detail"),
    path("sessions/<int:pk>/edit/", sessions.session_edit, name="session_edit"),
    path("sessions/<int:pk>/status/", sessions.session_status, name="session_status"),
    path("sessions/<int:pk>/check-in/", attendance.check_in, name="check_in"),
    path(
        "sessions/<int:pk>/check-in/<int:member_pk>/",
        attendance.set_attendance,
        name="set_attendance",
    ),
    path("sessions/<int:pk>/check-in/<int:member_pk>/paid/", attendance.set_paid, name="set_paid"),
    path("sessions/<int:pk>/check-in/walk-in/", attendance.walk_in, name="walk_in"),
    path("sessions/<int:session_id>/seating/", include("club.seating.urls")),
    path("tables/last-week/", seating_views.last_week, name="last_week_tables"),
    path("", include("club.week.urls")),
]
