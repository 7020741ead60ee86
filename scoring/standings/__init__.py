"""Results and standings (being split by job: the module moves first, so its history follows)."""

from scoring.standings.leaderboard import *  # noqa: F403
