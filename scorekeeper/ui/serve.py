"""Starting the app: ``scorekeeper web`` (the web UI for phones and browsers) and
``scorekeeper`` alone (a desktop window where a Flet desktop client is
available, else the web UI opened in the browser).

The web UI is served by Flet's own web server with ``no_cdn=True``: the
Flutter client, CanvasKit and fonts all come from the ``flet-web`` package,
so the app works on a table with no internet.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import sys

DEFAULT_PORT = 8550


def desktop_available() -> bool:
    """True where a Flet desktop client can open a window here (never downloads one)."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _lan_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return None


def _check_port(host: str, port: int) -> None:
    """Refuse a port another program holds, with a clear message (not a server traceback)."""
    from scorekeeper.errors import ScorekeeperError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            raise ScorekeeperError(f"cannot serve on {host}:{port}: {e.strerror or e} (try --port)") from None


def run(db: str | None, *, web: bool, host: str | None, port: int | None, open_browser: bool = False) -> int:
    """Open the store and run the app until it is stopped; returns the exit status."""
    import flet as ft

    from scorekeeper.ui.app import make_main
    from scorekeeper.ui.base import Shared

    shared = Shared(db)  # StoreLockedError etc. reach the CLI, which prints one line
    for problem in shared.store.problems:
        print(f"warning: {problem}", file=sys.stderr)
    logging.getLogger("flet").setLevel(logging.WARNING)
    try:
        if web or not desktop_available():
            host = host or "127.0.0.1"
            port = port or DEFAULT_PORT
            # Serve only: Flet must not try to open a browser or a desktop client itself.
            os.environ["FLET_FORCE_WEB_SERVER"] = "true"
            for var in ("FLET_SERVER_PORT", "FLET_SERVER_IP"):  # they would override host and port
                os.environ.pop(var, None)
            _check_port(host, port)
            shown = host if host not in ("0.0.0.0", "::") else (_lan_address() or "localhost")
            print(f"Scorekeeper is served at http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
            if open_browser and (
                not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            ):
                import threading
                import webbrowser

                threading.Timer(1.5, lambda: webbrowser.open(f"http://127.0.0.1:{port}/")).start()
            ft.run(make_main(shared), view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True)
        else:
            ft.run(make_main(shared), no_cdn=True)
    finally:
        shared.close()
    return 0
