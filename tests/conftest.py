import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django must allow ORM calls there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_sessionstart(session):
    """test-results/ (screenshots) starts empty once a run. pytest-playwright empties it at
    each session's start; under pytest-xdist (`make test` runs two workers) that is each
    worker's, and a worker starting late would delete what the other had written. So
    it is done here, on the main process only (a worker has `workerinput`), and the plugin's
    own fixture (`delete_output_dir`, below) does nothing."""
    if not hasattr(session.config, "workerinput"):
        output = session.config.getoption("--output", default=None)
        if output:
            shutil.rmtree(output, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _tests_set_up_every_club():
    """The tests' own set-up and checks read and write rows of any club, as the operators'
    tools do: the club scope (club/scoping.py) is off in the test's thread. Every request a
    test makes (test client, live server) runs inside its club's scope, as in production;
    tests/test_club_scoping.py checks that an unscoped query fails."""
    from club.scoping import scopes_disabled

    with scopes_disabled():
        yield


@pytest.fixture(scope="session", autouse=True)
def delete_output_dir():
    """pytest-playwright's fixture of this name, overridden: see pytest_sessionstart."""


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


@pytest.fixture(scope="session")
def demo_dump(django_db_setup, django_db_blocker):
    """The demo club's rows, loaded once a test run (tests/demo_club.py)."""
    from tests.demo_club import capture

    with django_db_blocker.unblock():
        return capture()


@pytest.fixture
def demo_club(db, demo_dump):
    """The demo club (`manage.py demo`): members, logins, a season of ten evenings played,
    tonight's session checked in. Written back from the run's one load in a fraction of a
    second."""
    return demo_dump.restore()


@pytest.fixture(scope="session")
def production_static(tmp_path_factory):
    """A STATIC_ROOT filled by `collectstatic` with the production storage (whitenoise's
    compressed manifest), once per test run; see tests/faults/server.py."""
    from tests.faults.server import collect_static

    root = tmp_path_factory.mktemp("static-root")
    collect_static(root)
    return root
