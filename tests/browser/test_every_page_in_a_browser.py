"""Every page, as everyone, in Chromium, on a phone and a tablet.

The evening of tests/test_every_page.py (the demo club's season, tonight in play at four
tables, hands at table 1, its card issued) is opened at every URL pattern the site has, by
everyone who can open it: a visitor (results public), a member seated at table 1, a
coordinator and table 1's card device; and a finished match's scoresheet besides, which a
member sees without the correction links a coordinator's view holds. On each page, at
390x844 and at 1024x768, the page must be no wider than the screen (print pages too: they
are read on a screen first); at the phone's size axe-core's rules and the tap-target sizes
must pass. Pages that answer a role with a redirect or a refusal are left to the role that
opens them (the Django client asks first, which is quick)."""

from django.test import Client
from django.urls import reverse

from club.models import Club, Member
from games.models import Match
from tests.browser.helpers import axe_violations, small_targets
from tests.test_every_page import evening_in_play
from tests.test_security_enumerated import kwargs_for, walk

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}


def pages_of(world) -> list[str]:
    urls = [reverse(name, kwargs=kwargs_for(name, keys, world)) for name, _, keys in walk()]
    finished = Match.objects.filter(session=world["last_week"]).order_by("pk").first()
    # A lapsed member's "Erase personal details" page, which asks first (the walk's member
    # is active, whose page only says to mark them as lapsed first).
    leaver = Member.objects.create(
        club=world["club"], name="Lena Leaving", table_name="Lena L", is_active=False
    )
    return [
        *urls,
        reverse("scoring:scoresheet", kwargs={"pk": finished.pk}),
        reverse("club:member_erase", kwargs={"pk": leaver.pk}),
    ]


def opens(client: Client, url: str) -> bool:
    """Whether `url` answers this client with a page of its own (200, HTML)."""
    response = client.get(url)
    return response.status_code == 200 and "text/html" in response.get("Content-Type", "")


def wider_than_the_screen(page, where: str) -> list[str]:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        return [f"{where}: the page is {overflow} px wider than the screen"]
    return []


def look_at(page, url: str, where: str) -> list[str]:
    """Open `url` at the phone's size: axe, tap targets and width; then the tablet's width."""
    page.set_viewport_size(SIZES["phone"])
    page.goto(url)
    found = axe_violations(page, where) + small_targets(page, where)
    found += wider_than_the_screen(page, f"{where} at 390")
    page.set_viewport_size(SIZES["tablet"])
    return found + wider_than_the_screen(page, f"{where} at 1024")


def my_details_refused(page, base: str) -> list[str]:
    """My details with its errors showing (an email that is not one), at both sizes, with a
    screenshot of each in test-results/my-details/."""
    found = []
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(base + reverse("my_details"))
        page.get_by_label("Email").fill("not-an-email")
        page.get_by_role("button", name="Save my details").click()
        page.locator("#id_email_error").wait_for()
        where = f"My details refused at {size}"
        found += axe_violations(page, where) + small_targets(page, where)
        found += wider_than_the_screen(page, where)
        page.screenshot(path=f"test-results/my-details/{size}.png", full_page=True)
    return found


def test_every_page_as_everyone_passes_axe_and_fits_phone_and_tablet(
    live_server, browser, demo_club, settings
):
    settings.CLUB_SIGNUP = True  # the sign-up page, as an installation that offers it shows it
    world = evening_in_play(demo_club)
    demo_club.standings_visibility = Club.Visibility.PUBLIC
    demo_club.save()
    pages = pages_of(world)
    base = live_server.url
    problems: list[str] = []
    looked = 0
    roles = {
        "a visitor": None,
        "a member seated at table 1": world["seated"],
        "a coordinator": world["coordinator"],
    }
    for role, user in roles.items():
        client = Client()
        context = browser.new_context()
        if user is not None:
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}]
            )
        page = context.new_page()
        for url in pages:
            if opens(client, url):
                problems += look_at(page, base + url, f"{url} as {role}")
                looked += 1
        if role == "a member seated at table 1":
            problems += my_details_refused(page, base)
        context.close()

    # Table 1's tablet, opened by its card: the pages a card opens.
    device = browser.new_context().new_page()
    device.goto(f"{base}/t/{world['table_key'].code}/")
    session = world["session"].pk
    for url in [f"/play/{session}/tables/1/", f"/play/{session}/tables/1/full/"]:
        problems += look_at(device, base + url, f"{url} as table 1's card device")
        looked += 1
    assert problems == [], f"{len(problems)} problem(s):\n" + "\n".join(problems)
    assert looked > 60  # the walk really opened the pages
