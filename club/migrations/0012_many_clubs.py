"""Many clubs on one installation: each club's address (slug), time zone and currency; a
login's role per club (`Coordinator`) instead of the site-wide "Coordinators" group; a login
may be a member of several clubs; attendance carries its club's key."""

import re

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery

import club.models

ADDRESS = re.compile(r"[^a-z0-9]+")


def _slug(name: str, taken: set[str]) -> str:
    base = ADDRESS.sub("-", name.lower()).strip("-")[:36].strip("-")
    if not base or not base[0].isalpha() or len(base) < 3:
        base = f"club-{base}".strip("-") if base else "club"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def name_the_addresses(apps, schema_editor):
    Club = apps.get_model("club", "Club")
    taken: set[str] = set()
    for club in Club.objects.order_by("pk"):
        club.slug = _slug(club.name, taken)
        taken.add(club.slug)
        club.save(update_fields=["slug"])


def attendance_club(apps, schema_editor):
    Attendance = apps.get_model("club", "Attendance")
    Session = apps.get_model("club", "Session")
    Attendance.objects.update(
        club_id=Subquery(Session.objects.filter(pk=OuterRef("session_id")).values("club_id")[:1])
    )


def coordinators_per_club(apps, schema_editor):
    """The old site-wide group's members coordinate the installation's club (there was one).
    They were staff for the admin's sake; the admin is now the operators' (superusers)."""
    Club = apps.get_model("club", "Club")
    Coordinator = apps.get_model("club", "Coordinator")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    group = Group.objects.filter(name="Coordinators").first()
    if group is None:
        return
    club = Club.objects.order_by("pk").first()
    users = User.objects.filter(groups=group)
    if club is not None:
        Coordinator.objects.bulk_create(
            [Coordinator(club=club, user=user) for user in users], ignore_conflicts=True
        )
    users.filter(is_superuser=False).update(is_staff=False)
    group.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("club", "0011_rule_set_names_from_scoring"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="slug",
            field=models.CharField(max_length=40, null=True, verbose_name="address"),
        ),
        migrations.RunPython(name_the_addresses, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="club",
            name="slug",
            field=models.CharField(
                max_length=40,
                unique=True,
                validators=[club.models.validate_club_slug],
                verbose_name="address",
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="time_zone",
            field=models.CharField(
                default=settings.TIME_ZONE,
                max_length=60,
                validators=[club.models.validate_time_zone],
            ),
        ),
        migrations.AddField(
            model_name="club",
            name="currency_symbol",
            field=models.CharField(
                default="£", max_length=3, verbose_name="currency symbol for table money"
            ),
        ),
        migrations.AlterField(
            model_name="club",
            name="table_money",
            field=models.DecimalField(
                decimal_places=2,
                default=0,
                max_digits=6,
                validators=[
                    django.core.validators.MinValueValidator(
                        0, "Table money cannot be below nothing."
                    ),
                    django.core.validators.MaxValueValidator(
                        100, "The table money must be between 0 and 100."
                    ),
                ],
                verbose_name="table money per person",
            ),
        ),
        migrations.AlterField(
            model_name="member",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="memberships",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="member",
            constraint=models.UniqueConstraint(
                fields=("club", "user"), name="one_member_per_login_per_club"
            ),
        ),
        migrations.AddField(
            model_name="attendance",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="club.club",
            ),
        ),
        migrations.RunPython(attendance_club, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="attendance",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="club.club"
            ),
        ),
        migrations.CreateModel(
            name="Coordinator",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="coordinators",
                        to="club.club",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="coordinator_roles",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("club", "user"), name="one_coordinator_role_per_club"
                    )
                ],
            },
        ),
        migrations.RunPython(coordinators_per_club, migrations.RunPython.noop),
    ]
