"""The club served at the site's root is recorded (`Club.served_at_root`), no longer worked
out from how many clubs there are, so a second club never moves the first.

Today's root is recorded: the club HOME_CLUB names if the operators set it, else the only
club of a one-club installation. One exception: an installation that lets clubs sign up and
holds only the empty club made by its first request ("Our Mahjong Club", nothing in it) keeps
its root for the list of clubs, as it would have had at its first sign-up. An installation
of several clubs keeps listing them at its root."""

from django.conf import settings
from django.db import migrations, models


def record_the_root(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    home = settings.HOME_CLUB and Club.objects.filter(slug=settings.HOME_CLUB).first()
    if home:
        Club.objects.filter(pk=home.pk).update(served_at_root=True)
        return
    clubs = list(Club.objects.order_by("pk")[:2])
    if len(clubs) != 1 or (settings.CLUB_SIGNUP and _untouched(apps, clubs[0])):
        return
    Club.objects.filter(pk=clubs[0].pk).update(served_at_root=True)


def _untouched(apps, club) -> bool:
    """The club an installation's first request made, never named nor used."""
    if (club.slug, club.name) != ("our-club", "Our Mahjong Club"):
        return False
    return not any(
        apps.get_model("club", model).objects.filter(club=club).exists()
        for model in ("Member", "Coordinator", "Session")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0012_many_clubs"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="served_at_root",
            field=models.BooleanField(
                default=False, editable=False, verbose_name="served at the site's root"
            ),
        ),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(
                condition=models.Q(("served_at_root", True)),
                fields=("served_at_root",),
                name="one_club_at_the_root",
                violation_error_message="Another club is served at the site's root already.",
            ),
        ),
        migrations.RunPython(record_the_root, migrations.RunPython.noop),
    ]
