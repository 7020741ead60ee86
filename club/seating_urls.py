"""Seating URLs (owned by the seating work); club/urls.py appends these."""

seating_urlpatterns: list = []
