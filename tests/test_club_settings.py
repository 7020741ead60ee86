"""Club settings: name, rule set with its options, starting tally, seating preferences."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.forms import ClubSettingsForm
from club.models import Club
from scoring.engine import RULESET_NAMES, EngineError, get_ruleset
from scoring.rules import validate_club_rules


def settings_post(club: Club, **changes) -> dict:
    ruleset = get_ruleset(changes.get("rule_set", club.rule_set))
    data = {
        "name": club.name,
        "rule_set": club.rule_set,
        "starting_tally": "",
        "odd_tables": club.odd_tables,
        "spread_beginners": "on",
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
    data = settings_post(club, rule_set="u3a", option_min_points="5")
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
    choices = dict(Club._meta.get_field("rule_set").choices)
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
