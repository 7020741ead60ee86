from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"

    def ready(self):
        from club import login_throttle  # noqa: F401  (counts wrong passwords: a signal)
