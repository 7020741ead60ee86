from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"

    def ready(self):
        from django.db.backends.signals import connection_created

        from club import login_throttle  # noqa: F401  (counts wrong passwords: a signal)
        from club.read_only import opened

        # A SQLite connection opened read-only lives one request (club/read_only.py).
        connection_created.connect(opened, dispatch_uid="club.read_only.opened")
