"""The indexes a lock names (harness/lock_index.py): one that answers stays, one that does not is
left out of the file pip installs, and what counts as answering."""
from __future__ import annotations

import http.server
import re
import socket
import threading

import pytest

from harness.lock import CPU_LOCK, ROOT, TORCH_CPU_INDEX
from harness.lock_index import pip_file, reachable


def test_an_index_that_answers_stays(tmp_path):
    lock = ROOT / CPU_LOCK
    assert pip_file(lock, tmp_path, answers=lambda url: True) == (lock, [])


def test_an_index_that_does_not_answer_is_left_out_and_nothing_else(tmp_path):
    lock = tmp_path / "requirements.lock"
    lock.write_text(f"# comment\n--extra-index-url {TORCH_CPU_INDEX}\n"
                    "--find-links https://example.org/wheels\ntorch==2.13.0+cpu \\\n"
                    "    --hash=sha256:" + "b" * 64 + "\n")
    copy, dead = pip_file(lock, tmp_path, answers=lambda url: url != TORCH_CPU_INDEX)
    assert dead == [TORCH_CPU_INDEX] and copy != lock
    text = copy.read_text()
    assert not re.search(r"^--extra-index-url", text, re.M)
    assert "--find-links https://example.org/wheels\n" in text
    assert text.replace(f"# did not answer at install: --extra-index-url {TORCH_CPU_INDEX}",
                        f"--extra-index-url {TORCH_CPU_INDEX}") == lock.read_text()


@pytest.fixture
def server():
    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/whl/cpu"
    httpd.shutdown()


def test_any_http_answer_counts_as_answering(server):
    assert reachable(server, timeout=5)


def test_a_refused_connection_or_silence_does_not():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    assert not reachable(f"http://127.0.0.1:{port}/whl/cpu", timeout=1)
    with socket.socket() as silent:  # listens, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        assert not reachable(f"http://127.0.0.1:{silent.getsockname()[1]}/", timeout=0.2)
    assert not reachable("https://name.invalid/whl/cpu", timeout=1)
