"""A coordinator looks after members' logins, never a login that can run the club: they may
attach, reset, retire, reactivate and unlock only plain member logins. Every kind of login x
every action, refused on the server (not only left out of the form), and the whole takeover
the issue found: attach the admin login, set its password, log in as the administrator."""

import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.html import escape

from club import accounts
from club.roles import make_coordinator
from tests.club.test_members import member_form
from tests.factories import PASSWORD, ClubFactory, MemberFactory, UserFactory

REFUSED = "only the site's administrator can change their login"


def plain(**kwargs):
    return UserFactory(**kwargs)


def staff(**kwargs):
    return UserFactory(is_staff=True, **kwargs)


def superuser(**kwargs):
    return UserFactory(is_staff=True, is_superuser=True, **kwargs)


def coordinator(**kwargs):
    user = UserFactory(**kwargs)
    make_coordinator(user)
    return user


def coordinator_of_another_club(**kwargs):
    """Runs another club: its coordinator's login is not this club's to change."""
    user = UserFactory(**kwargs)
    make_coordinator(user, ClubFactory())
    return user


def member_of_another_club(**kwargs):
    """A plain login, but also a member's in another club: resetting it would lock that club's
    member out, so only the operators change it."""
    user = UserFactory(**kwargs)
    MemberFactory(club=ClubFactory(), user=user)
    return user


@pytest.fixture(autouse=True)
def _other_clubs_beside(club):
    """The kinds below make other clubs; the test's club, made first, keeps the root."""


PRIVILEGED = [staff, superuser, coordinator, coordinator_of_another_club, member_of_another_club]
KINDS = [plain, *PRIVILEGED]


def edit_form(member, **overrides):
    """The member form as the edit page posts it (the members tests' own form data)."""
    return member_form(
        **{"name": member.name, "table_name": member.table_name, "email": "", "phone": ""}
        | overrides
    )


def lock(user):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post(reverse("login"), {"username": user.username, "password": "wrong"})
    assert accounts.is_locked_out(user)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_attach_an_existing_login(coordinator_client, club, kind):
    target = kind()
    member = MemberFactory(club=club)
    url = reverse("club:member_edit", args=[member.pk])
    # No login is listed on the form (another club's usernames among them): typed.
    listed = target.username in coordinator_client.get(url).content.decode()
    response = coordinator_client.post(
        url, edit_form(member, login="existing", existing_user=target.username)
    )
    member.refresh_from_db()
    if kind is plain:
        assert not listed and response.status_code == 302 and member.user == target
    else:
        assert not listed
        assert response.status_code == 200
        assert "That login cannot be given to a member" in response.content.decode()
        assert member.user is None


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_set_a_new_password(coordinator_client, club, kind):
    target = kind()
    member = MemberFactory(club=club, user=target)
    response = coordinator_client.post(
        reverse("club:login_new_password", args=[member.pk]), follow=True
    )
    target.refresh_from_db()
    if kind is plain:
        assert 'class="temporary-password"' in response.content.decode()
        assert not target.check_password(PASSWORD)
    else:
        assert escape(REFUSED) in response.content.decode()
        assert target.check_password(PASSWORD)
        assert not accounts.must_change_password(target)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_retire(coordinator_client, club, kind):
    target = kind()
    member = MemberFactory(club=club, user=target)
    response = coordinator_client.post(reverse("club:member_retire", args=[member.pk]), follow=True)
    member.refresh_from_db()
    target.refresh_from_db()
    if kind is plain:
        assert not member.is_active and not target.is_active
    else:
        assert escape(REFUSED) in response.content.decode()
        assert member.is_active and target.is_active


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_reactivate(coordinator_client, club, kind):
    target = kind(is_active=False)
    member = MemberFactory(club=club, user=target, is_active=False)
    response = coordinator_client.post(
        reverse("club:member_reactivate", args=[member.pk]), follow=True
    )
    member.refresh_from_db()
    target.refresh_from_db()
    if kind is plain:
        assert member.is_active and target.is_active
    else:
        assert escape(REFUSED) in response.content.decode()
        assert not member.is_active and not target.is_active


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_unlock(coordinator_client, club, kind):
    target = kind()
    member = MemberFactory(club=club, user=target)
    lock(target)
    detail = coordinator_client.get(reverse("club:member_detail", args=[member.pk]))
    response = coordinator_client.post(reverse("club:login_unlock", args=[member.pk]), follow=True)
    if kind is plain:
        assert "Set a new password" in detail.content.decode()
        assert not accounts.is_locked_out(target)
    else:
        # The page says why there is no button, and the server refuses the post anyway.
        assert "Set a new password" not in detail.content.decode()
        assert "only the site's administrator can set their password" in detail.content.decode()
        assert escape(REFUSED) in response.content.decode()
        assert accounts.is_locked_out(target)


@pytest.mark.parametrize("kind", PRIVILEGED, ids=lambda kind: kind.__name__)
def test_a_superuser_may_look_after_any_login(client, club, kind):
    client.force_login(superuser(username="the-admin"))
    target = kind()
    member = MemberFactory(club=club, user=target)
    lock(target)
    client.post(reverse("club:login_unlock", args=[member.pk]))
    assert not accounts.is_locked_out(target)
    response = client.post(reverse("club:login_new_password", args=[member.pk]))
    assert 'class="temporary-password"' in response.content.decode()
    client.post(reverse("club:member_retire", args=[member.pk]))
    target.refresh_from_db()
    assert not target.is_active


def test_the_takeover_the_issue_found_no_longer_works(coordinator_client, club):
    """Edit member -> Use an existing login -> the admin login, then Set a new password, then
    log in as admin: every step is refused, and /admin/auth/user/ stays closed."""
    admin = superuser(username="admin")
    member = MemberFactory(club=club)
    coordinator_client.post(
        reverse("club:member_edit", args=[member.pk]),
        edit_form(member, login="existing", existing_user=admin.username),
    )
    member.refresh_from_db()
    assert member.user is None
    # Attached another way (e.g. the admin's Member page): still no password to be had.
    member.user = admin
    member.save()
    response = coordinator_client.post(reverse("club:login_new_password", args=[member.pk]))
    password = re.search(r'class="temporary-password">([^<]+)<', response.content.decode())
    assert password is None
    attacker = Client()
    attacker.post(reverse("login"), {"username": "admin", "password": "guess"})
    assert attacker.get("/admin/auth/user/").status_code == 302  # to the admin's login
    assert AccessAttempt.objects.filter(username="admin").exists()


@override_settings(PASSWORD_RESET_BY_EMAIL=True)
def test_a_changed_email_gets_the_reset_link_not_the_old_one(coordinator_client, club, client):
    """The coordinator changes a member's address: "Forgot your password?" mails the new
    one, and the old address gets nothing."""
    user = UserFactory(username="pat", email="old@example.org")
    member = MemberFactory(club=club, user=user, email="old@example.org")
    coordinator_client.post(
        reverse("club:member_edit", args=[member.pk]),
        edit_form(member, email="new@example.org", login="keep"),
    )
    user.refresh_from_db()
    assert user.email == "new@example.org"  # kept in step
    client.post(reverse("password_reset"), {"email": "old@example.org"})
    assert mail.outbox == []
    client.post(reverse("password_reset"), {"email": "new@example.org"})
    assert [message.to for message in mail.outbox] == [["new@example.org"]]
    assert "new@example.org" in mail.outbox[0].body or "pat" in mail.outbox[0].body


@override_settings(PASSWORD_RESET_BY_EMAIL=True)
def test_a_member_address_changed_elsewhere_also_gets_the_link(club, client):
    """Changed without the form (the admin's Member page, a restored backup): the link
    still goes to the member's address on record, and only there."""
    user = UserFactory(username="pat", email="old@example.org")
    MemberFactory(club=club, user=user, email="new@example.org")
    client.post(reverse("password_reset"), {"email": "old@example.org"})
    assert mail.outbox == []
    response = client.post(reverse("password_reset"), {"email": "new@example.org"})
    assert [message.to for message in mail.outbox] == [["new@example.org"]]
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_url = client.get(link).url
    response = client.post(
        form_url, {"new_password1": "a new mahjong phrase", "new_password2": "a new mahjong phrase"}
    )
    assert response.status_code == 302 and response.url == reverse("password_reset_complete")


@override_settings(PASSWORD_RESET_BY_EMAIL=True)
@pytest.mark.parametrize("kind", PRIVILEGED, ids=lambda kind: kind.__name__)
def test_a_coordinator_cannot_redirect_a_privileged_reset_link(
    coordinator_client, club, client, kind
):
    """Changing the member address of someone who can run the club does not move their
    login's address, and the reset link never goes to the member address."""
    target = kind(email="admin@example.org")
    member = MemberFactory(club=club, user=target, email="admin@example.org")
    coordinator_client.post(
        reverse("club:member_edit", args=[member.pk]),
        edit_form(member, email="coordinator@example.org", login="keep"),
    )
    member.refresh_from_db()
    target.refresh_from_db()
    assert member.email == "coordinator@example.org"
    assert target.email == "admin@example.org"
    client.post(reverse("password_reset"), {"email": "coordinator@example.org"})
    assert mail.outbox == []
    client.post(reverse("password_reset"), {"email": "admin@example.org"})
    assert [message.to for message in mail.outbox] == [["admin@example.org"]]
