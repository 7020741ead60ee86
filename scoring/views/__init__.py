"""Scoring pages: practice with the tile picker and the scoring API (practice.py); scoresheets,
corrections, blank sheets and paper-sheet entry (scoresheets.py)."""
