"""Rule settings saved before they had ranges (a limit of 10^30, Mahjong at -1000 points)
would now be refused every time the club's rules are built: each one outside its range goes
back to the rule set's usual value, so such a club's tables keep working."""

from django.db import migrations


def settings_back_in_range(apps, schema_editor):
    from scoring.engine.rulesets import get_ruleset

    Club = apps.get_model("club", "Club")
    for club in Club.objects.all():
        try:
            ruleset = get_ruleset(club.rule_set)
        except Exception:  # an unknown rule set is the settings form's to explain
            continue
        options = {
            name: value
            for name, value in (club.rule_options or {}).items()
            if _in_range(value, ruleset.option_ranges.get(name))
        }
        values = {
            name: value
            for name, value in (club.rule_values or {}).items()
            if _in_range(value, ruleset.value_ranges.get(name))
        }
        if options != (club.rule_options or {}) or values != (club.rule_values or {}):
            club.rule_options, club.rule_values = options, values
            club.save(update_fields=["rule_options", "rule_values"])


def _in_range(value, limits) -> bool:
    if limits is None or not isinstance(value, int) or isinstance(value, bool):
        return True  # not a ranged number: left for the engine's own checks
    low, high = limits[0], limits[1]
    return low <= value and (high is None or value <= high)


class Migration(migrations.Migration):
    dependencies = [("club", "0009_club_settings_in_sensible_ranges")]

    operations = [migrations.RunPython(settings_back_in_range, migrations.RunPython.noop)]
