"""Draws the installed app's icons (static/img/icon-*.png) from the favicon's tile, once.

Run by hand when the tile changes: `.venv/bin/python scripts/make_icons.py`. Chromium (the
browser tests' own) draws the SVG, so the project needs no imaging library; the PNGs are
committed and nothing here runs on the server.
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parent.parent / "static" / "img"
CHROMIUM = "/usr/bin/chromium"
TILE = (IMG / "favicon.svg").read_text()

# "any": the tile on white, as the home-screen icon already is (apple-touch-icon.png).
# "maskable": launchers cut the icon to a circle or a squircle, keeping only the middle 80 %,
# so the tile sits well inside it on a full-bleed green.
ICONS = {
    "icon-192.png": (192, "#ffffff", 1.0),
    "icon-512.png": (512, "#ffffff", 1.0),
    "icon-maskable-512.png": (512, "#0b5d1e", 0.66),
}


def page_for(size: int, background: str, scale: float) -> str:
    side = round(size * scale)
    return (
        f"<html><body style='margin:0;width:{size}px;height:{size}px;background:{background};"
        f"display:flex;align-items:center;justify-content:center'>"
        f"<div style='width:{side}px;height:{side}px'>"
        + TILE.replace("<svg ", f"<svg width='{side}' height='{side}' ")
        + "</div></body></html>"
    )


def main():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, (size, background, scale) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(size, background, scale))
            page.screenshot(path=str(IMG / name), omit_background=False)
            page.close()
            print(f"wrote {IMG / name}")
        browser.close()


if __name__ == "__main__":
    main()
