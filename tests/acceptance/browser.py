"""Headless Chromium driven by Selenium through Debian's `chromium` and `chromium-driver`."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from typing import Iterator

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")


def chromium_paths() -> tuple[str, str] | None:
    """Chromium and its driver on PATH (Debian's packages), or None when either is missing."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (binary, driver) if binary and driver else None


@contextmanager
def chromium(binary: str, driver: str) -> Iterator["object"]:
    """A headless Chromium session (selenium.webdriver.Chrome), closed afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()
