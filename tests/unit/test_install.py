"""harness.install: a lock installed with uv from pip's configured sources, else with pip."""
from __future__ import annotations

import stat
from pathlib import Path

import pytest

from harness import install

LISTING = """global.cert='/etc/ssl/certs/ca-certificates.crt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/opt/wheels'
install.index-url='https://mirror.example/simple'
:env:.find-links='/srv/wheels'
"""


def test_a_later_section_replaces_an_earlier_ones_value():
    assert install.pip_settings(LISTING)["find-links"] == "/srv/wheels"


def test_a_quoted_list_is_read_whole():
    assert install.pip_settings(LISTING)["extra-index-url"] == (
        "file:///opt/pypi/simple file:///opt/pypi-more/simple")


def test_each_source_becomes_a_uv_option():
    options, _ = install.uv_options(install.pip_settings(LISTING))
    assert options == ["--index-url", "https://mirror.example/simple",
                       "--extra-index-url", "file:///opt/pypi/simple",
                       "--extra-index-url", "file:///opt/pypi-more/simple",
                       "--find-links", "/srv/wheels"]


def test_pips_certificate_bundle_is_uvs():
    _, env = install.uv_options(install.pip_settings(LISTING))
    assert env == {"SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt"}


def test_no_index_is_passed_on():
    options, _ = install.uv_options({"no-index": "true"})
    assert options == ["--no-index"]


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def venv(tmp_path) -> Path:
    """A venv whose python records each pip call it gets."""
    _script(tmp_path / "venv" / "bin" / "python", f'echo "$@" >> {tmp_path}/pip-calls\n')
    return tmp_path / "venv"


@pytest.fixture
def lock(tmp_path) -> Path:
    path = tmp_path / "requirements.lock"
    path.write_text("six==1.16.0 \\\n    --hash=sha256:" + "0" * 64 + "\n")
    return path


def test_uv_installs_every_hash_required(tmp_path, venv, lock, monkeypatch):
    uv = _script(tmp_path / "uv", f'echo "$@" >> {tmp_path}/uv-calls\n')
    monkeypatch.setattr(install, "uv_executable", lambda: (uv, ""))
    assert install.install(lock, venv) == 0
    call = (tmp_path / "uv-calls").read_text()
    assert "--require-hashes -r " + str(lock) in call and f"--python {venv}/bin/python" in call
    assert not (tmp_path / "pip-calls").exists()


def test_pip_installs_where_uv_fails(tmp_path, venv, lock, monkeypatch, capsys):
    uv = _script(tmp_path / "uv", "echo 'no wheel for this platform' >&2; exit 1\n")
    monkeypatch.setattr(install, "uv_executable", lambda: (uv, ""))
    assert install.install(lock, venv, editable=tmp_path) == 0
    calls = (tmp_path / "pip-calls").read_text().splitlines()
    assert calls[0].startswith("-m pip install --quiet --no-compile --require-hashes -r ")
    assert calls[1].endswith(f"--no-deps --no-build-isolation -e {tmp_path}")
    assert "uv failed: no wheel for this platform; pip installs instead" in capsys.readouterr().err


def test_pip_installs_where_uv_cannot_be_had(tmp_path, venv, lock, monkeypatch, capsys):
    monkeypatch.setattr(install, "uv_executable", lambda: (None, "uv could not be installed"))
    assert install.install(lock, venv) == 0
    assert (tmp_path / "pip-calls").read_text().count("--require-hashes") == 1
    assert "uv could not be installed; pip installs instead" in capsys.readouterr().err


def test_a_failing_pip_fails_the_install(tmp_path, lock, monkeypatch):
    venv = tmp_path / "venv"
    _script(venv / "bin" / "python", "exit 3\n")
    monkeypatch.setattr(install, "uv_executable", lambda: (None, "no uv"))
    assert install.install(lock, venv) == 3
