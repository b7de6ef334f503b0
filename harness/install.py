"""`make setup`'s install of a hashed lock into a virtual environment: with uv where it can
(several times faster: pip spends most of its time unpacking torch), else with pip, from the same
package sources and with every hash checked either way. Standard library only: the machine's own
Python runs it before the environment exists.

    python -m harness.install LOCK VENV [--editable DIR]   install LOCK (then DIR, editable)

uv is the pinned one of requirements-uv.lock, installed once with its hashes into UV_TOOL. uv reads
none of pip's configuration, so the sources pip is configured with (`pip config list` and PIP_*:
index, extra indexes, find-links, certificate bundle) are handed to it as options. A constraint
file pip is configured with is not (uv refuses one beside required hashes; every pin is exact).
Any failure of uv (absent, no wheel for this platform, a source it cannot read) falls back to
pip, saying why."""
from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

from harness.lock_index import pip_file

ROOT = Path(__file__).resolve().parents[1]
UV_LOCK = ROOT / "requirements-uv.lock"
UV_TOOL = ROOT / ".uv-tool"  # pip --target: the uv executable lands in bin/
# pip's options that say where packages come from, and uv's names for them: lists (several
# values, whitespace-separated in pip's configuration) and one value.
LISTS = {"extra-index-url": "--extra-index-url", "find-links": "--find-links"}
SINGLE = {"index-url": "--index-url"}
# pip's precedence, lowest first: its configuration files' sections, then the environment.
SECTIONS = ("global", "install", ":env:")


def pip_settings(listing: str) -> dict[str, str]:
    """The settings `pip config list` prints (`section.key='value'`), each key at the value pip
    uses: a later section of SECTIONS replaces an earlier one's."""
    found: dict[tuple[int, str], str] = {}
    for line in listing.splitlines():
        name, _, value = line.partition("=")
        section, _, key = name.rpartition(".")
        if section in SECTIONS and value:
            found[(SECTIONS.index(section), key)] = ast.literal_eval(value)  # pip prints repr
    return {key: value for (_, key), value in sorted(found.items())}


def uv_options(settings: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """uv's options and environment for the package sources pip is configured with: its index,
    extra indexes, find-links, no-index and certificate bundle."""
    options: list[str] = []
    for key, flag in SINGLE.items():
        if settings.get(key):
            options += [flag, settings[key]]
    for key, flag in LISTS.items():
        for value in settings.get(key, "").split():
            options += [flag, value]
    if settings.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        options.append("--no-index")
    env = {"SSL_CERT_FILE": settings["cert"]} if settings.get("cert") else {}
    return options, env


def configured_sources() -> tuple[list[str], dict[str, str]]:
    """uv's options and environment for the sources this machine's pip is configured with."""
    listing = subprocess.run([sys.executable, "-m", "pip", "config", "list"],
                             capture_output=True, text=True).stdout
    return uv_options(pip_settings(listing))


def uv_executable(tool: Path = UV_TOOL, lock: Path = UV_LOCK) -> tuple[Path | None, str]:
    """The pinned uv, installed into `tool` with its hashes where it is not there yet; None, with
    why, where it cannot be."""
    uv = tool / "bin" / "uv"
    if not uv.is_file():
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                               "--disable-pip-version-check", "--require-hashes", "--no-deps",
                               "--target", str(tool), "-r", str(lock)],
                              capture_output=True, text=True)
        if done.returncode or not uv.is_file():
            return None, f"uv could not be installed: {(done.stderr or done.stdout).strip()[-300:]}"
    return uv, ""


def uv_install(uv: Path, python: Path, args: list[str],
               sources: tuple[list[str], dict[str, str]]) -> subprocess.CompletedProcess:
    """uv pip install `args` into the environment of `python`, from `sources` (uv's options and
    environment for pip's configured ones), taking each package from whichever source has the
    pinned file (as pip does)."""
    options, env = sources
    return subprocess.run([str(uv), "pip", "install", "--quiet", "--python", str(python),
                           "--index-strategy", "unsafe-best-match", *options, *args],
                          env=os.environ | env, capture_output=True, text=True)


def install(lock: Path, venv: Path, editable: Path | None = None) -> int:
    """Install `lock` (its unanswering index lines left out: harness.lock_index.pip_file) into `venv`
    with every hash required, then `editable` with no dependencies: with uv, else with pip."""
    python = venv / "bin" / "python"
    file, dead = pip_file(lock, venv)
    for url in dead:
        print(f"harness.install: {url} did not answer; installing {lock} without it (hashes "
              "checked as ever)", file=sys.stderr)
    steps = [["--require-hashes", "-r", str(file)]]
    steps += [["--no-deps", "--no-build-isolation", "-e", str(editable)]] if editable else []
    uv, why = uv_executable()
    sources = configured_sources() if uv is not None else ([], {})
    for step in steps:
        if uv is not None:
            done = uv_install(uv, python, step, sources)
            if done.returncode == 0:
                continue
            why = f"uv failed: {(done.stderr or done.stdout).strip()[-300:]}"
            uv = None
        print(f"harness.install: {why}; pip installs instead", file=sys.stderr)
        code = subprocess.call([str(python), "-m", "pip", "install", "--quiet", "--no-compile",
                                *step])
        if code:
            return code
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lock", type=Path, help="the hashed lock to install")
    parser.add_argument("venv", type=Path, help="the virtual environment to install it into")
    parser.add_argument("--editable", type=Path, default=None,
                        help="a project to install after it, editable, with no dependencies")
    args = parser.parse_args(argv)
    return install(args.lock, args.venv, args.editable)


if __name__ == "__main__":
    sys.exit(main())
