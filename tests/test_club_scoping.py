"""Every query of a club's data is about one club, or it fails (club/scoping.py).

- Every model that holds a club's data has only club-scoped managers: a model with a
  foreign key to the club, or to a model that holds club data, and a plain manager (a new
  model someone adds without scoping) fails the test by name.
- With no club in scope, a query raises ScopeError: evaluating `.all()`, `.count()`,
  `.filter().exists()`, `.get()`, `.first()`, `.values_list()`, and the model's own
  queryset methods (`Match.objects.in_play()` ...).
- Inside `scope(club=A)` only A's rows come back, through the managers, the related
  managers (`session.matches`, also of B's session object) and prefetches.
- Every row's club is its parents' club: a ClubRow's own club key (Match, Hand, KongChips,
  MatchResult, Attendance) equals its parent's, and no row points at another club's row;
  over the demo club and over two clubs side by side.

The test suite's own thread runs with the scope off (tests/conftest.py): the unscoped
checks run in a fresh context (`contextvars.Context().run`), where no scope was ever set.
"""

import contextvars
import datetime
import inspect

import pytest
from django.apps import apps
from django.db import models
from django.db.models import F, Prefetch

from club.models import Club, Member, Session
from club.scoping import ClubRow, ClubRowQuerySet, ClubScopedManager, ScopeError, scope
from games.models import Match
from scoring.models import Hand
from tests.two_clubs import club_models, two_clubs

pytestmark = pytest.mark.django_db

# Not club data though they point at club data's models: the installation's own tables.
NOT_CLUB_DATA = {"club.Club"}


def scoped_models() -> dict:
    return dict(club_models())


def holds_club_data(model, scoped) -> bool:
    """A foreign key (or one-to-one) to the club, or to a model that holds club data."""
    for field in model._meta.concrete_fields:
        if field.is_relation and field.related_model is not None:
            target = field.related_model
            if target is Club or target in scoped:
                return True
    return False


def unscoped(function, *args):
    """`function(*args)` in a fresh context, where no scope was ever entered."""
    return contextvars.Context().run(function, *args)


def fails_unscoped(query) -> bool:
    """Whether running `query()` (and evaluating what it gives) raises ScopeError."""

    def run():
        try:
            result = query()
            if isinstance(result, models.QuerySet):
                list(result)
        except ScopeError:
            return True
        return False

    return unscoped(run)


# --- which models are scoped ------------------------------------------------------------------


def test_every_model_holding_club_data_has_only_club_scoped_managers():
    scoped = scoped_models()
    assert len(scoped) >= 14, sorted(m._meta.label for m in scoped)
    plain = []
    for model in apps.get_models():
        label = model._meta.label
        if label in NOT_CLUB_DATA or not holds_club_data(model, scoped):
            continue
        for manager in model._meta.managers:
            if not isinstance(manager, ClubScopedManager):
                plain.append(f"{label}.{manager.name} is {type(manager).__name__}")
        if model not in scoped:
            plain.append(f"{label}: its default manager is not club-scoped")
    assert plain == [], "Give these club_scoped managers (club/scoping.py):\n" + "\n".join(plain)


def test_the_check_above_finds_a_model_without_scoping():
    """A model like the ones someone might add (a note on a member) is found by it."""

    class MemberNote(models.Model):
        member = models.ForeignKey(Member, on_delete=models.CASCADE)

        class Meta:
            app_label = "club"
            managed = False

        def __str__(self):
            return "a note"

    try:
        assert holds_club_data(MemberNote, scoped_models())
        assert not isinstance(MemberNote._meta.default_manager, ClubScopedManager)
    finally:
        apps.all_models["club"].pop("membernote", None)
        apps.clear_cache()


@pytest.mark.parametrize("model", list(scoped_models()), ids=lambda m: m._meta.label)
def test_each_scoped_models_path_leads_to_its_club(model):
    path = model._meta.default_manager.club_path
    target = model
    for name in path.split("__"):
        target = target._meta.get_field(name).related_model
    assert target is Club, path


# --- with no club in scope, queries fail -----------------------------------------------------


def _calls(world) -> dict:
    """How to call each of the models' own queryset methods (a new method that needs
    arguments fails test_own_queryset_methods_fail_unscoped until it is listed here)."""
    a = world
    return {
        "search": (),
        "for_login": (a.seated.user,),
        "named": ("Alfa1",),
        "free_table_name": ("Alfa1",),
        "involving": (a.seated,),
        "upcoming": (datetime.date(2026, 1, 1),),
        "past": (datetime.date(2026, 1, 1),),
        "past_page": (datetime.date(2026, 1, 1),),
        "with_present_count": (),
        "live": (),
        "of_session": (a.session,),
        "in_play": (),
        "usable": (),
        "opening": (a.session.pk, 1, [a.table_key.pk]),
        "ended_with_its_evening": (a.session.pk, 1, [a.table_key.pk]),
        "for_tables": (a.session, [1]),
        "held_by_device": ([a.room_key.pk],),
        "of_member": (a.seated,),
        "for_session": (a.session,),
        "for_member": (a.seated,),
        "coming": (),
        "not_coming": (),
        "covering": (datetime.date(2026, 1, 1),),
        "current": (datetime.date(2026, 1, 1),),
        "count_sessions_attended": (
            [a.seated],
            datetime.date(2026, 1, 1),
            datetime.date(2027, 1, 1),
        ),
    }


def own_methods(model) -> list[str]:
    """Public methods the model's queryset class adds to Django's QuerySet (a manager made
    with `from_queryset` carries them)."""
    return sorted(
        name
        for name, _ in inspect.getmembers(type(model._meta.default_manager), inspect.isfunction)
        if not name.startswith("_")
        and not any(hasattr(base, name) for base in (models.Manager, ClubRowQuerySet))
    )


@pytest.fixture
def clubs():
    a, b, both = two_clubs()
    return a, b, both


QUERIES = {
    "all()": lambda m: m.objects.all(),
    "count()": lambda m: m.objects.count(),
    "filter().exists()": lambda m: m.objects.filter(pk__gte=0).exists(),
    "filter().count()": lambda m: m.objects.filter(pk__gte=0).count(),
    "get()": lambda m: m.objects.get(pk=1),
    "first()": lambda m: m.objects.first(),
    "values_list()": lambda m: m.objects.values_list("pk", flat=True),
    "order_by()": lambda m: m.objects.order_by("pk"),
    "exclude()": lambda m: m.objects.exclude(pk=0),
    "iterator()": lambda m: list(m.objects.iterator()),
    "in_bulk()": lambda m: m.objects.in_bulk(),
    "all().in_bulk()": lambda m: m.objects.all().in_bulk([1]),
    "aggregate()": lambda m: m.objects.aggregate(n=models.Count("pk")),
    "select_related()": lambda m: m.objects.select_related(),
    "update()": lambda m: m.objects.filter(pk=0).update(),
    "delete()": lambda m: m.objects.filter(pk=0).delete(),
}


@pytest.mark.parametrize("query", list(QUERIES))
def test_queries_fail_with_no_club_in_scope(query):
    passed = [
        m._meta.label for m in scoped_models() if not fails_unscoped(lambda m=m: QUERIES[query](m))
    ]
    assert passed == [], f"{query} ran with no club in scope on {passed}"


# Queries that django-scopes' DisabledQuerySet lets run (exists(), also after .all() or
# .exclude(), which `club_scoped` allows): they would ask every club's rows, so
# club/scoping.py refuses them too.
HOLES = {
    "exists()": lambda m: m.objects.exists(),
    "all().exists()": lambda m: m.objects.all().exists(),
    "exclude().exists()": lambda m: m.objects.exclude(pk=0).exists(),
}


@pytest.mark.parametrize("query", list(HOLES))
def test_reads_django_scopes_lets_through_fail_with_no_club_in_scope(query):
    passed = [
        m._meta.label for m in scoped_models() if not fails_unscoped(lambda m=m: HOLES[query](m))
    ]
    assert passed == [], f"{query} ran with no club in scope on {passed}"


def test_own_queryset_methods_fail_unscoped(clubs):
    a, _, _ = clubs
    calls = _calls(a)
    checked, problems = 0, []
    for model in scoped_models():
        for name in own_methods(model):
            if name not in calls:
                problems.append(f"{model._meta.label}.objects.{name}: say how to call it in _calls")
                continue
            args = calls[name]
            if not fails_unscoped(lambda m=model, n=name, a=args: getattr(m.objects, n)(*a)):
                problems.append(f"{model._meta.label}.objects.{name}() ran with no club in scope")
            checked += 1
    assert problems == []
    assert checked >= 10
    assert fails_unscoped(lambda: Match.objects.in_play())


def test_unscoped_set_up_is_what_the_test_thread_has():
    """The other side: in the test thread (scopes off) the same query runs."""
    assert Member.objects.count() == 0
    assert not fails_unscoped(lambda: Club.objects.count())  # the club itself is not scoped


# --- inside a club's scope, only that club's rows ---------------------------------------------


def test_inside_a_scope_only_that_clubs_rows_come_back(clubs):
    a, b, _ = clubs
    for model, path in club_models():
        for club in (a.club, b.club):
            expected = set(model._base_manager.filter(**{path: club}).values_list("pk", flat=True))
            with scope(club=club):
                got = set(model.objects.values_list("pk", flat=True))
                count = model.objects.count()
            assert got == expected and count == len(expected), (model._meta.label, club.slug)
            assert expected, f"{model._meta.label}: the two clubs' data has no rows of it"


def test_related_managers_and_prefetches_stay_in_the_scope(clubs):
    a, b, both = clubs
    with scope(club=a.club):
        # B's objects, reached some other way (a following foreign key reads its row with
        # the base manager), give nothing of B's through their related managers in A's scope.
        assert list(b.session.matches.all()) == []
        assert list(b.match.hands.all()) == []
        assert list(b.match.chairs.all()) == []
        assert list(b.session.attendances.all()) == []
        assert list(b.club.members.all()) == []
        assert list(b.club.sessions.all()) == []
        # A's own are all there.
        assert set(a.session.matches.all()) == {a.match, a.other_match}
        assert a.match.hands.exists()
        # One login, a member in each club: in A's scope, its A member only.
        assert list(both.memberships.all()) == [a.both]
        assert Member.objects.for_login(both) == a.both
        # Prefetches go through the scoped managers too.
        sessions = list(
            Session.objects.prefetch_related(
                "matches__hands", "attendances__member", Prefetch("matches__chairs")
            )
        )
        assert {s.club_id for s in sessions} == {a.club.pk}
        hands = [h for s in sessions for m in s.matches.all() for h in m.hands.all()]
        members = [x.member for s in sessions for x in s.attendances.all()]
        assert hands and {h.club_id for h in hands} == {a.club.pk}
        assert members and {m.club_id for m in members} == {a.club.pk}
        # Asking for B's rows by their ids finds nothing.
        assert not Hand.objects.filter(match=b.match).exists()
        assert not Member.objects.filter(pk=b.seated.pk).exists()
        assert Member.objects.filter(pk__in=[b.seated.pk, a.seated.pk]).get() == a.seated
    with scope(club=b.club):
        assert list(both.memberships.all()) == [b.both]
        assert set(b.session.matches.all()) == {b.match, b.other_match}


# --- every row's club is its parents' ------------------------------------------------------------


def club_rows() -> list:
    return [m for m in apps.get_models() if issubclass(m, ClubRow)]


def rows_in_another_club() -> list[str]:
    """Rows whose own club key differs from their parent's, and rows pointing at a row of
    another club (any foreign key between club-data models)."""
    scoped = scoped_models()
    found = []
    for model in club_rows():
        parent_club = F(f"{model.club_parent}__club")
        wrong = model._base_manager.exclude(club=parent_club).count()
        if wrong:
            found.append(
                f"{model._meta.label}: {wrong} rows not in their {model.club_parent}'s club"
            )
    for model, path in scoped.items():
        for field in model._meta.concrete_fields:
            target = field.related_model
            if not field.is_relation or field.name == path.split("__")[0]:
                continue
            if target is Club:
                lookup = field.name
            elif target in scoped:
                lookup = f"{field.name}__{scoped[target]}"
            else:
                continue
            wrong = (
                model._base_manager.filter(**{f"{field.name}__isnull": False})
                .exclude(**{lookup: F(path)})
                .count()
            )
            if wrong:
                found.append(f"{model._meta.label}.{field.name}: {wrong} rows of another club")
    return found


def test_club_rows_are_the_six_named():
    labels = sorted(m._meta.label for m in club_rows())
    assert labels == [
        "club.Attendance",
        "club.AwayPeriod",
        "club.SessionReply",
        "games.Match",
        "games.TableKey",
        "scoring.Hand",
        "scoring.KeptRecord",
        "scoring.KongChips",
        "scoring.MatchResult",
        "scoring.SentWrite",
    ]


def test_every_row_is_in_its_parents_club_in_the_demo_club(demo_club):
    assert Hand.objects.filter(club=demo_club).count() > 100
    assert rows_in_another_club() == []


def test_every_row_is_in_its_parents_club_with_two_clubs(clubs):
    assert rows_in_another_club() == []


def test_the_invariant_check_finds_a_row_in_the_wrong_club(clubs):
    """A hand whose club key is not its match's is found (the check can fail)."""
    a, b, _ = clubs
    Hand.objects.filter(pk=b.hand.pk).update(club=a.club)
    found = rows_in_another_club()
    assert any(line.startswith("scoring.Hand:") for line in found), found
