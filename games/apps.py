from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from club.reopening import session_reopened
        from club.seating.changes import tables_changed

        tables_changed.connect(_follow_seating, dispatch_uid="games.follow_seating")
        session_reopened.connect(_reopen_play, dispatch_uid="games.reopen_play")


def _follow_seating(sender, plan, **kwargs) -> None:
    """A late arrival or a leaver changed tables during play: matches follow."""
    from games.start import follow_seating

    follow_seating(plan.session)


def _reopen_play(sender, session, **kwargs) -> int:
    """The coordinator reopened the evening: the tables it had ended carry on."""
    from games.start import reopen_play

    return reopen_play(session)
