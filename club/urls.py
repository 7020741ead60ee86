"""Members, sessions, attendance and seating (issue 4) live here."""

app_name = "club"
urlpatterns: list = []
