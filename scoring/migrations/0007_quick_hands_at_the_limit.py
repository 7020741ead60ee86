"""Hands whose total was agreed at the table at the match's limit were saved with
`limit` unset (only hands worked out from their tiles got it): set it on those stored.

Each match's limit is read from its derived results (`MatchResult.limit`, copied from the
rules the match was played under), so this needs no rule-set code."""

from django.db import migrations
from django.db.models import F, OuterRef, Subquery


def quick_hands_at_the_limit(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    MatchResult = apps.get_model("scoring", "MatchResult")
    limit = MatchResult.objects.filter(match_id=OuterRef("match_id"), limit__isnull=False)
    hands = (
        Hand.objects.filter(entry="quick", winner__isnull=False, limit=False)
        .annotate(match_limit=Subquery(limit.values("limit")[:1]))
        .filter(total__gte=F("match_limit"))
    )
    ids = list(hands.values_list("pk", flat=True))
    for start in range(0, len(ids), 500):
        Hand.objects.filter(pk__in=ids[start : start + 500]).update(limit=True)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_kong_chips_one_time_key")]

    operations = [migrations.RunPython(quick_hands_at_the_limit, migrations.RunPython.noop)]
