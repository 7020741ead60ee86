"""Every page, as everyone, as production serves it.

The demo club (a season of ten evenings) with tonight's evening in play is opened at every
URL pattern the site has (tests/test_security_enumerated.py's walker), by GET, as an
anonymous visitor (results private, then public), a plain member, a member seated at table 1
and a coordinator, plainly and as htmx asks. The pages are rendered under the production
static storage (whitenoise's compressed manifest over a real `collectstatic`), and the test
fails, listing every case, on:

- a server error, such as a `{% static %}` file the manifest lacks (production's 500);
- template syntax in the text a reader sees (`{#`, `{%`, `{{` ...): a comment or tag that
  Django printed instead of reading, like a `{# #}` comment over two lines;
- a /static/ address in the page (`src`, `href`) that `collectstatic` did not produce;
- an `hx-get` whose longest request (what it includes, at its longest) could pass gunicorn's
  request-line limit (tests/htmx_requests.py): production would answer 414;
- a URL pattern that no role could open (the walk did not really render it).

The error pages (not found, the server error page, a refused form token) are rendered too.
"""

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from club.calendar_feed.models import CalendarAddress
from club.models import Club, KeepApart, Member, Seat, Session
from club.seating.changes import make_seating
from club.unavailable import server_error
from front.demo_play import play_random_hand
from games.models import Match, TableKey
from games.start import start_play
from scoring.models import KongChips
from scoring.recording import record_kong
from tests.demo_club import MEMBER_LOGIN
from tests.factories import CoordinatorFactory, UserFactory
from tests.htmx_requests import too_long
from tests.test_security_enumerated import kwargs_for, walk

pytestmark = pytest.mark.django_db

# What Django prints when it does not read a tag or comment.
TEMPLATE_SYNTAX = re.compile(r"\{[{%#]|[}%#]\}")
# Text that is not shown as text: scripts and styles.
NOT_TEXT = {"script", "style"}
PRODUCTION_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"


class PageText(HTMLParser):
    """The text a reader sees (outside tags, scripts and styles) and every address in a
    `src`, `href` or `srcset`."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.addresses: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in NOT_TEXT:
            self._skipping += 1
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.addresses.append(value)
            elif name == "srcset" and value:
                self.addresses += [part.split()[0] for part in value.split(",") if part.strip()]

    def handle_endtag(self, tag):
        if tag in NOT_TEXT and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping:
            self.text.append(data)


def evening_in_play(club):
    """The demo club `club`, and tonight's evening (already checked in by the demo) seated, in play
    under the u3a rules with dice, with hands, a draw or two and a kong at table 1, where the
    demo's member login sits. Returns what the URLs and roles need."""
    club.rule_set = "u3a"  # kong chips and goulash hands on the table pages
    club.show_dice = True
    club.public_calendar = True  # its feed is one of the pages
    club.save()
    brian = Member.objects.get(user__username=MEMBER_LOGIN[0])
    brian.fixed_table = 1
    brian.save()
    tonight = Session.objects.order_by("-date").first()
    plan, _ = make_seating(tonight, seed=16)
    plan.publish()
    start_play(tonight)
    tonight.refresh_from_db()
    match = Match.objects.get(session=tonight, table_number=1, status=Match.Status.IN_PLAY)
    rng = random.Random(16)
    for _ in range(5):
        match.refresh_from_db()
        play_random_hand(match, rng)
    state = match.replay()[-1]
    record_kong(match, state.hand, state.dealer, KongChips.Kind.CONCEALED)
    # A member with a login who is not at any table tonight.
    seated_tonight = set(
        Seat.objects.filter(plan__session=tonight).values_list("member", flat=True)
    )
    plain_member = Member.objects.exclude(pk__in=seated_tonight).filter(user=None).first()
    plain_member.user = UserFactory(username="plainmember")
    plain_member.save()
    pair = KeepApart.objects.create(club=club, member_a=brian, member_b=plain_member)
    last_week = (
        Session.objects.filter(status=Session.Status.CLOSED).exclude(pk=tonight.pk).latest("date")
    )
    keys = TableKey.objects.for_tables(tonight, [1])  # as the Table keys page issues them
    return {
        "calendar_token": CalendarAddress.renew(brian).token,
        "table_key": keys[1],
        "club": club,
        "session": tonight,
        "match": match,
        "plain_member": plain_member,
        "pair": pair,
        "last_week": last_week,
        "coordinator": CoordinatorFactory(username="pagecoordinator"),
        "seated": brian.user,
        "plain": plain_member.user,
    }


def problems_in(page: str, where: str, static_root: Path) -> list[str]:
    parsed = PageText()
    parsed.feed(page)
    parsed.close()
    found = too_long(page, where)
    text = " ".join(" ".join(parsed.text).split())
    syntax = list(TEMPLATE_SYNTAX.finditer(text))
    if syntax:
        start = max(syntax[0].start() - 40, 0)
        found.append(
            f"{where}: template syntax in the text ({len(syntax)} times), first: "
            f"…{text[start : syntax[0].end() + 60]}…"
        )
    for address in parsed.addresses:
        path = unquote(urlsplit(address).path)
        if path.startswith(settings.STATIC_URL) or path.startswith("/" + settings.STATIC_URL):
            name = path.split(settings.STATIC_URL.strip("/") + "/", 1)[1]
            if not (static_root / name).is_file():
                found.append(f"{where}: {address} is not among the collected static files")
    return found


def ways_to_ask(role: str):
    """As a browser opens a page, and as htmx asks for it (some views answer htmx with a
    partial). Anonymous visitors are sent to the login page by every private page: asked
    plainly only, to keep the walk short."""
    yield "", {}
    if role != "anonymous (results for members)":
        yield " (htmx)", {"HTTP_HX_REQUEST": "true"}


def test_every_page_renders_for_everyone_under_the_production_static_storage(
    production_static, demo_club
):
    world = evening_in_play(demo_club)
    club = world["club"]
    roles = {
        "anonymous (results for members)": None,
        "anonymous (results public)": None,
        "a plain member": world["plain"],
        "a member seated at table 1": world["seated"],
        "a coordinator": world["coordinator"],
    }
    pages = [
        (name, reverse(name, kwargs=kwargs_for(name, keys, world))) for name, _, keys in walk()
    ]
    pages.append(("page not found", "/no-such-page/"))
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STORAGE}}
    problems: list[str] = []
    opened: dict[str, set[int]] = {}
    rendered = 0
    # The sign-up page is walked as an installation that offers it shows it.
    with override_settings(STORAGES=storages, STATIC_ROOT=production_static, CLUB_SIGNUP=True):
        for role, user in roles.items():
            club.standings_visibility = (
                Club.Visibility.PUBLIC if "public" in role else Club.Visibility.MEMBERS
            )
            club.save()
            client = Client()
            if user is not None:
                client.force_login(user)
            for name, url in pages:
                for how, headers in ways_to_ask(role):
                    where = f"{url}{how} as {role}"
                    try:
                        response = client.get(url, **headers)
                    except Exception as error:  # the test client re-raises a view's error
                        problems.append(f"{where}: server error: {error!r}")
                        continue
                    opened.setdefault(name, set()).add(response.status_code)
                    if response.status_code >= 500:
                        problems.append(f"{where}: answered {response.status_code}")
                    if "text/html" in response.get("Content-Type", ""):
                        rendered += 1
                        problems += problems_in(response.content.decode(), where, production_static)

        # The pages no URL leads to: the server error page, a refused form token.
        request = RequestFactory().get("/")
        request.user = world["coordinator"]
        error_page = server_error(request)
        problems += problems_in(error_page.content.decode(), "the 500 page", production_static)
        client = Client(enforce_csrf_checks=True)
        refused = client.post(reverse("login"), {"username": "x", "password": "y"})
        assert refused.status_code == 403
        problems += problems_in(refused.content.decode(), "the CSRF page", production_static)

    # A page that refused everyone was not rendered by this walk (a redirect or an empty
    # answer to a poll is an answer; 405 is a form's address, which GET does not open).
    never = sorted(
        name
        for name, codes in opened.items()
        # The setup page is an empty installation's only (tests/test_first_setup.py).
        if name not in ("page not found", "first_setup")
        and all(400 <= code != 405 for code in codes)
    )
    problems += [f"{name}: no role could open it ({sorted(opened[name])})" for name in never]
    assert problems == [], f"{len(problems)} problem(s):\n" + "\n".join(problems)
    assert rendered > 400  # the walk really rendered the pages
    print(f"{len(pages)} addresses, {len(roles)} roles: {rendered} HTML pages rendered")


def test_no_template_has_a_comment_over_several_lines():
    """Django's `{# #}` ends on its own line; over two lines it is printed as text. The
    rendering test above finds it on pages it opens; this finds it in every template file."""
    root = Path(settings.BASE_DIR)
    files = sorted((root / "templates").rglob("*.html")) + sorted(
        root.glob("*/templates/**/*.html")
    )
    found = []
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for opened in re.finditer(r"\{#", line):
                if "#}" not in line[opened.end() :]:
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()[:80]}")
    assert found == [], "Use {% comment %} … {% endcomment %} for these:\n" + "\n".join(found)
