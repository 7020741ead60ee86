"""The tile picker in a real browser (strict CSP on): tapping out a full hand on a tablet and
seeing its itemised score before saving it, and building a hand with the keyboard only."""

import pytest
from playwright.sync_api import expect

from club.roles import make_coordinator
from games.start import start_play
from scoring.engine import score
from scoring.models import Hand
from scoring.picker_words import item_in_words
from tests.browser.helpers import focus_by_tab, log_in
from tests.factories import MemberFactory, UserFactory
from tests.games.helpers import one_named_table

TABLET = {"width": 1024, "height": 768}
NAMES = ["Ann", "Betty", "Carol", "Dot"]
CONTRACT_HAND = {
    "tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
    "melds": [{"tiles": "ww ww ww", "concealed": False}],
    "winning_tile": "d9",
    "won_by": "discard",
    "discarder": "N",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "bonus": "f2 s3",
}


def tap(page, label, times=1):
    tiles = page.locator(".picker-tiles")
    for _ in range(times):
        tiles.get_by_role("button", name=label, exact=True).click()


@pytest.fixture
def table(transactional_db):
    session = one_named_table("classical", NAMES)
    start_play(session)
    boss = UserFactory(username="boss")
    make_coordinator(boss)
    return session


def test_tap_out_a_full_hand_on_a_tablet_and_see_its_score_before_saving(
    live_server, browser, table
):
    page = browser.new_page(viewport=TABLET)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{table.pk}/tables/1/")
    page.get_by_role("link", name="Work out the score from the tiles").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("work out the score of hand 1")

    tap(page, "West wind", 3)
    page.get_by_role("button", name="Pong of West wind").click()
    expect(page.locator(".meld-list")).to_contain_text("Exposed pong of West wind")
    for label in ["1 Bamboo", "2 Bamboo", "3 Bamboo", "7 Dots", "8 Dots", "9 Dots"]:
        tap(page, label)
    tap(page, "5 Characters", 3)  # quickly, one after another: none is lost
    tap(page, "Red dragon", 2)
    tap(page, "Flower 2: Orchid")
    tap(page, "Season 3: Autumn")
    expect(page.locator("#hand-heading")).to_contain_text("14 tiles")
    page.get_by_role("group", name="Which tile completed the hand?").get_by_role(
        "button", name="9 Dots"
    ).click()
    how = page.locator(".picker-how")
    how.get_by_role("group", name="Who won?").get_by_label("Betty", exact=False).check()
    expect(page.locator(".still-to-choose")).to_contain_text("how the winning tile came")
    how.get_by_label("On a discard").check()
    how.get_by_role("group", name="Who discarded").get_by_label("Dot", exact=False).check()

    expected = score({**CONTRACT_HAND, "dealer": "E"}, "classical")
    preview = page.locator("#picker-preview")
    expect(preview.locator(".breakdown-total")).to_have_text("136 points")
    for item in expected.breakdown:
        expect(preview).to_contain_text(item_in_words(item.name))
    expect(preview).to_contain_text("Betty receives 272")
    expect(preview).to_contain_text("Dot pays 272")
    assert not Hand.objects.exists()  # seen before saving

    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    expect(page.get_by_text("Hand 1 saved: Betty won on Dot's discard, 136 points")).to_be_visible()
    hand = Hand.objects.get()
    assert hand.entry == "full" and hand.payments[:4] == [0, 272, 0, -272]
    assert not [e for e in errors if "Content Security Policy" in e]


def test_the_picker_works_with_the_keyboard_alone(live_server, browser, transactional_db):
    user = UserFactory(username="learner")
    MemberFactory(user=user)
    page = browser.new_page(viewport=TABLET)
    log_in(page, live_server.url, "learner")
    page.goto(live_server.url + "/scoring/practice/")
    hand = ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "c2", "c3", "c4", "dr", "dr"]
    for count, code in enumerate(hand, start=1):
        focus_by_tab(page, f"tap-{code}")
        page.keyboard.press("Enter")
        expect(page.locator("#hand-heading")).to_contain_text(f": {count} tile")
        # The tile tapped keeps the focus after the swap, so tapping it again is one key.
        expect(page.locator(f"#tap-{code}")).to_be_focused()
    expect(page.locator("#hand-heading")).to_contain_text("14 tiles")
    # Undo with the keyboard, then put the tile back with the space bar.
    focus_by_tab(page, "picker-undo")
    page.keyboard.press("Enter")
    expect(page.locator("#hand-heading")).to_contain_text("13 tiles")
    focus_by_tab(page, "tap-dr")
    page.keyboard.press("Space")
    expect(page.locator("#hand-heading")).to_contain_text("14 tiles")
    # How it was won: a radio group, reached by Tab and chosen with the space bar.
    focus_by_tab(page, "id_won_by_0")
    page.keyboard.press("Space")
    preview = page.locator("#picker-preview")
    expect(preview.locator(".breakdown-total")).to_be_visible()
    expected = score(
        {
            "tiles": " ".join(hand),
            "winning_tile": "dr",
            "won_by": "wall",
            "seat_wind": "E",
            "prevailing_wind": "E",
        },
        "classical",
    )
    expect(preview.locator(".breakdown-total")).to_contain_text(f"{expected.total} points")


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_a_tap_pressed_before_an_answer_and_released_after_it_still_counts(
    live_server, browser, transactional_db, pointer
):
    """A fast tapper presses the next tile while the last tap's answer is on its way; the
    answer replaces the buttons under the finger, and the browser then makes no click at
    all. The tap must still count, once (it was lost in CI and on real tablets)."""
    user = UserFactory(username="learner")
    MemberFactory(user=user)
    context = browser.new_context(viewport=TABLET, has_touch=pointer == "touch")
    page = context.new_page()
    log_in(page, live_server.url, "learner")
    page.goto(live_server.url + "/scoring/practice/")
    # Each answer takes 400 ms more, so the press surely lands before it and the release after.
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    heading = page.locator("#hand-heading")
    box = page.locator("#tap-b2").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.locator("#tap-b1").click()
    if pointer == "touch":
        page.locator("#tap-b2").dispatch_event("pointerdown", {"pointerType": "touch"})
    else:
        page.mouse.move(x, y)
        page.mouse.down()
    expect(heading).to_contain_text(": 1 tile")  # the answer came while pressed
    if pointer == "touch":
        page.locator("#tap-b2").dispatch_event("pointerup", {"pointerType": "touch"})
    else:
        page.mouse.up()
    expect(heading).to_contain_text(": 2 tiles")
    expect(page.locator(".hand-words")).to_have_text("Bamboo 1, 2")
    page.wait_for_timeout(1000)  # and no second copy of it arrives later
    expect(heading).to_contain_text(": 2 tiles")
    context.close()
