"""requirements.lock (what the image and `make install` install, every file's hash checked)
agrees with pyproject.toml's runtime dependencies and its redis extra: each is pinned there
at a version pyproject.toml allows, nothing is pinned for a dependency pyproject.toml no
longer has, and every pinned file has its hash. `make lock` makes it again."""

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)")


def runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["redis"]
    return [Requirement(text) for text in wanted]


def locked() -> dict[str, dict]:
    """Each pinned package: its version, its hashes and what asked for it."""
    pins: dict[str, dict] = {}
    current = None
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    for line in lines:
        if match := PIN.match(line):
            current = pins.setdefault(
                canonicalize_name(match["name"]),
                {"version": match["version"], "hashes": [], "via": []},
            )
        elif current is not None and "--hash=sha256:" in line:
            current["hashes"].append(line.split("--hash=sha256:")[1].split()[0])
        elif current is not None and line.strip().startswith("#"):
            # "# via x" on one line, or "# via" followed by "#   x" lines.
            words = line.strip("# ").removeprefix("via").strip()
            if words:
                current["via"].append(words)
    return pins


def test_every_runtime_dependency_is_locked_at_a_version_pyproject_allows():
    pins = locked()
    for requirement in runtime_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements.lock: run make lock"
        version = pins[name]["version"]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock has {requirement.name} {version}, pyproject.toml asks for "
            f"{requirement.specifier}: run make lock"
        )


def test_the_lock_holds_nothing_pyproject_no_longer_asks_for_and_every_file_is_hashed():
    pins = locked()
    direct = {canonicalize_name(r.name) for r in runtime_requirements()}
    from_pyproject = {
        name for name, pin in pins.items() if "mahjong-club (pyproject.toml)" in pin["via"]
    }
    assert from_pyproject == direct
    # Everything else is there because something locked asks for it.
    for name, pin in pins.items():
        assert pin["via"], f"{name} is locked, but nothing asks for it: run make lock"
        assert pin["hashes"] and all(len(h) == 64 for h in pin["hashes"]), name
