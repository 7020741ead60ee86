"""Scoring pages: practice with the tile picker and the scoring API (practice.py); Our rules
(rules.py); scoresheets, corrections, blank sheets and paper-sheet entry (scoresheets.py);
results, standings, their CSVs and the room display (standings.py)."""
