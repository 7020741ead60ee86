import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django must allow ORM calls there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def _empty_cache():
    """The login throttle counts wrong passwords in the cache (club/login_throttle.py): each
    test starts with none, as the database starts with no axes records."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club(db):
    from tests.factories import ClubFactory

    return ClubFactory()


@pytest.fixture
def coordinator(club):
    from tests.factories import CoordinatorFactory

    return CoordinatorFactory()


@pytest.fixture
def member_user(club):
    from tests.factories import MemberFactory, UserFactory

    user = UserFactory()
    MemberFactory(club=club, user=user)
    return user


@pytest.fixture
def coordinator_client(client, coordinator):
    client.force_login(coordinator)
    return client


@pytest.fixture
def member_client(client, member_user):
    client.force_login(member_user)
    return client
