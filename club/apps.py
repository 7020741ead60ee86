from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"

    def ready(self):
        from django.core.signals import request_finished, request_started
        from django.db.backends.signals import connection_created

        from club import login_throttle  # noqa: F401  (counts wrong passwords: a signal)
        from club.read_only import after_request, before_request, opened

        # A SQLite connection opened read-only lives one request, and one kept from before
        # the files stopped taking writes is not used again (club/read_only.py).
        connection_created.connect(opened, dispatch_uid="club.read_only.opened")
        request_started.connect(before_request, dispatch_uid="club.read_only.before_request")
        request_finished.connect(after_request, dispatch_uid="club.read_only.after_request")
