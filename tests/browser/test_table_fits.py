"""The table page at hand 1 and at hand 30, on a tablet and on a phone: the current hand,
who deals, the tallies and the whole quick-entry form down to Save are in the first screen
without scrolling, whatever the number of hands played; a quick win is a handful of taps;
after a save, "Hand N saved" is in view beside the next form's Save.

Run with -s to print the figures (docs/measurements.md quotes them). Screenshots of each step are
left in test-results/table-fits/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Match
from games.start import start_play
from scoring import recording
from scoring.engine.rulesets.base import RuleSet
from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.factories import UserFactory
from tests.games.helpers import one_named_table, seated_members

pytestmark = pytest.mark.skipif(
    not hasattr(RuleSet, "check_total"), reason="the engine's RuleSet.check_total is not merged"
)
SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
NAMES = ["Ann", "Betty", "Queenie", "Dot"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "table-fits"

BOX = "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }"


def play_hands(match: Match, hands: int) -> None:
    """`hands` hands recorded, as an evening goes: the dealer wins two in three (keeping
    the deal, so the match is still on at hand 30), a draw now and then, kong chips."""
    for number in range(1, hands + 1):
        state = match.replay()[-1]
        if number % 7 == 0:
            recording.record_draw(match, number)
            continue
        if number % 5 == 0:
            recording.record_kong(match, number, state.dealer, "concealed")
        winner = state.dealer if number % 3 else (state.dealer + 1) % 4
        win = recording.Win(winner, "wall", None, 8 + number % 10)
        recording.record_win(match, number, win)
        match.refresh_from_db()


@pytest.fixture
def table_at(live_server, browser):
    """A function: the table page of a match `played` hands in, on a device of `size`,
    logged in as Ann (who sits there)."""

    def open_table(size: str, played: int, names=NAMES, rules="u3a"):
        session = one_named_table(rules, names)
        start_play(session)
        ann = seated_members(session, 1)[0]
        ann.user = UserFactory(username="ann")
        ann.save()
        match = Match.objects.get(session=session)
        play_hands(match, played)
        page = log_in(browser.new_page(viewport=SIZES[size]), live_server.url, "ann")
        page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
        return page, match

    return open_table


def box(locator) -> tuple[float, float]:
    return tuple(locator.evaluate(BOX))


def expect_in_first_screen(page, what: str, locator, height: int) -> float:
    """`locator` (every element it finds) lies wholly within the screen; its bottom edge."""
    expect(locator.first).to_be_visible()
    bottoms = []
    for element in locator.all():
        top, bottom = box(element)
        assert top >= 0 and bottom <= height + 1, (  # 1 px: scrolling lands on fractions
            f"{what} is at {top:.0f}-{bottom:.0f} px, outside the first screen (0-{height} px)"
        )
        bottoms.append(bottom)
    assert bottoms, f"no {what} on the page"
    return max(bottoms)


@pytest.mark.parametrize("played", [0, 29], ids=["hand-1", "hand-30"])
@pytest.mark.parametrize("size", SIZES)
def test_the_form_is_in_the_first_screen_whatever_the_hands_played(table_at, size, played):
    page, match = table_at(size, played)
    hand = played + 1
    height = SIZES[size]["height"]
    form = page.locator("#win-form")
    expect(page.locator(".board-hand")).to_have_text(f"Hand {hand}")
    assert page.evaluate("window.scrollY") == 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"{size}-hand-{hand}"
    page.screenshot(path=f"{shot}-1-open.png")
    problems = axe_violations(page, "open") + small_targets(page, "open")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the screen"

    # Everything needed to record the hand, on the first screen, the page not scrolled.
    parts = {
        "the current hand": page.locator(".board-hand"),
        "who deals": page.locator(".board-line", has_text="deals"),
        "the tallies": page.locator(".seat-tally"),
        "the winner buttons": form.get_by_role("group", name="Who won?"),
        "how it was won": form.get_by_role("group", name="How?"),
        "the total": form.get_by_label("Total the table agreed (points)"),
        "Save": form.get_by_role("button", name=f"Save hand {hand}"),
    }
    bottoms = {what: expect_in_first_screen(page, what, at, height) for what, at in parts.items()}

    # A win on a discard asks one more question, below "How?": it and Save are in view (on
    # a phone the page moves up by itself, by less than the site's header).
    taps = 0
    winner = match.replay()[-1].dealer
    form.get_by_role("group", name="Who won?").get_by_role("radio").nth(winner).click()
    form.get_by_label("On a discard").click()
    who_paid = form.get_by_role("group", name="Who discarded")
    expect(who_paid).to_be_visible()
    expect_in_first_screen(page, "the discarder buttons", who_paid, height)
    who_paid.get_by_role("radio").nth((winner + 1) % 4).click()
    total = form.get_by_label("Total the table agreed (points)")
    total.click()
    total.press_sequentially("12")
    taps += 4
    expect(page.locator("#preview")).to_contain_text("receives")
    save = form.get_by_role("button", name=f"Save hand {hand}")
    scrolled = page.evaluate("window.scrollY")
    header = page.locator(".site-header").evaluate("el => el.offsetHeight")
    assert scrolled < header, f"the page moved {scrolled} px to show the discarder and Save"
    expect_in_first_screen(page, "who won", form.get_by_role("group", name="Who won?"), height)
    discard_save = expect_in_first_screen(page, "Save, after a win on a discard", save, height)
    page.screenshot(path=f"{shot}-2-entered.png")
    save.click()
    taps += 1

    # The answer: in view, beside the next hand's form.
    answer = page.get_by_role("status").filter(has_text=f"Hand {hand} saved")
    expect(answer).to_be_visible()
    expect(page.locator(".board-hand")).to_have_text(f"Hand {hand + 1}")
    top, bottom = box(answer)
    assert top >= 0 and bottom <= height, f"the answer is at {top:.0f}-{bottom:.0f} px"
    page.screenshot(path=f"{shot}-3-saved.png")
    problems += axe_violations(page, "saved") + small_targets(page, "saved")
    assert problems == [], "\n".join(problems)
    next_save = form.get_by_role("button", name=f"Save hand {hand + 1}")
    save_top, _ = box(next_save)

    print(
        f"\n{size} {SIZES[size]['width']}x{height}, hand {hand}: Save's bottom edge at "
        f"{bottoms['Save']:.0f} px = {bottoms['Save'] / height:.2f} screen heights "
        f"({discard_save:.0f} px with the discarder asked, the page moved up {scrolled} px by "
        f"itself); a win on a discard took {taps} taps (+ the digits); after the save the answer "
        f"is at {top:.0f}-{bottom:.0f} px, {save_top - bottom:.0f} px above the next Save."
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_table_of_five_fits_too(table_at, size):
    """Five cards on the scoreboard (one sits out), four player buttons: every card's
    words and tally inside the card, nothing wider than the screen, the form in view."""
    page, _ = table_at(size, 0, [*NAMES, "Maud"])
    height = SIZES[size]["height"]
    expect(page.locator(".seat-card")).to_have_count(5)
    expect(page.locator(".seat-card.sits-out")).to_have_count(1)
    inside = page.locator(".seat-card").evaluate_all(
        """cards => cards.flatMap(card => {
            const c = card.getBoundingClientRect();
            return [...card.querySelectorAll(".seat-name, .seat-wind, .seat-tally")]
              .filter(part => part.offsetWidth > 1)
              .map(part => [card.textContent.trim().replace(/\\s+/g, " "), part.getBoundingClientRect()])
              .filter(([, p]) => p.left < c.left || p.right > c.right + 0.5 || p.bottom > c.bottom + 0.5)
              .map(([name]) => name);
        })"""
    )
    assert inside == [], f"spilling out of their cards: {inside}"
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    form = page.locator("#win-form")
    expect(form.get_by_role("group", name="Who won?").get_by_role("radio")).to_have_count(4)
    expect_in_first_screen(page, "Save", form.get_by_role("button", name="Save hand 1"), height)


PAST_THE_RIGHT_EDGE = (
    "() => [...document.querySelectorAll('main *')]"
    ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
    ".map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30))"
)


def test_nothing_is_wider_than_the_screen_between_phone_and_tablet(table_at):
    """Tablets held upright and small tablets (768 to 900 px): every part of the table page,
    the "How?" choices with "Robbing a kong" included, stays within the screen's width."""
    page, _ = table_at("tablet", 3)
    for width in (768, 800, 900, 1024):
        page.set_viewport_size({"width": width, "height": 1280})
        wider = page.evaluate(PAST_THE_RIGHT_EDGE)
        assert wider == [], f"at {width} px wide: {wider[:5]}"


def test_a_long_refusal_beside_the_total_wraps_at_every_size(table_at):
    """The longest answers are refusals of a total (the rule set's smallest score, with its
    reason): beside the total box they wrap within the screen, from a phone to a tablet."""
    page, _ = table_at("tablet", 0, rules="classical")
    form = page.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label("Ann", exact=False).check()
    form.get_by_label("Self-drawn from the wall").check()
    form.get_by_label("Total the table agreed (points)").fill("4")
    form.get_by_role("button", name="Save hand 1").click()
    refusal = page.get_by_text("below the smallest classical score")
    expect(refusal).to_be_visible()
    for width in (390, 600, 768, 1024, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        wider = page.evaluate(PAST_THE_RIGHT_EDGE)
        assert wider == [], f"at {width} px wide: {wider[:5]}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"refusal-at-{width}.png"))
