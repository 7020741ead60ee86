from django.apps import AppConfig


class FrontConfig(AppConfig):
    name = "front"
    verbose_name = "Front of the house"
