"""A coordinator's actions on a member's login; club/urls.py includes these (namespace "club")."""

from django.urls import path

from club.views import accounts

urlpatterns = [
    path("members/<int:pk>/login/unlock/", accounts.unlock_login, name="login_unlock"),
    path("members/<int:pk>/login/new-password/", accounts.new_password, name="login_new_password"),
]
