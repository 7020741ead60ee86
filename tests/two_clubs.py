"""Two clubs on one installation, each with a whole evening's data: the world of
tests/test_two_clubs.py and tests/test_club_scoping.py.

Club A ("alder") and club B ("birch") each have members (some with logins), a coordinator,
a keep-apart pair, a past evening played with results, a future evening, and tonight's
evening seated, published and in play with hands, a draw, kong chips and a corrected hand.
One login is a member of both clubs (a Member in each), seated at table 2 in A and at
table 1 in B. Everything B holds that a page could show is marked with words and figures
found nowhere in A (`Club.markers`), so a page of A that shows any of B's data is caught by
a plain search of its text.
"""

import datetime
import hashlib
import uuid
from dataclasses import dataclass, field

from django.apps import apps
from django.contrib.auth import get_user_model
from django.utils import timezone

from club.calendar_feed.models import CalendarAddress
from club.models import Club, KeepApart, Member, Session
from club.privacy.erasure import erase
from club.roles import make_coordinator
from club.scoping import ClubScopedManager
from club.week.models import AwayPeriod, ReplyAnswer, SessionReply
from games.models import Match, RoomKey, TableKey
from games.start import start_play
from scoring.corrections import correct_hand
from scoring.models import Hand, KongChips
from scoring.recording import Win, record_kong, record_win, save_draw
from scoring.results import MatchResult
from tests.factories import UserFactory
from tests.games.helpers import seated_members, seated_session
from tests.scoring.standings_helpers import play, session_on, win

A_SLUG, B_SLUG = "alder", "birch"
BOTH_LOGIN = "bothclubs"


@dataclass
class ClubWorld:
    """One club's rows the tests name, and the texts that are its data."""

    club: Club
    session: Session  # tonight, in play
    last_week: Session  # closed, with results
    next_week: Session  # planned
    match: Match  # tonight's table 1
    other_match: Match  # tonight's table 2
    seated: Member  # with a login, at table 1 tonight
    plain_member: Member  # with a login, seated nowhere tonight
    both: Member  # the member the login of both clubs is here
    pair: KeepApart
    hand: Hand
    kong: KongChips
    coordinator: object
    table_key: TableKey  # tonight's table 1's, which recorded hand 2 there
    room_key: RoomKey  # the club's room card
    # Words only this club's data holds: names, table names, contact details, notes,
    # venues, B's evenings' dates as the pages write them.
    words: list[str] = field(default_factory=list)
    # Figures only this club's data holds (hand totals, tallies, results), looked for as
    # whole numbers in a page's visible text.
    figures: set[int] = field(default_factory=set)
    calendar_token: str = ""  # the seated member's calendar address's

    def url(self, path: str) -> str:
        """`path` (as reverse() gives it) at this club's address."""
        return f"/c/{self.club.slug}{path}"


def _dates_in_words(day: datetime.date) -> list[str]:
    """How the templates write a date (|date:"j F Y", "l j F", "j M Y"...)."""
    return [f"{day.day} {day:%B} {day.year}", f"{day:%A} {day.day} {day:%B}", f"{day.day} {day:%b}"]


def build_club(slug, tag, *, today, totals, starting_tally, dates):
    """A club whose every name, note and figure carries `tag` (a word no other club has)
    or comes from `totals` (last week's hand, then tonight's three: U3A's at most 23) and
    `starting_tally`; `dates` are (last week, next week) for its own evenings."""
    club = Club.objects.create(
        name=f"{tag} Mahjong Club",
        slug=slug,
        rule_set="u3a",
        show_dice=True,
        standings_visibility=Club.Visibility.PUBLIC,  # the most any visitor can see
        public_calendar=True,
        starting_tally=starting_tally,
    )
    coordinator = UserFactory(username=f"{tag.lower()}boss")
    make_coordinator(coordinator, club)

    session = seated_session(club, sizes=(4, 4), date=today)
    session.venue = f"{tag} Boathouse"
    session.notes = f"{tag} private session note"
    session.save()
    members = seated_members(session, 1) + seated_members(session, 2)
    extra = [Member.objects.create(club=club, name="x", table_name=f"x{n}") for n in range(2)]
    for n, member in enumerate(members + extra, start=1):
        member.name = f"{tag}name{n} {tag}surname{n}"
        member.table_name = f"{tag}{n}"
        member.email = f"{tag.lower()}{n}@{tag.lower()}.example"
        member.phone = f"07700 {900000 + totals[0] + n}"
        member.notes = f"{tag} private member note {n}"
        member.save()
    seated = members[0]
    seated.user = UserFactory(username=f"{tag.lower()}seated")
    seated.save()
    plain_member = extra[0]
    plain_member.user = UserFactory(username=f"{tag.lower()}plain")
    plain_member.save()
    pair = KeepApart.objects.create(club=club, member_a=seated, member_b=plain_member)

    last_day, next_day = dates
    last_week = session_on(club, last_day, members=members[:4])
    last_week.venue, last_week.notes = f"{tag} Old Mill", f"{tag} note of last week"
    last_week.save()
    play(
        last_week,
        1,
        members[:4],
        [win(0, totals[0], [3 * totals[0], -totals[0], -totals[0], -totals[0]])],
        rules="u3a",
    )
    next_week = session_on(club, next_day, status=Session.Status.PLANNED)
    next_week.venue, next_week.notes = f"{tag} Lighthouse", f"{tag} note of next week"
    next_week.save()
    # Answers to "are you coming?" for next week, one with a note only this club may show.
    SessionReply.objects.create(
        session=next_week,
        member=plain_member,
        answer=ReplyAnswer.COMING,
        note=f"{tag} reply note",
        answered_by=plain_member.user,
    )
    SessionReply.objects.create(session=next_week, member=seated, answer=ReplyAnswer.NOT_COMING)
    AwayPeriod.objects.create(member=seated, first=next_day, last=next_day)
    calendar = CalendarAddress.renew(seated)  # the seated member's private calendar

    start_play(session)
    match = Match.objects.get(session=session, table_number=1)
    other_match = Match.objects.get(session=session, table_number=2)
    record_win(match, 1, Win(winner=1, won_by="wall", discarder=None, total=totals[1]))
    keys = TableKey.objects.for_tables(session, [1, 2], by=coordinator)
    room_key = RoomKey.for_club(club, by=coordinator)
    # Recorded on table 1's tablet, sent with the page's one-time key: a SentWrite row too.
    save_draw(match, 2, table_key=keys[1], sent_key=uuid.uuid4())
    kong = record_kong(match, 3, 2, KongChips.Kind.CONCEALED)
    correct_hand(
        match,
        1,
        Win(winner=1, won_by="discard", discarder=3, total=totals[2]),
        f"{tag} corrected the total",
        by=coordinator,
    )
    record_win(other_match, 1, Win(winner=0, won_by="wall", discarder=None, total=totals[3]))
    match.refresh_from_db()
    other_match.refresh_from_db()

    words = [club.name]
    for member in Member.objects.filter(club=club):
        words += [member.name, member.table_name, member.email, member.phone, member.notes]
        words += member.name.split()
    for evening in (session, last_week, next_week):
        words += [evening.venue, evening.notes]
    for day in dates:
        words += _dates_in_words(day)
    words += [
        f"{tag} reply note",
        f"{tag} corrected the total",
        seated.user.username,
        plain_member.user.username,
    ]
    words.append(coordinator.username)
    words += [code for key in keys.values() for code in (key.code, key.shown_code)]
    words += [room_key.code, room_key.shown_code]
    words.append(calendar.token)
    figures = {totals[0]}
    for m in (match, other_match, *Match.objects.filter(session=last_week)):
        figures.update(abs(t) for t in m.tallies() if t)
    for result in MatchResult.objects.filter(club=club):
        figures.update(abs(v) for v in (result.result, result.best_total) if v)
    figures = {f for f in figures if f >= 100}  # small figures are on every page
    # A leaver whose details were erased (the club's erasure list has a row): after the
    # words, as "Former member 1" is every club's first.
    leaver = Member.objects.create(
        club=club, name=f"{tag} leaver", table_name=f"{tag}leaver", is_active=False
    )
    erase(leaver, by=coordinator)
    return ClubWorld(
        club=club,
        session=session,
        last_week=last_week,
        next_week=next_week,
        match=match,
        other_match=other_match,
        seated=seated,
        plain_member=plain_member,
        both=members[5] if tag != "Bravx" else members[1],
        pair=pair,
        hand=Hand.objects.filter(match=match, voided_at=None).get(number=1),
        kong=kong,
        coordinator=coordinator,
        table_key=keys[1],
        room_key=room_key,
        words=sorted(set(words)),
        figures=figures,
        calendar_token=calendar.token,
    )


def two_clubs() -> tuple[ClubWorld, ClubWorld, object]:
    """Clubs A and B, and the login that is a member of both (at A's table 2, B's table 1).
    Their evenings tonight and last week fall on the same dates; only B's other evenings'
    dates are B's alone."""
    today = timezone.localdate()
    a = build_club(
        A_SLUG,
        "Alfa",
        today=today,
        totals=(12, 8, 10, 6),
        starting_tally=0,
        dates=(today - datetime.timedelta(days=7), today + datetime.timedelta(days=7)),
    )
    b = build_club(
        B_SLUG,
        "Bravx",
        today=today,
        totals=(7919, 17, 19, 21),
        starting_tally=3700,
        dates=(today - datetime.timedelta(days=49), today + datetime.timedelta(days=35)),
    )
    both = UserFactory(username=BOTH_LOGIN)
    for world in (a, b):
        world.both.user = both
        world.both.save()
    return a, b, both


# --- what a club holds -----------------------------------------------------------------------


def club_models() -> list[tuple[type, str]]:
    """(model, path to its club) for every model whose manager is club-scoped."""
    found = []
    for model in apps.get_models():
        manager = model._meta.default_manager
        if isinstance(manager, ClubScopedManager):
            found.append((model, manager.club_path))
    return found


def logins_of_only(club: Club) -> list[int]:
    """The logins that are members or coordinators of `club` and of no other club."""
    User = get_user_model()
    users = User.objects.filter(memberships__club=club) | User.objects.filter(
        coordinator_roles__club=club
    )
    # Members or coordinators of some other club (a filter, not an exclude: an exclude over a
    # many-valued relation would drop the login that is in both clubs).
    others = Club.objects.exclude(pk=club.pk)
    elsewhere = User.objects.filter(memberships__club__in=others)
    elsewhere |= User.objects.filter(coordinator_roles__club__in=others)
    return sorted(
        set(users.values_list("pk", flat=True)) - set(elsewhere.values_list("pk", flat=True))
    )


def rows_of(club: Club) -> dict[str, tuple[int, str]]:
    """Every row that is `club`'s, table by table: how many, and a hash of all their values.
    The club's own row and its own logins (name, password, active) are among them."""
    found = {}

    def add(label, queryset, fields=()):
        values = list(queryset.order_by("pk").values_list(*fields))
        found[label] = (len(values), hashlib.sha256(repr(values).encode()).hexdigest())

    for model, path in club_models():
        add(model._meta.label, model._base_manager.filter(**{path: club}))
    add("club.Club", Club.objects.filter(pk=club.pk))
    User = get_user_model()
    add(
        "auth.User",
        User.objects.filter(pk__in=logins_of_only(club)),
        ("pk", "username", "password", "is_active", "is_staff", "is_superuser", "email"),
    )
    return found
