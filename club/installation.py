"""Whether the installation waits for its first set-up: no club and no operator's login (a
superuser). Its root then shows the setup page (front/first_setup.py) instead of making a
club by itself; an operator who made a login first (`createsuperuser`) gets the old way."""

from django.contrib.auth import get_user_model

from club.models import Club


def waiting_for_setup() -> bool:
    return (
        not Club.objects.exists()
        and not get_user_model().objects.filter(is_superuser=True).exists()
    )
