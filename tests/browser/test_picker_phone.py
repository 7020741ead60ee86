"""The tile picker on a phone and a tablet: the hand being built stays in view while the
lower rows of tiles are tapped, no text on the picker (nor a chart's labels) is smaller than
the body text, every caption fits its tile, and a refusal is in plain words. Screenshots in
test-results/picker/ (the top, after scrolling to the lower rows, a refusal)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Member
from games.start import start_play
from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.demo_club import MEMBER_LOGIN
from tests.factories import MemberFactory, UserFactory
from tests.games.helpers import one_named_table
from tests.scoring.test_picker_words import developer_speak

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "picker"

# Text smaller than the page's body text (1rem), with where it is: every element that shows
# text of its own; an SVG's text at the size it is drawn (its font size times the scale).
SMALL_TEXT = """() => {
  const body = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const small = [];
  for (const el of document.querySelectorAll('main *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest('.visually-hidden')) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    if (size < body - 0.05) small.push(`${el.className.baseVal ?? el.className} "${el.textContent.trim().slice(0, 30)}" ${size.toFixed(1)}px < ${body}px`);
  }
  return small;
}"""
# Tile captions wider than their tile (a word cut off or spilling onto the next tile).
OVERFLOWING = """() => [...document.querySelectorAll('.tile-button')]
  .filter(b => b.scrollWidth > b.clientWidth + 1 || b.querySelector('.face-label').scrollWidth > b.clientWidth)
  .map(b => b.id)"""


def tap(page, label, times=1):
    # One tap at a time, each answered before the next: this file is about words and sizes
    # (taps faster than the answers are tests/browser/test_picker.py's).
    for _ in range(times):
        page.locator(".picker-tiles").get_by_role("button", name=label, exact=True).click()
        expect(page.locator("#picker")).not_to_have_class(re.compile(r"\bhtmx-request\b"))


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    view = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"]


def problems(page, where: str) -> list[str]:
    return [
        *axe_violations(page, where),
        *small_targets(page, where),
        *(f"{where}: small text: {s}" for s in page.evaluate(SMALL_TEXT)),
        *(f"{where}: caption wider than its tile: {s}" for s in page.evaluate(OVERFLOWING)),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_so_far_stays_in_view_while_the_lower_rows_are_tapped(
    live_server, browser, transactional_db, size
):
    user = UserFactory(username="learner")
    MemberFactory(user=user)
    page = browser.new_page(viewport=SIZES[size])
    log_in(page, live_server.url, "learner")
    page.goto(live_server.url + "/scoring/practice/")
    found = problems(page, f"{size} empty")
    summary = page.locator("#picker-summary")
    expect(summary).to_contain_text("0 tiles: no tiles yet")
    page.screenshot(path=SHOTS / f"{size}-1-top.png")

    for label in ["1 Bamboo", "2 Bamboo", "3 Bamboo", "5 Characters", "5 Characters"]:
        tap(page, label)
    expect(summary).to_contain_text("5 tiles: needs 9 more tiles")
    # Half way down the tiles, the summary is stuck to the foot of the screen.
    page.locator("#tap-we").scroll_into_view_if_needed()
    box = summary.bounding_box()
    assert abs(box["y"] + box["height"] - SIZES[size]["height"]) < 2
    page.screenshot(path=SHOTS / f"{size}-2-middle-rows.png")
    # The last row: the summary is on screen, below the tiles being tapped, and follows them.
    seasons = page.get_by_role("group", name="Seasons")
    page.locator("#tap-s4").scroll_into_view_if_needed()
    assert not in_view(page, page.locator("#hand-heading"))  # the hand itself is off screen
    assert in_view(page, summary)
    expect(summary).to_contain_text("5 tiles: needs 9 more tiles")
    tap(page, "Season 3: Autumn")
    tap(page, "Flower 3: Chrysanthemum")
    expect(summary.locator(".tile-flower")).to_have_count(1)  # the answer is in
    expect(summary).to_contain_text("5 tiles: needs 9 more tiles")
    assert in_view(page, summary)
    last = seasons.get_by_role("button").last.bounding_box()
    assert last["y"] + last["height"] <= summary.bounding_box()["y"] + 1  # tiles not covered
    page.screenshot(path=SHOTS / f"{size}-3-lower-rows.png")
    found += problems(page, f"{size} lower rows")

    for label in ["5 Characters", "7 Dots", "8 Dots", "9 Dots", "Red dragon", "Red dragon"]:
        tap(page, label)
    tap(page, "West wind", 3)
    expect(summary).to_contain_text("14 tiles: still to choose how the winning tile came")
    page.get_by_label("Self-drawn from the wall", exact=False).first.check()
    expect(summary).to_contain_text("14 tiles: ")
    expect(summary).to_contain_text("points")
    page.locator("#tap-s4").scroll_into_view_if_needed()
    assert in_view(page, summary)
    page.screenshot(path=SHOTS / f"{size}-4-scored.png")
    found += problems(page, f"{size} scored")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_at_a_table_is_in_plain_words(live_server, browser, transactional_db, size):
    session = one_named_table("classical", ["Ann", "Betty", "Carol", "Dot"])
    start_play(session)
    boss = UserFactory(username="boss")
    from club.roles import make_coordinator

    make_coordinator(boss)
    page = browser.new_page(viewport=SIZES[size])
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/full/")
    tap(page, "West wind", 3)
    page.get_by_role("button", name="Pong of West wind").click()
    summary = page.locator("#picker-summary")
    expect(summary).to_contain_text("3 tiles: needs 11 more tiles")
    preview = page.locator("#picker-preview")
    expect(preview).to_contain_text("The hand has 3 tiles: a winning hand has 14")
    for label in ["1 Bamboo", "2 Bamboo", "4 Bamboo", "7 Dots", "8 Dots", "9 Dots"]:
        tap(page, label)
    tap(page, "5 Characters", 3)
    tap(page, "Red dragon", 2)
    expect(summary).to_contain_text("14 tiles: cannot be scored yet: see The score")
    refusal = preview.locator(".picker-error")
    expect(refusal).to_contain_text("These tiles do not make a winning hand")
    assert not developer_speak(refusal.inner_text())
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".picker-save .error-text")).to_contain_text("Before saving, choose")
    preview.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"{size}-5-refusal.png")
    found = problems(page, f"{size} refusal")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("size", SIZES)
def test_chart_labels_are_never_smaller_than_the_text(live_server, browser, demo_club, size):
    member = Member.objects.get(user__username=MEMBER_LOGIN[0])
    page = browser.new_page(viewport=SIZES[size])
    log_in(page, live_server.url, *MEMBER_LOGIN)
    page.goto(f"{live_server.url}/standings/members/{member.pk}/")
    chart = page.locator(".bar-chart")
    expect(chart).to_be_visible()
    assert chart.locator("rect").count() > 1  # there are bars to label
    shown = chart.locator("text").evaluate_all(
        "ts => ts.filter(t => getComputedStyle(t).display !== 'none').length"
    )
    assert shown > 0 if size == "tablet" else shown == 0  # a phone has the table for figures
    expect(page.get_by_role("table", name="result each session")).to_be_visible()
    chart.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"{size}-6-chart.png")
    small = page.evaluate(SMALL_TEXT)
    assert not small, small
    overlapping = chart.locator("text").evaluate_all("""ts => {
      const boxes = ts.filter(t => getComputedStyle(t).display !== 'none')
        .map(t => [t.textContent, t.getBoundingClientRect()]);
      const hits = [];
      for (const [i, [a, p]] of boxes.entries())
        for (const [b, q] of boxes.slice(i + 1))
          if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
            hits.push(`${a} / ${b}`);
      return hits;
    }""")
    assert not overlapping, overlapping
