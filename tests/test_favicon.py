"""The app's icon: an SVG with a PNG fallback (and a larger one for phones' home screens),
linked from every page."""

import struct
from pathlib import Path
from xml.etree import ElementTree

from django.conf import settings
from django.urls import reverse

IMG = Path(settings.BASE_DIR) / "static" / "img"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_icons_are_real_images():
    svg = ElementTree.parse(IMG / "favicon.svg").getroot()
    assert svg.tag.endswith("svg") and svg.get("viewBox") == "0 0 64 64"
    assert png_size(IMG / "favicon-32.png") == (32, 32)
    assert png_size(IMG / "apple-touch-icon.png") == (180, 180)


def test_every_page_links_the_icons(client, db):
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg" type="image/svg+xml">' in page
    assert 'href="/static/img/favicon-32.png" type="image/png" sizes="32x32"' in page
    assert '<link rel="apple-touch-icon" href="/static/img/apple-touch-icon.png">' in page
    assert 'href="data:,"' not in page


def test_favicon_ico_leads_to_the_icon(client, db):
    """Pages that link no icon (the admin's) make browsers ask for /favicon.ico."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/favicon-32.png"
    assert (IMG / "favicon-32.png").exists()
