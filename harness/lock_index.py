"""The indexes a lock names (harness.lock): whether each answers, and the file pip installs
with those that do not left out. Standard library only, as harness.lock."""
from __future__ import annotations

import os
import re
import ssl
import urllib.error
import urllib.request
from pathlib import Path

INDEX_LINE = re.compile(r"^\s*(?:--extra-index-url|--index-url|-i|--find-links|-f)[\s=]+"
                        r"(https?://\S+)\s*$", re.M)


def reachable(url: str, timeout: float = 5.0) -> bool:
    """Whether the server answers over HTTPS within `timeout` (any HTTP status counts). No name, no
    route, a refused connection, a certificate that does not verify (with PIP_CERT's bundle where
    it is set) or silence does not: pip would retry each of those for every package."""
    context = ssl.create_default_context(cafile=os.environ.get("PIP_CERT") or None)
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout,
                               context=context).close()
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):  # URLError, timeouts and TLS errors are OSErrors
        return False
    return True


def pip_file(lock: Path, workdir: Path, answers=reachable) -> tuple[Path, list[str]]:
    """The file pip installs for `lock`: the lock itself, or, where an index or find-links URL it
    names does not answer, a copy in `workdir` with those lines commented out. pip asks every
    index for every package, retrying each 5 times: about 8 s a package, 10 minutes for this lock
    (measured), where one dead index could cost nothing. Hashes still decide what installs."""
    text = lock.read_text()
    dead = [url for url in dict.fromkeys(INDEX_LINE.findall(text)) if not answers(url)]
    if not dead:
        return lock, []
    copy = Path(workdir) / f"{lock.name}.reachable"
    copy.write_text(INDEX_LINE.sub(
        lambda m: f"# did not answer at install: {m[0].strip()}" if m[1] in dead else m[0], text))
    return copy, dead
