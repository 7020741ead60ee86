"""Outbox benchmark: how long the table page takes to send 30 hands that waited offline.

Run from the repository root:  make outbox-bench  (or: python bench/outbox_bench.py)

A u3a table of four in Chromium at the live test server (SQLite, or DATABASE_URL): the
device goes offline, 30 hands are entered (wins, mostly the dealer's; every fifth a draw),
the device comes back online, and the clock runs from the connection's return until the
page says everything has been sent. Each hand is one request answered with the table's
part of the page (the server's board replaces the device's after each), one at a time, in
order. Printed: the total, per hand, and what the server then holds. A figure, not a test:
nothing here fails on time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HANDS = 30
WINNERS = ["Ann", "Betty", "Carol", "Dot"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, as the browser tests launch it (tests/browser/conftest.py)."""
    from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS

    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.mark.django_db(transaction=True)
def test_drain_30_hands(live_server, browser):
    from playwright.sync_api import expect

    from club.roles import make_coordinator
    from games.models import Match
    from games.start import start_play
    from scoring.models import SentWrite
    from tests.browser.helpers import log_in
    from tests.factories import UserFactory
    from tests.games.helpers import one_named_table

    session = one_named_table("u3a", WINNERS)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    page = log_in(
        browser.new_page(viewport={"width": 1024, "height": 768}), live_server.url, "boss"
    )
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    expect(page.locator("html")).to_have_attribute("data-outbox", "on")
    page.context.set_offline(True)
    started = time.perf_counter()
    for hand in range(1, HANDS + 1):
        if hand % 5 == 0:
            page.get_by_role("button", name=f"Record a draw for hand {hand}").click()
        else:
            form = page.locator("#win-form")
            # Mostly the dealer (who keeps the deal), so 30 hands fit in the match's 4 rounds.
            dealer = page.locator(".seat-card.is-dealer .seat-name").inner_text().strip()
            who = WINNERS[(WINNERS.index(dealer) + 1) % 4] if hand % 4 == 0 else dealer
            form.get_by_role("group", name="Who won?").get_by_label(who, exact=False).check()
            form.get_by_label("Self-drawn from the wall").check()
            form.get_by_label("Total the table agreed (points)").fill(str(8 + hand % 7))
            form.get_by_role("button", name=f"Save hand {hand}").click()
        expect(page.locator(".board-hand")).to_have_text(f"Hand {hand + 1}")
    entered = time.perf_counter() - started
    expect(page.locator("#outbox-notice .outbox-count")).to_have_text(
        f"{HANDS} hands waiting to be sent"
    )

    started = time.perf_counter()
    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text(
        "Everything waiting has been sent", timeout=120_000
    )
    drained = time.perf_counter() - started
    match = Match.objects.get(session=session)
    live = match.live_hands().count()
    keys = SentWrite.objects.filter(match=match).count()
    print()
    print(f"outbox bench: {HANDS} hands entered offline in {entered:.1f} s (Playwright typing)")
    print(
        f"outbox bench: drained {HANDS} hands in {drained:.2f} s "
        f"({drained / HANDS * 1000:.0f} ms a hand, one request each, in order)"
    )
    print(f"outbox bench: the server holds {live} live hands and {keys} keys (want {HANDS} each)")
    assert live == HANDS and keys == HANDS  # the figures are about a drain that did its job
    page.close()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(
        pytest.main(
            [
                __file__,
                "-q",
                "-s",
                "-p",
                "no:randomly",
                "-n",
                "0",
                "-p",
                "tests.conftest",
                "--rootdir",
                str(ROOT),
            ]
        )
    )
