from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from club.seating.changes import tables_changed

        tables_changed.connect(_follow_seating, dispatch_uid="games.follow_seating")


def _follow_seating(sender, plan, **kwargs) -> None:
    """A late arrival or a leaver changed tables during play: matches follow."""
    from games.start import follow_seating

    follow_seating(plan.session)
