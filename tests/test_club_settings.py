"""Club settings: name, rule set with its options, starting tally, seating preferences."""

import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import Club
from front.forms import ClubSettingsForm
from scoring.engine import RULESET_NAMES, EngineError, get_ruleset
from scoring.rules import club_options, validate_club_rules
from tests.htmx_requests import longest_request_lines, too_long


def settings_post(club: Club, **changes) -> dict:
    ruleset = get_ruleset(changes.get("rule_set", club.rule_set))
    data = {
        "name": club.name,
        "rule_set": club.rule_set,
        "starting_tally": "",
        "odd_tables": club.odd_tables,
        "spread_beginners": "on",
        "sessions_begin": f"{club.sessions_begin:%H:%M}",
        "sessions_end": f"{club.sessions_end:%H:%M}",
    }
    for key, default in ruleset.option_defaults.items():
        if not isinstance(default, bool):
            data[f"option_{key}"] = str(default)
        elif default:
            data[f"option_{key}"] = "on"
    for key, default in ruleset.value_defaults.items():
        data[f"value_{key}"] = str(default)
    data.update(changes)
    return data


def test_settings_page_shows_the_rule_sets_options(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert 'name="option_limit"' in page
    assert 'value="2000"' in page


def test_coordinator_saves_name_rules_and_a_changed_option(coordinator_client, club):
    data = settings_post(club, name="Thursday Tiles", option_limit="1000", starting_tally="1500")
    response = coordinator_client.post(reverse("club_settings"), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Thursday Tiles"
    assert club.rule_options == {"limit": 1000}
    assert club.rule_values == {}
    assert club.effective_starting_tally == 1500


def test_switching_rule_set_stores_only_that_rule_sets_overrides(coordinator_client, club):
    club.rule_options = {"limit": 1000}
    club.save()
    data = settings_post(club, rule_set="u3a", option_min_points="5", confirm_rule_set="u3a")
    response = coordinator_client.post(reverse("club_settings"), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.rule_set == "u3a"
    assert club.rule_options == {"min_points": 5}
    assert club.effective_starting_tally == 0


def test_a_changed_table_value_is_stored_as_an_override(coordinator_client, club):
    ruleset = get_ruleset("classical")
    key, default = next(
        (k, v) for k, v in ruleset.value_defaults.items() if not isinstance(v, bool)
    )
    data = settings_post(club, **{f"value_{key}": str(default + 1)})
    assert coordinator_client.post(reverse("club_settings"), data).status_code == 302
    club.refresh_from_db()
    assert club.rule_values == {key: default + 1}


def test_bad_input_is_named_and_entries_are_kept(coordinator_client, club):
    data = settings_post(club, name="Kept Name", option_limit="lots")
    response = coordinator_client.post(reverse("club_settings"), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Enter a whole number" in page
    assert 'value="Kept Name"' in page
    assert 'value="lots"' in page
    club.refresh_from_db()
    assert club.name != "Kept Name"


def test_an_option_the_engine_rejects_is_explained(coordinator_client, club):
    data = settings_post(club, option_limit="-5")
    response = coordinator_client.post(reverse("club_settings"), data)
    assert response.status_code == 200
    assert "limit" in response.content.decode().lower()
    club.refresh_from_db()
    assert club.rule_options == {}


def test_choosing_a_rule_set_swaps_in_its_options_with_htmx(coordinator_client, club):
    response = coordinator_client.get(
        reverse("club_settings"), {"rule_set": "hk", "name": "x"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<fieldset id="rule-options"')
    assert 'name="option_min_faan"' in page
    assert 'name="option_limit"' not in page


def test_per_hand_options_are_not_club_settings(coordinator_client, club):
    club.rule_set = "u3a"
    club.save()
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert 'name="option_min_points"' in page
    assert 'name="option_goulash"' not in page
    assert 'name="option_players"' not in page


def test_table_values_have_readable_labels(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert "Mahjong · wall · points" in page


def test_rule_set_choices_and_starting_tallies_come_from_the_engine(club):
    choices = dict(ClubSettingsForm(instance=club).fields["rule_set"].choices)
    assert choices == {name: get_ruleset(name).title for name in RULESET_NAMES}
    for name in RULESET_NAMES:
        club.rule_set = name
        assert club.effective_starting_tally == get_ruleset(name).starting_tally
    assert get_ruleset("classical").starting_tally == 2000


@pytest.mark.parametrize(
    ("rule_set", "options", "values", "message"),
    [
        ("u3a", {"goulash": True}, {}, "goulash of the u3a rules is chosen for each hand"),
        ("fan", {"liable": "E"}, {}, "liable of the fan rules is chosen for each hand"),
        ("hk", {"min_faan": 11}, {}, "Option min_faan (11) is above max_faan (10)"),
        ("classical", {"limit": 0}, {}, "Option limit must be from 10 to 100,000 points, not 0."),
        ("classical", {}, {"pong.minor.points": 3}, "Unknown value 'pong.minor.points'"),
    ],
)
def test_one_check_of_a_clubs_rule_settings(rule_set, options, values, message):
    with pytest.raises(ValidationError) as error:
        validate_club_rules(rule_set, options, values)
    assert message in " ".join(error.value.messages)


def test_admin_refuses_a_per_hand_option_as_a_club_setting(admin_client, club):
    url = reverse("admin:club_club_change", args=[club.pk])
    data = {
        "name": club.name,
        "rule_set": "u3a",
        "rule_options": '{"goulash": true}',
        "rule_values": "{}",
        "starting_tally": "",
        "odd_tables": club.odd_tables,
        "spread_beginners": "on",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "is chosen for each hand" in response.content.decode()
    club.refresh_from_db()
    assert club.rule_options == {}


def test_the_reported_limit_of_ten_to_the_thirty_is_refused_beside_the_field(
    coordinator_client, club
):
    data = settings_post(club, name="Kept Name", option_limit=str(10**30))
    response = coordinator_client.post(reverse("club_settings"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "The limit must be from 10 to 100,000 points." in page
    assert f'value="{10**30}"' in page and 'value="Kept Name"' in page
    club.refresh_from_db()
    assert club.rule_options == {} and club.name != "Kept Name"


def _numeric_settings(rule_set):
    """(field name, lowest, highest) of every whole-number option and table value."""
    ruleset = get_ruleset(rule_set)
    fields = []
    for key, default in ruleset.club_options.items():
        if not isinstance(default, bool):
            low, high = ruleset.option_ranges[key]
            fields.append((f"option_{key}", low, high))
    for key, (low, high, _) in ruleset.value_ranges.items():
        fields.append((f"value_{key}", low, high))
    return fields


@pytest.mark.parametrize("rule_set", RULESET_NAMES)
def test_every_number_in_the_settings_refuses_a_value_out_of_its_range(club, rule_set):
    """Every option and table value of every rule set, below and above its range and
    absurdly large: refused on that field alone, with the range in words."""
    club.rule_set = rule_set
    for name, low, high in _numeric_settings(rule_set):
        for wrong in (low - 1, high + 1, 10**30):
            form = ClubSettingsForm(settings_post(club, **{name: str(wrong)}), instance=club)
            assert not form.is_valid()
            assert list(form.errors) == [name], (name, wrong, form.errors)
            message = form.errors[name][0]
            assert f"{high:,}" in message and "must be" in message, message


@pytest.mark.parametrize("rule_set", RULESET_NAMES)
def test_every_number_in_the_settings_takes_the_ends_of_its_range(club, rule_set):
    club.rule_set = rule_set
    ruleset = get_ruleset(rule_set)
    for name, low, high in _numeric_settings(rule_set):
        for right in (low, high):
            data = settings_post(club, **{name: str(right)})
            # The minimum is never above the limit, whichever is at an end of its range.
            if ruleset.minimum_option and name != f"option_{ruleset.minimum_option}":
                data[f"option_{ruleset.minimum_option}"] = "0"
            elif ruleset.limit_option:
                data[f"option_{ruleset.limit_option}"] = ruleset.option_ranges[
                    ruleset.limit_option
                ][1]
            form = ClubSettingsForm(data, instance=club)
            assert form.is_valid(), (name, right, form.errors)


def test_a_refused_table_value_is_shown_beside_its_field_with_the_entry_kept(
    coordinator_client, club
):
    data = settings_post(club, name="Kept Name", **{"value_mahjong.points": "-1000"})
    response = coordinator_client.post(reverse("club_settings"), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "<details open>" in page  # the scoring table opens to show the message
    assert "This value must be from 0 to 1,000 points." in page
    assert 'value="-1000"' in page and 'value="Kept Name"' in page
    club.refresh_from_db()
    assert club.rule_values == {} and club.name != "Kept Name"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("starting_tally", "-1", "The starting tally must be between 0 and 1,000,000 points."),
        ("starting_tally", str(10**30), "between 0 and 1,000,000 points"),
        ("starting_tally", "²", "Enter a whole number."),
        (
            "min_sessions",
            str(10**30),
            "The sessions needed to be ranked must be between 0 and 366.",
        ),
        ("min_sessions", "-1", "between 0 and 366"),
        ("table_money", "1000", "The table money must be between £0 and £100."),
    ],
)
def test_the_clubs_own_numbers_are_refused_outside_their_range(club, field, value, message):
    data = settings_post(club, **{field: value})
    if field == "table_money":
        data["collects_table_money"] = "on"
    form = ClubSettingsForm(data, instance=club)
    assert not form.is_valid()
    assert list(form.errors) == [field]
    assert message in form.errors[field][0]


@pytest.mark.parametrize(
    ("field", "value"),
    [("starting_tally", -1), ("starting_tally", 1_000_001), ("min_sessions", 367)]
    + [("table_money", Decimal("100.01"))],
)
def test_the_database_holds_the_clubs_numbers_in_range(club, field, value):
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.filter(pk=club.pk).update(**{field: value})


def test_rule_settings_saved_before_the_ranges_go_back_to_the_usual_values(club):
    """A club that saved a limit of 10^30 (and Mahjong at -1000 points) before the ranges
    would have its rules refused on every page: the migration puts such settings back."""
    from importlib import import_module

    from django.apps import apps

    from scoring.rules import club_ruleset

    migration = import_module("club.migrations.0010_club_rule_settings_back_in_range")
    Club.objects.filter(pk=club.pk).update(
        rule_set="classical",
        rule_options={"limit": 10**30},
        rule_values={"mahjong.points": -1000, "mahjong.wall.points": 4},
    )
    club.refresh_from_db()
    with pytest.raises(EngineError):
        club_ruleset(club)
    migration.settings_back_in_range(apps, None)
    club.refresh_from_db()
    assert club.rule_options == {}
    assert club.rule_values == {"mahjong.wall.points": 4}  # a good setting is kept
    assert club_ruleset(club).values["mahjong.points"] == 20


# --- changing the rule set -----------------------------------------------------------------

RULE_SET_PAIRS = [(old, new) for old in RULESET_NAMES for new in RULESET_NAMES if old != new]


def as_the_page_shows(club: Club, **changes) -> dict:
    """The settings form as the browser posts it after the coordinator picked another rule
    set in the list: the option fields are still those the page showed, the OLD rule set's
    (no JavaScript, or before the options were swapped)."""
    data = settings_post(club)
    data.update(changes)
    return data


@pytest.mark.parametrize(("old", "new"), RULE_SET_PAIRS)
def test_the_first_save_after_switching_rule_set_succeeds(coordinator_client, club, old, new):
    """Reported: "This field is required" on the first save after switching, because the
    new rule set's options came back blank. Every pair of rule sets, old -> new: the new
    rule set's usual options are used for those not posted, and the change is saved once
    confirmed, first time."""
    club.rule_set = old
    club.save()
    data = as_the_page_shows(club, rule_set=new, name="Thursday Tiles")
    first = coordinator_client.post(reverse("club_settings"), data)
    page = first.content.decode()
    assert first.status_code == 200
    assert "This field is required" not in page
    assert "errorlist" not in page
    club.refresh_from_db()
    assert club.rule_set == old  # asked first, nothing saved yet
    # The confirmation shows the new rule set's options at their usual values.
    for key, default in club_options(new).items():
        assert f'name="option_{key}"' in page
        assert f'value="{default}"' in page
    confirmed = coordinator_client.post(reverse("club_settings"), {**data, "confirm_rule_set": new})
    assert confirmed.status_code == 302, confirmed.content.decode()
    club.refresh_from_db()
    assert club.rule_set == new and club.name == "Thursday Tiles"
    assert club.rule_options == {} and club.rule_values == {}


@pytest.mark.parametrize(("old", "new"), RULE_SET_PAIRS)
def test_choosing_another_rule_set_shows_its_usual_options_not_blanks(
    coordinator_client, club, old, new
):
    """The htmx swap when the list changes: the list sends itself and the rule set the page
    showed, and the new rule set's options are filled with their usual values, so the save
    that follows is complete."""
    club.rule_set = old
    club.save()
    data = {"rule_set": new, "options_for": old}  # what the list's hx-include sends
    response = coordinator_client.get(reverse("club_settings"), data, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    for key, default in club_options(new).items():
        assert re.search(rf'name="option_{key}"[^>]*value="{default}"', page), (key, page)
    for key in club_options(old):
        if key not in club_options(new):
            assert f'name="option_{key}"' not in page
    assert f'name="options_for" value="{new}"' in page


def _in_play_and_a_result_this_season(club):
    """A table playing now (started under the club's rules) and a result this season."""
    import datetime

    from django.utils import timezone

    from tests.factories import MemberFactory
    from tests.scoring.standings_helpers import play, session_on, win

    people = [MemberFactory(club=club) for _ in range(4)]
    today = timezone.localdate()
    earlier = session_on(club, today - datetime.timedelta(days=1))
    play(earlier, 1, people, [win(0, 20, [60, -20, -20, -20])], rules=club.rule_set)
    tonight = session_on(club, today, status="in_play")
    return play(tonight, 1, people, [], rules=club.rule_set, ending=None)


def test_a_change_of_rule_set_says_what_it_affects_and_keeps_the_entries(coordinator_client, club):
    match = _in_play_and_a_result_this_season(club)
    data = as_the_page_shows(club, rule_set="u3a", name="Kept Name", starting_tally="250")
    response = coordinator_client.post(reverse("club_settings"), data)
    page = response.content.decode()
    assert "Change the rule set from Classical to U3A?" in page
    assert (
        "1 table is playing now. Tables already playing keep Classical until their match " in page
    )
    assert "new matches use U3A, including a table that starts again tonight" in page
    assert "this season&#x27;s results so far stay in a separate Classical table" in page
    assert "U3A results start a table of their own" in page
    assert 'name="confirm_rule_set" value="u3a"' in page
    assert "Keep Classical</button>" in page
    assert 'value="Kept Name"' in page and 'value="250"' in page  # entries kept
    club.refresh_from_db()
    assert club.rule_set == "classical" and club.name != "Kept Name"
    # Confirmed: the new rules for new matches; the table in play keeps its own.
    confirmed = dict(data, confirm_rule_set="u3a", options_for="u3a", option_min_points="4")
    assert coordinator_client.post(reverse("club_settings"), confirmed).status_code == 302
    club.refresh_from_db()
    assert (club.rule_set, club.rule_options, club.name) == ("u3a", {"min_points": 4}, "Kept Name")
    match.refresh_from_db()
    assert match.rules == "classical" and match.is_in_play


def test_nothing_playing_and_no_results_is_said_too(coordinator_client, club):
    data = as_the_page_shows(club, rule_set="fan")
    page = coordinator_client.post(reverse("club_settings"), data).content.decode()
    assert "No table is playing now. New matches use Fan." in page
    assert "This season has no Classical results, so no standings are split." in page


def test_keep_saves_the_other_entries_under_the_old_rule_set(coordinator_client, club):
    club.rule_options = {"limit": 1000}
    club.save()
    data = as_the_page_shows(club, rule_set="hk", name="Kept Name", option_limit="1000")
    data.update(options_for="hk", option_min_faan="3", option_max_faan="10", keep_rule_set="1")
    response = coordinator_client.post(reverse("club_settings"), data, follow=True)
    assert "the rule set stays Classical" in response.content.decode()
    club.refresh_from_db()
    assert (club.rule_set, club.rule_options, club.name) == (
        "classical",
        {"limit": 1000},
        "Kept Name",
    )


def test_a_confirmation_for_another_rule_set_asks_again(coordinator_client, club):
    """Confirmed U3A, then picked fan on the confirmation page: asked again, for fan."""
    data = as_the_page_shows(club, rule_set="fan", confirm_rule_set="u3a")
    page = coordinator_client.post(reverse("club_settings"), data).content.decode()
    assert "Change the rule set from Classical to Fan?" in page
    club.refresh_from_db()
    assert club.rule_set == "classical"


def test_the_swap_says_what_a_change_affects_before_saving(coordinator_client, club):
    _in_play_and_a_result_this_season(club)
    data = {"rule_set": "u3a", "options_for": "classical"}
    page = coordinator_client.get(
        reverse("club_settings"), data, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Changing the rule set to U3A: 1 table is playing now." in page
    assert "You will be asked to confirm when you save." in page
    same = {"rule_set": "classical", "options_for": "classical"}
    page = coordinator_client.get(
        reverse("club_settings"), same, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Changing the rule set" not in page


def test_a_table_that_starts_again_after_the_change_takes_the_new_rules(club):
    """Tables playing keep their rules until their match ends; a table that starts again
    tonight (a late arrival) is a new match, under the rules the club has now."""
    from club.seating.changes import seat_late_arrival
    from games.models import Match
    from games.start import start_play
    from tests.factories import MemberFactory
    from tests.games.helpers import seated_session

    session = seated_session(club, sizes=(4, 4))
    first, second = start_play(session)
    club.rule_set = "u3a"
    club.save()
    assert seat_late_arrival(session, MemberFactory(club=club)).changed
    playing = {m.table_number: m for m in Match.objects.in_play()}
    changed = [m for m in playing.values() if m.pk not in (first.pk, second.pk)]
    kept = [m for m in playing.values() if m.pk in (first.pk, second.pk)]
    assert len(changed) == 1 and changed[0].rules == "u3a"
    assert len(kept) == 1 and kept[0].rules == "classical"


# --- the club's time zone and currency -------------------------------------------------------


def test_coordinator_sets_the_clubs_time_zone_and_currency(coordinator_client, club):
    data = settings_post(club, time_zone="Pacific/Auckland", currency_symbol="NZ$")
    assert coordinator_client.post(reverse("club_settings"), data).status_code == 302
    club.refresh_from_db()
    assert (club.time_zone, club.currency_symbol) == ("Pacific/Auckland", "NZ$")


def test_the_time_zone_list_puts_the_common_ones_first(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    select = page[page.index('name="time_zone"') :]
    select = select[: select.index("</select>")]
    common = select[: select.index("Every time zone")]
    assert '<optgroup label="Common time zones">' in select
    for zone in ("Europe/London", "Australia/Sydney", "Pacific/Auckland", "America/New_York"):
        assert f'value="{zone}"' in common
    assert 'value="Asia/Tokyo"' not in common and 'value="Asia/Tokyo"' in select
    assert '<option value="Europe/London" selected>Europe/London</option>' in select
    assert ">America/Los Angeles<" in select  # written with spaces


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"time_zone": "Europe/Narnia"}, "time_zone", "Please choose a time zone from the list"),
        ({"time_zone": ""}, "time_zone", "Please choose a time zone from the list"),
        ({"currency_symbol": ""}, "currency_symbol", "in 1 to 3 characters"),
        ({"currency_symbol": "  \u200b "}, "currency_symbol", "in 1 to 3 characters"),
        ({"currency_symbol": "EURO"}, "currency_symbol", "in 1 to 3 characters"),
    ],
)
def test_a_bad_time_zone_or_currency_is_refused_in_words(club, changes, field, message):
    form = ClubSettingsForm(settings_post(club, name="Kept", **changes), instance=club)
    assert not form.is_valid()
    assert list(form.errors) == [field]
    assert message in form.errors[field][0]


def test_a_refused_currency_keeps_the_other_entries(coordinator_client, club):
    data = settings_post(club, name="Kept Name", time_zone="Europe/Paris", currency_symbol="EURO")
    page = coordinator_client.post(reverse("club_settings"), data).content.decode()
    assert "in 1 to 3 characters" in page
    assert 'value="Kept Name"' in page and 'value="EURO"' in page
    assert '<option value="Europe/Paris" selected>' in page
    club.refresh_from_db()
    assert club.time_zone != "Europe/Paris"


def test_a_post_without_time_zone_or_currency_keeps_the_saved_ones(coordinator_client, club):
    club.time_zone, club.currency_symbol = "Australia/Perth", "$"
    club.save()
    data = settings_post(club, name="Renamed")
    assert "time_zone" not in data and "currency_symbol" not in data
    assert coordinator_client.post(reverse("club_settings"), data).status_code == 302
    club.refresh_from_db()
    assert (club.name, club.time_zone, club.currency_symbol) == ("Renamed", "Australia/Perth", "$")


def test_the_table_money_is_asked_and_refused_in_the_clubs_currency(coordinator_client, club):
    club.currency_symbol = "€"
    club.save()
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert "In €, e.g. 2.50." in page
    data = settings_post(club, collects_table_money="on", table_money="1000")
    form = ClubSettingsForm(data, instance=club)
    assert not form.is_valid()
    assert form.errors["table_money"] == ["The table money must be between €0 and €100."]


@pytest.mark.parametrize("rule_set", RULESET_NAMES)
def test_every_htmx_get_of_the_settings_page_fits_gunicorns_request_line(
    coordinator_client, club, rule_set
):
    """Reported: choosing another rule set answered 414 under gunicorn, the list sending the
    whole form (the scoring table's values with it) in the address. Under every rule set
    (the largest form the page can have), each hx-get's longest request stays in the limit."""
    club.rule_set = rule_set
    club.save()
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert longest_request_lines(page)  # the list's swap is there to measure
    assert too_long(page, f"settings under {rule_set}") == []


def test_options_typed_for_a_rule_set_not_chosen_are_said_not_dropped_silently(
    coordinator_client, club
):
    """Reported: the swap failed, the page still showed Classical's options ("Limit 2000"),
    the coordinator typed into them and chose fan; the save dropped what was typed without a
    word. Now the page says what is not used, shows fan's options, and saves nothing yet."""
    data = as_the_page_shows(club, rule_set="fan", options_for="classical", option_limit="1500")
    page = coordinator_client.post(reverse("club_settings"), data).content.decode()
    assert (
        "The options on the page were Classical&#x27;s, so what was typed there (Limit) is not "
        "used with Fan. Fan&#x27;s own options are below: check them, then save." in page
    )
    assert 'name="options_for" value="fan"' in page
    # Fan's options shown, then the list set back to the club's own rule set: said too.
    back = settings_post(club, rule_set="fan")
    back.update(rule_set="classical", options_for="fan", option_min_fan="2")
    page = coordinator_client.post(reverse("club_settings"), back).content.decode()
    assert "what was typed there (Min fan) is not used with Classical" in page
    club.refresh_from_db()
    assert (club.rule_set, club.rule_options) == ("classical", {})
    # Options typed for the rule set the page shows are kept and saved.
    fan = settings_post(club, rule_set="fan", options_for="fan", option_min_fan="2")
    fan["confirm_rule_set"] = "fan"
    assert coordinator_client.post(reverse("club_settings"), fan).status_code == 302
    club.refresh_from_db()
    assert (club.rule_set, club.rule_options) == ("fan", {"min_fan": 2})
