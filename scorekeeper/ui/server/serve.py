"""Starting the app: ``scorekeeper web`` (the web UI for phones and browsers) and
``scorekeeper`` alone (a desktop window where a Flet desktop client is
available, else the web UI opened in the browser).

The web UI is Flet's web app (``flet_web.fastapi``) with ``no_cdn=True``: the
Flutter client, CanvasKit and fonts all come from the ``flet-web`` package,
so the app works on a table with no internet. It is served by Uvicorn here
rather than by ``ft.run`` so that it runs behind :class:`~scorekeeper.ui.server.guard.Guard`
(the Host and Origin checks, the security headers, no API docs) and keeps a
closed session for :data:`SESSION_TIMEOUT` seconds, not Flet's hour.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import logging
import os
import socket
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper import system
from scorekeeper.ui.access.gate import Gate, Invite, is_local, spaced
from scorekeeper.ui.server.fonts import PATH as FONTS
from scorekeeper.ui.server.fonts import patch_fonts

if TYPE_CHECKING:
    from scorekeeper.ui.server.guard import ASGIApp

DEFAULT_PORT = 8550

#: seconds a closed session (a tab closed, a phone gone to sleep) is kept, with its join role,
#: for the tab to come back to; ``FLET_SESSION_TIMEOUT`` in the environment overrides it.
#: Flet sweeps expired sessions every 10 s.
SESSION_TIMEOUT = 300

#: seconds the machine's other addresses are looked for at start (a host name the resolver
#: does not know can take long to be refused): past that, only the join address is printed
ADDRESSES_WAIT = 1.0

#: what ``scorekeeper web`` says on Windows, whose firewall asks the first time a program listens
FIREWALL = (
    "Windows asks once whether Python may accept connections: allow it on private networks"
    " (phones cannot join otherwise)."
)


def desktop_available() -> bool:
    """True where a Flet desktop client can open a window here (never downloads one)."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if system.linux():
        return _has_display()
    return True


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def opens_browser(asked: bool | None) -> bool:
    """Whether ``scorekeeper web`` opens the app in this machine's browser: as ``asked``
    (``--browser``, ``--no-browser``) where there is a screen to open it on; unasked, on
    Windows and macOS (a laptop at the table), not on Linux (often a server without one)."""
    if asked is None:
        return system.windows() or system.macos()
    return asked and (not system.linux() or _has_display())


def _lan_address() -> str | None:
    """The address of the interface with the default route: the one a phone on the same
    network reaches (a route to a documentation address picks it; no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            return str(s.getsockname()[0])
    except OSError:
        return None


def reachable(address: str) -> bool:
    """True for an IPv4 address a phone could reach: not loopback, link-local (169.254/16:
    an interface with no network), unspecified or multicast."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _host_addresses() -> list[str]:
    """The IPv4 addresses this machine's name resolves to (every adapter's on Windows and
    macOS; often only 127.0.1.1 on Linux), waited for :data:`ADDRESSES_WAIT` seconds at most."""
    found: list[str] = []

    def look() -> None:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return
        found.extend(str(info[4][0]) for info in infos)

    t = threading.Thread(target=look, name="addresses", daemon=True)
    t.start()
    t.join(ADDRESSES_WAIT)
    return list(found) if not t.is_alive() else []


def lan_addresses(primary: str | None, others: Iterable[str]) -> list[str]:
    """The addresses to print: ``primary`` (the default route's) first, then the reachable
    ``others`` in their order, each once.

    >>> lan_addresses("192.168.1.20", ["127.0.1.1", "10.8.0.2", "192.168.1.20", "169.254.3.4", "10.8.0.2"])
    ['192.168.1.20', '10.8.0.2']
    """
    out: list[str] = []
    for address in (primary, *others):
        if address and reachable(address) and address not in out:
            out.append(address)
    return out


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


def welcome(invite: Invite, gate: Gate, host: str, port: int, others: Sequence[str] = ()) -> str:
    """What ``scorekeeper web`` prints when it starts: where it is served, how phones join
    (the join address with the table code, and its QR code), the machine's ``others``
    addresses (another network card, a VPN, a virtual machine's adapter: the join address is
    the default route's), the watchers' address; on Windows, what its firewall asks."""
    lines = [f"Scorekeeper is served at {invite.base}/  (Ctrl+C stops it)"]
    if host in ("0.0.0.0", "::") or is_local(host):
        lines.append(f"On this machine (the host, no code needed): http://127.0.0.1:{port}/")
    if is_local(host):
        lines.append("It listens on this machine only: phones cannot reach it (serve with --host 0.0.0.0).")
    link = invite.scorer_link
    if gate.codes is None:
        lines.append("Open table (--open): no code is asked; every phone on this network can enter and change.")
    else:
        lines.append(f"Phones join at {link}  (table code {spaced(gate.codes.scorer)}, typed at {invite.base}/)")
    if others:
        where = "  ".join(f"http://{_url_host(a)}:{port}/" for a in others)
        typed = " (the table code is typed there)" if gate.codes is not None else ""
        lines.append(f"This machine's other addresses, for a phone on another of its networks: {where}{typed}")
    if gate.codes is not None and len(gate.passes):
        lines.append(
            f"The same codes as earlier this evening: {len(gate.passes)} phone(s) that joined come back"
            " without a code (--new-codes ends that)."
        )
    lines.append(qr_text(link))
    if gate.codes is not None:
        lines.append(
            f"Watchers join at {invite.watcher_link}  (watch code {spaced(gate.codes.watcher)}: sees, changes nothing)"
        )
    if system.windows() and not is_local(host):
        lines.append(FIREWALL)
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
    open_browser: bool | None = False,
    open_table: bool = False,
    new_codes: bool = False,
    allow_hosts: Iterable[str] = (),
) -> int:
    """Open the store and run the app until it is stopped; returns the exit status.
        Served on the web, browsers other than the host's own need the table code
        (``open_table``: they do not; the codes and the phones' passes of earlier this evening
    are kept unless ``new_codes``: see :mod:`scorekeeper.ui.access.passes`); the server answers to the names in ``allow_hosts``
        besides loopback and this machine's addresses (see :mod:`scorekeeper.ui.server.guard`).
        ``open_browser``: see :func:`opens_browser` (None: as the system goes)."""
    import flet as ft

    from scorekeeper.ui.app.main import make_main
    from scorekeeper.ui.server.shared import open_shared
    from scorekeeper.ui.server.strangers import STRANGERS

    served = web or not desktop_available()
    host = host or "127.0.0.1"
    port = port or DEFAULT_PORT
    shared = open_shared(db)  # StoreLockedError etc. reach the CLI, which prints one line
    for problem in shared.store.problems:
        print(f"warning: {problem}", file=sys.stderr)
    gate: Gate | None = None
    if served:
        # this evening's codes and passes, kept beside the matches (the store's lock is held)
        gate = Gate(None) if open_table else Gate.kept(shared.store, new=new_codes)
        if gate.problem:
            print(f"warning: {gate.problem}", file=sys.stderr)
    everywhere = host in ("0.0.0.0", "::")
    addresses = lan_addresses(_lan_address(), _host_addresses()) if everywhere else []
    shown = host if not everywhere else (addresses[0] if addresses else "localhost")
    invite = Invite(f"http://{_url_host(shown)}:{port}", gate) if gate is not None else None
    shared.gate, shared.invite = gate, invite
    logging.getLogger("flet").setLevel(logging.WARNING)
    from scorekeeper.league.club import start_pusher

    pusher = start_pusher(shared.store.path)  # a laptop linked to a league sends its sheets
    try:
        if served:
            assert gate is not None and invite is not None
            # FLET_SERVER_*: Flet's overrides of host and port (not used here; never passed on);
            # FORWARDED_ALLOW_IPS: a proxy trusted for X-Forwarded-For would let any phone claim
            # the host's address.
            for var in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "FORWARDED_ALLOW_IPS"):
                os.environ.pop(var, None)
            timeout = session_timeout()
            _check_port(host, port)
            from scorekeeper.ui.server.inbox import Inbox
            from scorekeeper.ui.server.phone_site import PhoneSite

            site = PhoneSite()  # the phone's site (/app/): built when a phone first asks for it
            app = web_app(
                make_main(shared, strangers=STRANGERS.arrive),
                port=port,
                hosts=[host, shown, *allow_hosts],
                timeout=timeout,
                site=site,
                inbox=Inbox(shared),
                gate=gate,
            )
            print(welcome(invite, gate, host, port, others=addresses[1:]), flush=True)
            if opens_browser(open_browser):
                import webbrowser

                threading.Timer(1.5, lambda: webbrowser.open(f"http://127.0.0.1:{port}/")).start()
            _serve(app, host, port)
        else:
            ft.run(make_main(shared), no_cdn=True)
    finally:
        if pusher is not None:
            pusher.stop()
        shared.close()
    return 0


def session_timeout() -> int:
    """Seconds a closed session is kept: ``FLET_SESSION_TIMEOUT`` if the environment sets it,
    else :data:`SESSION_TIMEOUT`."""
    from scorekeeper.errors import ScorekeeperError

    raw = os.environ.get("FLET_SESSION_TIMEOUT", "").strip()
    if not raw:
        return SESSION_TIMEOUT
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise ScorekeeperError(f"FLET_SESSION_TIMEOUT must be a whole number of seconds, not {raw!r}")
    return value


def web_app(
    main: Any,
    *,
    port: int,
    hosts: Iterable[str] = (),
    timeout: int = SESSION_TIMEOUT,
    site: Any = None,
    inbox: Any = None,
    gate: Gate | None = None,
) -> ASGIApp:
    """The app as served by ``scorekeeper web``: Flet's web app (its client from the
    ``flet-web`` package, ``no_cdn``) at ``/``, without FastAPI's API docs, the phone's
    site at ``/app/`` (``site``: a :class:`~scorekeeper.ui.server.phone_site.PhoneSite`) and
    the matches phones send at ``/matches`` (``inbox``: an :class:`~scorekeeper.ui.server.inbox.Inbox`,
    the one path that takes a request body), behind :class:`~scorekeeper.ui.server.guard.Guard`
    (``hosts``, ``port``, ``gate``: see there), keeping a closed session ``timeout`` seconds."""
    import flet_web.fastapi as flet_fastapi  # type: ignore[import-untyped]
    from flet_web import get_package_web_dir

    from scorekeeper.ui.server import transport
    from scorekeeper.ui.server.guard import SITE, Guard

    transport.install()  # no message written out for a debug line nobody reads
    outer = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)  # its lifespan runs Flet's sweeper
    bodies: dict[str, tuple[int, str]] = {}
    if site is not None:  # before Flet's app, which answers every other path
        from starlette.responses import RedirectResponse

        outer.add_route(SITE, lambda request: RedirectResponse(f"{SITE}/", status_code=308))  # links are relative
        outer.mount(SITE, site)
    if inbox is not None:
        from scorekeeper.ui.server.inbox import LIMIT, TOO_LARGE
        from scorekeeper.ui.server.inbox import PATH as INBOX

        outer.add_route(INBOX, inbox)  # an ASGI app at exactly this path, every method (it answers 405 itself)
        bodies[INBOX] = (LIMIT, TOO_LARGE)
    outer.add_route(FONTS, _font_list(Path(get_package_web_dir()) / "assets" / "FontManifest.json"))
    # (Flet's own app inside builds its FastAPI with the docs on: the Guard answers 404 for them.)
    outer.mount("/", flet_fastapi.app(main, no_cdn=True, session_timeout_seconds=timeout))
    return Guard(outer, hosts=hosts, port=port, gate=gate, bodies=bodies)


def _font_list(flets: Path) -> Any:
    """The route of Flutter's font list: flet-web's ``flets``, patched once (see
    :mod:`scorekeeper.ui.server.fonts`)."""
    from starlette.responses import Response

    body = patch_fonts(flets.read_bytes())

    def font_list(request: Any) -> Response:
        return Response(body, media_type="application/json")

    return font_list


#: The cyclic garbage collector's thresholds while the app serves (Python's own are 700, 10,
#: 10): a young collection every 20,000 new objects, a middle one every 20 of those, a full
#: collection only every 100 middle ones. A full collection walks every phone's screen (with
#: 64 phones, 200-350 ms in which no phone is answered) and finds little (1,000-3,000
#: objects: the cycles a redraw leaves are nearly all caught young); Python's 10 made one
#: every 4 s at a club's pace of 16 tables, about a sixth of the server's CPU and most of the
#: slow taps (``tools/loadtest/capacity.py`` prints the collector's share of every step).
#: Young collections every 700 objects (Python's) ran several times in each phone's redraw
#: and walked the controls it was still making, again in the middle ones: 300 collections
#: in 30 s at 8 tables, 7-12 % of the server's CPU and still a full one in 30 s at 16;
#: every 5,000, 22-25 collections, 3-6 % and none (the middle ones are longer: 32-68 ms,
#: not 13-26; issue 49, docs/benchmarks.md, "The fifth round"). The count Python keeps is
#: the objects made less those freed, so a redraw that frees its screen's last controls as it
#: makes the new ones adds little: every 5,000 still made 52 collections in 45 s at 16 tables
#: once the redraws were cheaper (7-8 % of the server's CPU, the longest 67-92 ms), every
#: 20,000 none, the server's memory the same (110 MB against 108; "The eighth round").
GC_THRESHOLDS = (20000, 20, 100)


def freeze_startup_heap() -> None:
    """Put what starting made (the modules, the app, the store) out of the cyclic garbage
    collector's sight: its full collections then walk only what the sessions made since.
    Every Flet redraw makes thousands of objects, so with a dozen phones a full collection
    comes every few entries and holds every phone up (measured: 50-80 ms, half that frozen;
    ``tools/loadtest/broadcast.py``). Nothing made at startup was going to be freed anyway.
    Then full collections are made rarer (:data:`GC_THRESHOLDS`)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def stop_signals() -> list[int]:
    """The signals that stop the server quietly: Ctrl+C's (SIGINT) and SIGTERM everywhere,
    and Ctrl+Break's (SIGBREAK) where there is one (Windows)."""
    import signal

    names = ("SIGINT", "SIGTERM", "SIGBREAK")
    return [getattr(signal, name) for name in names if hasattr(signal, name)]


def _serve(app: ASGIApp, host: str, port: int) -> None:
    """Serve ``app`` until Ctrl+C or SIGTERM, which stop it quietly (status 0), as ``ft.run`` did."""
    import asyncio
    import signal

    import uvicorn

    from scorekeeper.ui.server.bounds import (
        BACKLOG,
        ConnectionBook,
        Limits,
        http_protocol,
        quiet_floods,
        raise_open_file_limit,
    )
    from scorekeeper.ui.server.messages import MAX_MESSAGE

    level = os.environ.get("FLET_LOG_LEVEL", "").strip().upper()  # what ft.run made of it
    if level and isinstance(logging.getLevelName(level), int):
        logging.basicConfig(level=logging.getLevelName(level))
    raise_open_file_limit()
    book = ConnectionBook(Limits.for_this_process())
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=http_protocol(book),  # headers in time, connections per client and in all: see bounds
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE,
        # no per-message compression: a redraw is a few kB on the club's own network, and
        # compressing each for every phone was a few per cent of the server's CPU
        ws_per_message_deflate=False,
        backlog=BACKLOG,
        server_header=False,
        timeout_graceful_shutdown=5,
    )
    quiet_floods()  # after the Config, which sets Uvicorn's loggers up
    server = uvicorn.Server(config)

    def stop(signum: int, frame: Any) -> None:
        # Uvicorn puts its own handler in place while it serves, and calls this one again once
        # it has stopped; before that, it must not start.
        server.should_exit = True

    main_thread = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, stop) for sig in stop_signals()} if main_thread else {}
    freeze_startup_heap()
    try:
        asyncio.run(server.serve())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
