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

from scorekeeper.ui.access import Codes, Gate, Invite, is_local, spaced

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


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def welcome(invite: Invite, gate: Gate, host: str, port: int) -> str:
    """What ``scorekeeper web`` prints when it starts: where it is served, how phones join
    (the join address with the table code, and its QR code), the watchers' address."""
    lines = [f"Scorekeeper is served at {invite.base}/  (Ctrl+C stops it)"]
    if host in ("0.0.0.0", "::") or is_local(host):
        lines.append(f"On this machine (the host, no code needed): http://127.0.0.1:{port}/")
    if is_local(host):
        lines.append("It listens on this machine only: phones cannot reach it (serve with --host 0.0.0.0).")
    link = invite.scorer_link
    if gate.codes is None:
        lines.append("Open table (--open): no code is asked; every phone on this network can enter and change.")
    else:
        lines.append(f"Phones join at {link}  (table code {spaced(gate.codes.scorer)})")
    lines.append(qr_text(link))
    if gate.codes is not None:
        lines.append(
            f"Watchers join at {invite.watcher_link}  (watch code {spaced(gate.codes.watcher)}: sees, changes nothing)"
        )
    return "\n".join(lines)


def qr_text(text: str) -> str:
    """``text`` as a QR code drawn with block characters, for a terminal."""
    import io

    import segno

    out = io.StringIO()
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "█▀▄".encode(encoding)
        blocks = True
    except (LookupError, UnicodeEncodeError):
        blocks = False  # a terminal without them: ANSI colours instead
    segno.make(text, error="m").terminal(out=out, compact=blocks, border=2)
    return out.getvalue().rstrip("\n")


def run(
    db: str | None,
    *,
    web: bool,
    host: str | None,
    port: int | None,
    open_browser: bool = False,
    open_table: bool = False,
) -> int:
    """Open the store and run the app until it is stopped; returns the exit status.
    Served on the web, browsers other than the host's own need the table code
    (``open_table``: they do not)."""
    import flet as ft

    from scorekeeper.ui.app import make_main
    from scorekeeper.ui.base import Shared

    served = web or not desktop_available()
    host = host or "127.0.0.1"
    port = port or DEFAULT_PORT
    gate = Gate(None if open_table else Codes.new()) if served else None
    shown = host if host not in ("0.0.0.0", "::") else (_lan_address() or "localhost")
    invite = Invite(f"http://{_url_host(shown)}:{port}", gate.codes) if gate is not None else None
    shared = Shared(db, gate=gate, invite=invite)  # StoreLockedError etc. reach the CLI, which prints one line
    for problem in shared.store.problems:
        print(f"warning: {problem}", file=sys.stderr)
    logging.getLogger("flet").setLevel(logging.WARNING)
    try:
        if served:
            assert gate is not None and invite is not None
            # Serve only: Flet must not try to open a browser or a desktop client itself.
            os.environ["FLET_FORCE_WEB_SERVER"] = "true"
            # FLET_SERVER_*: they would override host and port; FORWARDED_ALLOW_IPS: a proxy
            # trusted for X-Forwarded-For would let any phone claim the host's address.
            for var in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "FORWARDED_ALLOW_IPS"):
                os.environ.pop(var, None)
            _check_port(host, port)
            print(welcome(invite, gate, host, port), flush=True)
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
