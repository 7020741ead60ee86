from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club.login_names import AdminLoginForm
from club.views import accounts as account_views
from club.views import my_details
from club.views import privacy as privacy_views
from front import member_data_views
from front import views as front_views
from front.health import health
from games import key_views
from scoring.views import practice as practice_views

admin.site.site_header = "Mahjong club administration"
admin.site.site_title = "Mahjong club admin"
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", front_views.home, name="home"),
    path("favicon.ico", front_views.favicon, name="favicon"),
    # The installable app (front/offline.py): its manifest, its service worker, and the page
    # the worker shows for a page it may not keep when there is no connection.
    path("manifest.webmanifest", front_views.web_app_manifest, name="manifest"),
    path("sw.js", front_views.service_worker, name="service_worker"),
    path("offline/", front_views.offline_page, name="offline"),
    # For load balancers: 200 "ok" when the database answers (front/health.py).
    path("health/", health, name="health"),
    path("signup/", front_views.signup, name="signup"),
    # An empty installation's first club and operator's login (front/first_setup.py).
    path("setup/", front_views.first_setup, name="first_setup"),
    # A table's card: type its code, or scan its QR code (no club in the address).
    path("t/", key_views.enter, name="table_key_enter"),
    path("t/leave/", key_views.leave, name="table_key_leave"),
    path("t/<str:code>/", key_views.open_key, name="table_key_open"),
    path("menu/", front_views.menu, name="menu"),
    # Calendar feeds (club/calendar_feed/): the token or the club's address says which club.
    path("calendar/", include("club.calendar_feed.feed_urls")),
    path("settings/", front_views.club_settings, name="club_settings"),
    path("settings/backup/", front_views.club_backup, name="club_backup"),
    path("privacy/", privacy_views.privacy_notice, name="privacy_notice"),
    path(
        "settings/members-data/",
        privacy_views.members_data_settings,
        name="members_data_settings",
    ),
    path("my-data/", member_data_views.my_data, name="my_data"),
    path("my-data/my-data.csv", member_data_views.my_data_csv, name="my_data_csv"),
    path("my-data/my-data.json", member_data_views.my_data_json, name="my_data_json"),
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", account_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        account_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path("accounts/details/", my_details.my_details, name="my_details"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/reset/", account_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("club/", include("club.urls")),
    path("play/", include("games.urls")),
    path("", include("scoring.urls")),
    path("api/score/", practice_views.api_score, name="api_score"),
    path("admin/", admin.site.urls),
]

# A lost database connection outside a view gets the 503 page too (club/unavailable.py).
handler500 = "club.unavailable.server_error"
# A post too large (or unreadable) gets a page in plain words, not "Bad Request (400)".
handler400 = "club.views.accounts.bad_request"
