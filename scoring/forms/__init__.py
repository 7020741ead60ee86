"""Scoring's forms (being split by job: the module moves first, so its history follows)."""

from scoring.forms.picker import *  # noqa: F403
