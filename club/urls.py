"""Members, sessions, attendance and seating (issue 4) live here."""

from .seating_urls import seating_urlpatterns

app_name = "club"
urlpatterns: list = []

urlpatterns += seating_urlpatterns
