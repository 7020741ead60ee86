"""The test settings, with static files served as production serves them: whitenoise's
compressed manifest storage over a `collectstatic` into STATIC_ROOT (set by the caller), and
nothing found in the app folders on the fly; and production's cache. A `{% static %}` file that the manifest lacks is
then the same server error it is in production."""

from config.settings import base
from config.settings.test import *  # noqa: F403
from config.settings.test import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Production's cache (the database's table), which every worker shares.
CACHES = base.CACHES
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = False
