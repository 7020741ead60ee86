"""`manage.py setup_code`: a new setup code for the setup page (front/first_setup.py), for
an operator who missed the one in the server's log. The code before it stops working."""

from django.core.management.base import BaseCommand, CommandError

from club.installation import waiting_for_setup
from front.first_setup import new_setup_code, setup_code_words


class Command(BaseCommand):
    help = "Print a new setup code for the setup page of an installation with no club yet."

    def handle(self, *args, **options):
        if not waiting_for_setup():
            raise CommandError(
                "This installation is set up already (it has a club or an operator's login): "
                "there is no setup page. `manage.py createsuperuser` makes another login."
            )
        self.stdout.write(setup_code_words(new_setup_code()))
