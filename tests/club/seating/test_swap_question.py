"""The question a swap asks when it brings back last week's pairs: the suggested swap, the
swap "anyway" and "Do not swap" are separate buttons in plain words, and pressing Publish
while the question is open publishes nothing and asks it again (nothing lost). Without
JavaScript here; tests/browser/test_seating_ux.py does the same in Chromium."""

import html as html_lib
import re

import pytest
from django.urls import reverse

from club.models import Seat, SeatingPlan
from club.seating import planner
from club.seating.changes import swap_members
from club.seating.load import saved_seating
from club.seating.planner import SeatingError
from tests.club.seating.helpers import latin_room, snapshot

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, session):
    return reverse(f"club:{name}", args=[session.pk])


def publish_form(html: str) -> dict[str, str]:
    """What the page's Publish button posts: its form's hidden fields."""
    form = re.search(r'<form[^>]*action="[^"]*/publish/"[^>]*>(.*?)</form>', html, re.S).group(1)
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }


def buttons(html: str) -> list[str]:
    """The buttons of the answer beside the control that asked (the open question)."""
    answer = html[html.index('id="answer"') :]
    answer = answer[: answer.index("</section>")]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", b).split())
        for b in re.findall(r'<button type="submit"[^>]*>(.*?)</button>', answer, re.S)
    ]


@pytest.mark.django_db
def test_the_planner_suggests_a_swap_that_brings_back_nobody(club):
    groups, session = latin_room(club)
    seating = saved_seating(SeatingPlan.objects.get(session=session))
    a, b = groups[0][0], groups[1][1]  # table 1 and table 2
    assert planner.suggest_swap(seating, a.pk, b.pk) == (a.pk, groups[0][1].pk)
    after = planner.swap(seating, a.pk, groups[0][1].pk)
    assert planner.last_week_pairs_made(seating, after) == []
    assert planner.suggest_swap(seating, a.pk, groups[1][0].pk) is None  # same table


@pytest.mark.django_db
def test_the_question_has_the_suggestion_the_override_and_no_as_separate_buttons(
    coordinator_client, club
):
    groups, session = latin_room(club)
    a, b, instead = groups[0][0], groups[1][1], groups[0][1]
    before = snapshot(session)
    html = coordinator_client.post(url("seating_swap", session), {"a": a.pk, "b": b.pk}).content
    html = html.decode()
    assert buttons(html) == [
        f"Do the suggested swap: {a.table_name} and {instead.table_name}",
        f"Swap {a.table_name} and {b.table_name} anyway",
        "Do not swap",
    ]
    assert "Suggested: Swap" not in " ".join(buttons(html))
    assert (
        f"Swapping {a.table_name} and {instead.table_name} instead still moves {a.table_name} "
        "to table 2, and seats nobody with someone from last week." in html
    )
    assert snapshot(session) == before

    html = coordinator_client.post(
        url("seating_swap", session),
        {"a": a.pk, "b": b.pk, "choice": f"pair-{a.pk}-{instead.pk}"},
        **HTMX,
    ).content.decode()
    assert f"{a.table_name} now sits at table 2 and {instead.table_name} at table 1" in html
    assert (
        Seat.objects.get(plan__session=session, member=b).table.number == 2
    )  # b stays where they were


@pytest.mark.django_db
def test_a_suggestion_no_longer_on_offer_is_refused_in_plain_words(club):
    groups, session = latin_room(club)
    a, b = groups[0][0], groups[1][1]
    with pytest.raises(SeatingError, match="no longer available"):
        swap_members(session, a, b, f"pair-{a.pk}-{groups[2][1].pk}")


@pytest.mark.django_db
def test_the_reroll_question_suggests_nothing(coordinator_client, club):
    groups, session = latin_room(club)
    SeatingPlan.objects.filter(session=session).update(changed_by_hand=True)
    html = coordinator_client.post(url("seating_reroll", session), **HTMX).content.decode()
    assert buttons(html) == ["Re-roll anyway", "Keep this seating"]
    assert "Suggested" not in html[html.index('id="answer"') :]


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["without JavaScript", "with htmx"])
def test_publish_with_a_swap_waiting_publishes_nothing_and_asks_again(
    coordinator_client, club, htmx
):
    groups, session = latin_room(club)
    a, b = groups[0][0], groups[1][1]
    extra = HTMX if htmx else {}
    before = snapshot(session)
    html = coordinator_client.post(
        url("seating_swap", session), {"a": a.pk, "b": b.pk, "answer_at": "swap"}, **extra
    ).content.decode()
    assert "You have a swap of" in html and "answer it before you publish" in html
    posted = publish_form(html)
    assert posted == {
        "pending": "club:seating_swap",
        "answer_at": "swap",
        "a": str(a.pk),
        "b": str(b.pk),
    }

    response = coordinator_client.post(url("seating_publish", session), posted, **extra)
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        f"Not published yet: you have a swap of {a.table_name} and {b.table_name} waiting "
        "for an answer. Answer the question below, then press Publish." in html
    )
    assert f"Swap {a.table_name} and {b.table_name} anyway" in buttons(html)
    plan = SeatingPlan.objects.get(session=session)
    assert plan.status == SeatingPlan.Status.DRAFT and snapshot(session) == before

    # The answer still works, and then Publish does.
    coordinator_client.post(
        url("seating_swap", session), {"a": a.pk, "b": b.pk, "choice": "confirm"}, **extra
    )
    assert Seat.objects.get(plan__session=session, member=a).table.number == 2
    html = coordinator_client.post(url("seating_publish", session), **extra).content.decode()
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.PUBLISHED


@pytest.mark.django_db
def test_publish_with_a_question_that_no_longer_applies_says_look_again(coordinator_client, club):
    groups, session = latin_room(club)
    a, b = groups[0][0], groups[1][1]
    Seat.objects.filter(plan__session=session, member=b).delete()  # b left the plan meanwhile
    response = coordinator_client.post(
        url("seating_publish", session),
        {"pending": "club:seating_swap", "a": a.pk, "b": b.pk},
        **HTMX,
    )
    html = response.content.decode()
    assert "Not published yet: the seating changed while a question was open" in html
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.DRAFT


@pytest.mark.django_db
def test_publish_with_a_reroll_waiting_asks_again(coordinator_client, club):
    groups, session = latin_room(club)
    SeatingPlan.objects.filter(session=session).update(changed_by_hand=True)
    html = coordinator_client.post(url("seating_reroll", session), **HTMX).content.decode()
    posted = publish_form(html)
    assert posted["pending"] == "club:seating_reroll"
    html = coordinator_client.post(url("seating_publish", session), posted, **HTMX)
    html = html.content.decode()
    assert "Not published yet: you have a re-roll waiting for an answer" in html
    assert "Re-roll anyway" in buttons(html)
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.DRAFT
