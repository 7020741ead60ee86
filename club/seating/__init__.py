"""Seating: who sits at which table at a session.

- `planner/`: the seating itself, plain Python without Django (table sizes, dice, the
  optimiser, coordinator changes).
- `models.py`: the seating's models (a session's plan, its tables, the seats), of the club
  app, registered by club/models.py.
- `load.py`: database rows -> the planner's input; `changes.py`: the writes that span
  several models, each one transaction; `display.py`: what the pages show.
- `forms.py`, `views.py`, `urls.py`: the pages (mounted by club/urls.py).

This package imports nothing itself, so `club.models` can use the planner's types.
"""
