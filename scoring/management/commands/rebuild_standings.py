"""Recompute every match's results from its hands (after loading hands some other way)."""

from django.core.management.base import BaseCommand

from club.scoping import scopes_disabled
from scoring.standings import rebuild_results


class Command(BaseCommand):
    help = "Recompute the standings' per-match results from the recorded hands."

    def handle(self, *args, **options):
        with scopes_disabled():  # every club's matches, each from its own hands
            count = rebuild_results()
        self.stdout.write(f"Recomputed the results of {count} matches.")
