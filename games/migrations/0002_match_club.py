"""Matches carry their club's key, for per-club queries without joining sessions."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def match_club(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Session = apps.get_model("club", "Session")
    Match.objects.update(
        club_id=Subquery(Session.objects.filter(pk=OuterRef("session_id")).values("club_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0012_many_clubs"),
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="club.club",
            ),
        ),
        migrations.RunPython(match_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="club.club"
            ),
        ),
    ]
