"""``scorekeeper web`` serves the phone's site (:mod:`scorekeeper.site`) at ``/app/``: a phone at
the table opens it once (the host's "Phones at this table" screen has its QR code) and can
then score alone, away from the table's Wi-Fi.

The site is built once per version of what goes into it (this package's files, the versions
of flet-web and the browser's packages) into the per-user cache folder, on demand: the first
request for ``/app/`` starts the build in a thread (about half a minute: its Python is
compiled ahead), and until it is there ``/app/`` answers 503 with a line saying so. Two
servers building at once take turns (a lock file in the cache folder): the second finds the
site built. A server nobody asks for ``/app/`` builds nothing. The site holds no match, no code and no
pass: it is served to any browser the server answers (see docs/security.md).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import threading
from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError

__all__ = ["PATH", "PhoneSite", "site_key"]

#: Where the server serves the site.
PATH = "/app"


def site_key() -> str:
    """A hash of what the site is built from: a new one whenever any of it changes."""
    from scorekeeper.site.build import BROWSER_PACKAGES

    h = hashlib.sha256()
    for name in ("flet-web", *BROWSER_PACKAGES):
        h.update(f"{name}={importlib.metadata.version(name)}\n".encode())
    spec = importlib.util.find_spec("scorekeeper")
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent
    for p in sorted(root.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


class PhoneSite:
    """The site at ``/app`` (an ASGI app), built into ``cache`` (default: the per-user cache
    folder) by :meth:`start`."""

    def __init__(self, cache: Path | None = None) -> None:
        if cache is None:
            import platformdirs

            cache = Path(platformdirs.user_cache_dir("scorekeeper", appauthor=False))
        self.folder = cache / f"phone-site-{site_key()}"
        self.problem: str | None = None
        self._files: Any = None
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._started = False

    def start(self) -> None:
        """Serve the site if the cache has it; else build it in a thread (once)."""
        from scorekeeper.site.build import MARK

        with self._lock:
            if self._started:
                return
            self._started = True
        if (self.folder / MARK).is_file():
            self._serve()
        else:
            threading.Thread(target=self._build, name="phone-site", daemon=True).start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the site is served (or could not be built): True when it is served."""
        self._ready.wait(timeout)
        return self._files is not None

    def _build(self) -> None:
        from filelock import FileLock

        from scorekeeper.site.build import MARK, build

        try:
            self.folder.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(self.folder.parent / "phone-site.lock"):  # another server building it: wait for it
                if not (self.folder / MARK).is_file():
                    build(self.folder)
        except (ScorekeeperError, OSError) as e:
            self.problem = f"the phone's app could not be built: {e}"
            self._ready.set()
            return
        self._serve()

    def _serve(self) -> None:
        from starlette.staticfiles import StaticFiles

        self._files = StaticFiles(directory=str(self.folder), html=True)
        self._ready.set()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self._files is None and self.problem is None:
            self.start()  # the first phone that asks starts the build
        if scope["type"] == "http" and self._files is not None:
            await self._files(scope, receive, send)
            return
        if scope["type"] != "http":
            return
        text = (
            self.problem
            or "the phone's app is being prepared (about a minute after the server started): try again soon"
        ) + "\n"
        body = text.encode()
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 503 if self.problem is None else 500, "headers": headers})
        await send({"type": "http.response.body", "body": body})
