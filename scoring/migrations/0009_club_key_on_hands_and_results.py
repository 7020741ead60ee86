"""Hands, kong chips and results carry their club's key (from their match), and the
results' indexes lead with it: a club's records cost the same among many clubs as alone."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Q, Subquery


def club_from_match(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    club = Subquery(Match.objects.filter(pk=OuterRef("match_id")).values("club_id")[:1])
    for name in ("Hand", "KongChips", "MatchResult"):
        apps.get_model("scoring", name).objects.update(club_id=club)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0012_many_clubs"),
        ("games", "0002_match_club"),
        ("scoring", "0008_placings_weigh_per_rule_set"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="club.club",
            ),
        ),
        migrations.AddField(
            model_name="kongchips",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="club.club",
            ),
        ),
        migrations.AddField(
            model_name="matchresult",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="club.club",
            ),
        ),
        migrations.RunPython(club_from_match, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="hand",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="club.club"
            ),
        ),
        migrations.AlterField(
            model_name="kongchips",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="club.club"
            ),
        ),
        migrations.AlterField(
            model_name="matchresult",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="club.club"
            ),
        ),
        migrations.RemoveIndex(model_name="matchresult", name="result_streak"),
        migrations.RemoveIndex(model_name="matchresult", name="result_best_total"),
        migrations.RemoveIndex(model_name="matchresult", name="result_limit_hands"),
        migrations.AddIndex(
            model_name="matchresult",
            index=models.Index(fields=["club", "session"], name="result_club_session"),
        ),
        migrations.AddIndex(
            model_name="matchresult",
            index=models.Index(fields=["club", "-longest_streak"], name="result_club_streak"),
        ),
        migrations.AddIndex(
            model_name="matchresult",
            index=models.Index(
                fields=["club", "rules", "-best_total"], name="result_club_best_total"
            ),
        ),
        migrations.AddIndex(
            model_name="matchresult",
            index=models.Index(
                condition=Q(limit_hands__gt=0),
                fields=["club", "limit_hands"],
                name="result_club_limit_hands",
            ),
        ),
    ]
