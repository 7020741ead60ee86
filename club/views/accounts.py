"""Logins: log in (with the lockout), forgotten passwords, a coordinator unlocking a login
or giving a temporary password, and the pages for an expired form and an unreadable one."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpResponseBadRequest
from django.http.request import split_domain_port
from django.shortcuts import get_object_or_404, redirect, render
from django.template import loader
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from club import accounts, login_throttle
from club.login_names import LoginForm
from club.models import Member
from club.read_only import refused_write_behind
from club.refusals import Refused, show_refusal
from club.roles import coordinator_required
from club.unavailable import unreachable_answer


class LoginView(auth_views.LoginView):
    authentication_form = LoginForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "reset_by_email": email_configured()}

    def form_valid(self, form):
        response = super().form_valid(form)
        # A flood of wrong passwords for this login does not make this browser wait.
        login_throttle.remember_login(self.request, response, form.get_user().get_username())
        return response


class LogoutView(auth_views.LogoutView):
    """Logging out also clears what this browser kept of the site: the service worker's
    copies of table pages, the HTTP cache, and the pages' stores (an outbox, a half-typed
    hand). Browsers act on Clear-Site-Data only over https (or on localhost); on a plain-http
    hall network static/js/logout.js clears the same stores before the form is sent."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        if is_trustworthy(request):  # elsewhere browsers only complain about it
            response["Clear-Site-Data"] = CLEAR_ON_LOGOUT
        return response


# Not "cookies": the browser's memory of a good login (club/login_throttle.py) stays.
CLEAR_ON_LOGOUT = '"cache", "storage"'
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")


def is_trustworthy(request) -> bool:
    """Whether browsers treat the page's address as a secure context: https, or this
    computer itself (a plain-http hall network is neither)."""
    if request.is_secure():
        return True
    domain, _ = split_domain_port(request.get_host())
    return domain in LOOPBACK or domain.endswith(".localhost")


class PasswordChangeView(auth_views.PasswordChangeView):
    def form_valid(self, form):
        response = super().form_valid(form)
        accounts.password_changed(form.user)
        return response


def email_configured() -> bool:
    return settings.PASSWORD_RESET_BY_EMAIL


class PasswordResetView(auth_views.PasswordResetView):
    """Only when the club can send email; otherwise the page says to ask the coordinator."""

    form_class = accounts.MemberPasswordResetForm
    success_url = reverse_lazy("password_reset_done")

    def dispatch(self, request, *args, **kwargs):
        if not email_configured():
            return render(request, "registration/password_reset_unavailable.html")
        return super().dispatch(request, *args, **kwargs)


def _member_with_login(request, pk: int) -> Member:
    return get_object_or_404(
        Member.objects.select_related("user"),
        pk=pk,
        club=request.club,
        user__isnull=False,
    )


@coordinator_required
@require_POST
def unlock_login(request, pk):
    member = _member_with_login(request, pk)
    try:
        accounts.check_may_manage(request.user, member)
    except Refused as error:
        return show_refusal(request, error, "club:member_detail", pk=member.pk)
    accounts.unlock(member.user)
    messages.success(request, f"{member.name}'s login is unlocked: they can log in again now.")
    return redirect("club:member_detail", pk=member.pk)


@coordinator_required
@require_POST
def new_password(request, pk):
    """A temporary password for the coordinator to read out; the member must change it at
    their next login. Shown once on this page and never stored in a message."""
    member = _member_with_login(request, pk)
    try:
        accounts.check_may_manage(request.user, member)
    except Refused as error:
        return show_refusal(request, error, "club:member_detail", pk=member.pk)
    password = accounts.set_temporary_password(member.user)
    return render(
        request, "club/accounts/new_password.html", {"member": member, "password": password}
    )


def csrf_failure(request, reason=""):
    """An expired or missing form token: the site's look, a plain sentence, a way back."""
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    return render(request, "403_csrf.html", {"back": back}, status=403)


def bad_request(request, exception=None):
    """The 400 handler: Django's bare "Bad Request (400)" in the site's look and plain words,
    saying so when the post was simply too large (too many bytes, fields or files). Rendered
    without the request's context, as the 500 page is: it needs no database. A session
    that could not be saved because the database refused the write is that refusal's 503."""
    refused = refused_write_behind(exception)
    if refused is not None:
        return unreachable_answer(request, refused)
    too_big = isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent)
    return HttpResponseBadRequest(loader.get_template("400.html").render({"too_big": too_big}))
