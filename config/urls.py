from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club.views import home as club_views

admin.site.site_header = "Mahjong club administration"
admin.site.site_title = "Mahjong club admin"

urlpatterns = [
    path("", club_views.home, name="home"),
    path("settings/", club_views.club_settings, name="club_settings"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("club/", include("club.urls")),
    path("standings/", include("scoring.urls")),
    path("admin/", admin.site.urls),
]
