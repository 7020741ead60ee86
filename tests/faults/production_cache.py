"""The test settings with production's cache: what config/settings/base.py chooses with
DEBUG off (the database's cache table unless CACHE_URL says otherwise), instead of the test
processes' own memory. Servers started as production is use it (tests/faults/server.py)."""

from config.settings import base
from config.settings.test import *  # noqa: F403

CACHES = base.CACHES
