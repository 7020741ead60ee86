"""Standings are kept per rule set, so a member's placing counts once per evening in each
rule set's standings: an evening whose tables played under two rule sets (a table started
again after the club changed its rules) weighed each match by the share of ALL the
member's hands that evening. Weigh such rows again by the share of their hands under the
match's own rule set (as scoring.standings._reweigh now does). Only evenings where a
member has results under more than one rule set change."""

from collections import defaultdict

from django.db import migrations
from django.db.models import Count


def weigh_per_rule_set(apps, schema_editor):
    MatchResult = apps.get_model("scoring", "MatchResult")
    mixed = (
        MatchResult.objects.values("session_id", "member_id")
        .annotate(rule_sets=Count("rules", distinct=True))
        .filter(rule_sets__gt=1)
        .values_list("session_id", flat=True)
    )
    sessions = sorted(set(mixed))
    for start in range(0, len(sessions), 200):
        rows = list(
            MatchResult.objects.filter(session_id__in=sessions[start : start + 200]).only(
                "pk", "session_id", "member_id", "rules", "hands_played", "weight"
            )
        )
        hands = defaultdict(int)
        for row in rows:
            hands[row.session_id, row.member_id, row.rules] += row.hands_played
        changed = []
        for row in rows:
            total = hands[row.session_id, row.member_id, row.rules]
            weight = row.hands_played / total if total else 0.0
            if row.weight != weight:
                row.weight = weight
                changed.append(row)
        MatchResult.objects.bulk_update(changed, ["weight"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0007_quick_hands_at_the_limit")]

    operations = [migrations.RunPython(weigh_per_rule_set, migrations.RunPython.noop)]
