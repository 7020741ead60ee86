"""Faults a club's server meets on an evening: restarts, kills, a database gone away."""

# Each fault test adds one line of figures here; conftest.py prints them at the end.
FIGURES: list[str] = []
