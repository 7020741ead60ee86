from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from club.models import Club
        from scoring.rules import starting_tally

        # The starting tally of a club that sets none is its rule set's (club/models.py).
        Club.rule_set_starting_tally = staticmethod(starting_tally)
