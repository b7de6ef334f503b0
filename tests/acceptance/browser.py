"""Headless Chromium over the DevTools protocol: a page's visible text, element sizes, a PNG."""
from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000")


def chromium_path() -> str | None:
    """The Chromium binary on PATH (Debian's `chromium` package), if any."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Rendered:
    """What a real browser showed for a page."""

    text: str
    figure_sizes: list[tuple[float, float]]


class Browser:
    """One headless Chromium with a fresh profile, driven through one page target."""

    def __init__(self, binary: str, timeout: float = 30.0) -> None:
        import websocket

        self.profile = tempfile.mkdtemp(prefix="interp-claims-chromium-")
        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={self.profile}",
                                      "about:blank"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + timeout
        while not port_file.exists() or not port_file.read_text().strip():
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=timeout)
        self.next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression,
                         returnByValue=True)["result"].get("value")

    def open(self, path: Path, timeout: float = 30.0) -> None:
        self.call("Page.navigate", url=path.resolve().as_uri())
        deadline = time.time() + timeout
        while self.evaluate("document.readyState") != "complete":
            if time.time() > deadline:
                raise RuntimeError(f"{path} did not finish loading")
            time.sleep(0.1)

    def render(self, path: Path, screenshot: Path) -> Rendered:
        """Open a page, read its visible text and figure sizes, save a full-page PNG."""
        self.open(path)
        text = self.evaluate("document.body.innerText")
        sizes = self.evaluate("Array.from(document.querySelectorAll('.fig svg'))"
                              ".map(s => {const r = s.getBoundingClientRect(); return [r.width, r.height];})")
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        return Rendered(text, [tuple(s) for s in sizes])

    def close(self) -> None:
        if getattr(self, "ws", None):
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
