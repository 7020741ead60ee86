"""The installable, offline-capable shell: what the web app manifest says, and what the
service worker (templates/front/sw.js, served at /sw.js) keeps on the device.

The worker keeps two things and nothing else:
- the shell: every static file of the project (styles, scripts, icons), htmx and the
  offline page, fetched when it installs, under a name that changes with their contents, so
  a deploy replaces them;
- the last good copy of each table page opened (TABLE_PAGE), for reading and recording
  through a Wi-Fi drop.
Every other page, and every write, goes to the network and is never stored: pages with
members' names, emails and phone numbers must not outlive a logout on a shared tablet.
"""

import hashlib

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.finders import FileSystemFinder
from django.template import loader
from django.templatetags.static import static

# The only pages the worker may keep: a table's page, at the root or in a club's address.
# The same text is the worker's regular expression (JavaScript reads it as Python does);
# tests/test_offline_shell.py checks that it matches the table page's URL pattern and no other.
TABLE_PAGE = r"^(?:/c/[^/]+)?/play/\d+/tables/\d+/$"

OFFLINE_TEMPLATE = "front/offline.html"
WORKER_TEMPLATE = "front/sw.js"
# htmx as `{% htmx_script %}` loads it (django-htmx's own static file; a test keeps the two
# in step).
HTMX = "django_htmx/htmx-2.min.js"
# collectstatic's own default: editors' and version control's files are not static files.
IGNORED = ["CVS", ".*", "*~"]

THEME_COLOUR = "#0b5d1e"  # the header's green (app.css --brand)
BACKGROUND_COLOUR = "#ffffff"
ICONS = (
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
)


def manifest(club_name: str | None, home: str) -> dict:
    """The web app manifest of a club whose home page is at `home` (or of the site's list of
    clubs): installed from one club's pages, the app opens that club and stays in it."""
    name = club_name or "Mahjong clubs"
    return {
        "id": home,
        "name": name,
        "short_name": name,
        "description": "Scores at the table, the evening's seating and the club's standings.",
        "lang": "en-GB",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }


def shell(offline_page: str) -> dict:
    """What the worker fetches on install (addresses as pages link them: the hashed names in
    production) and the version naming its cache, from the files' contents."""
    # The project's own static folder.
    found = sorted(FileSystemFinder().list(IGNORED), key=lambda item: item[0])
    digest = hashlib.sha256()
    # The offline page is kept too, and the worker's code: a change to either is a new version.
    for template in (OFFLINE_TEMPLATE, WORKER_TEMPLATE):
        digest.update(loader.get_template(template).template.source.encode())
    addresses = []
    for path, storage in found:
        with storage.open(path) as file:
            digest.update(path.encode() + b"\0" + file.read())
        addresses.append(static(path))
    htmx = HTMX
    with open(finders.find(htmx), "rb") as file:
        digest.update(htmx.encode() + b"\0" + file.read())
    addresses.append(static(htmx))
    addresses.append(offline_page)
    return {
        "version": digest.hexdigest()[:16],
        "files": addresses,
        "offline": offline_page,
        "tablePage": TABLE_PAGE,
    }
