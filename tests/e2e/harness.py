"""Playwright harness for driving a Flet 1.0.5 web app in Debian's Chromium.

Plain synchronous helpers (no pytest fixtures here; wrap them in a conftest).
Everything was worked out by experiment on Flet 1.0.5 / Chromium (Debian) /
Playwright sync API; see the spike's FINDINGS.md for the evidence.

How a Flet web page looks to Playwright
---------------------------------------
Flutter paints everything on a canvas.  The DOM only gets an accessibility
("semantics") tree after ``enable_semantics`` clicks the off-screen
``<flt-semantics-placeholder>``.  After that every control is an
``<flt-semantics>`` element under ``<flt-semantics-host>``:

* ``ft.Button("Play")``            -> ``role=button`` whose text is ``Play``
* ``ft.IconButton(tooltip="Undo")``-> wrapper ``aria-label="Undo"`` around an
  *unnamed* ``role=button`` (so ``get_by_role("button", name="Undo")`` fails)
* ``ft.Semantics(label=L, button=True, content=...)`` -> ``role=button`` whose
  name is ``L`` followed by a newline and the child texts (use
  ``exclude_semantics=True`` in the app to get exactly ``L``)
* ``ft.Text("15!")``               -> ``<span>15!</span>`` (no role, no label;
  ``semantics_label="x"`` replaces the span text with ``x``)
* ``ft.TextField(label="Name")``   -> ``<input aria-label="Name">``
  (role textbox; ``Locator.fill`` works)
* ``ft.Semantics(identifier="x")`` -> attribute ``flt-semantics-identifier="x"``
  (``launch_browser`` makes ``page.get_by_test_id("x")`` use it)

Timeouts are in **seconds** in this module (Playwright itself uses ms).
Measured on a 2-core box: server ready ~0.7 s, page load to usable
semantics tree ~2-2.5 s (``page.reload`` ~1 s), click to new text in the DOM
~40 ms median / ~85 ms p95 in-page (~105 / ~180 ms as seen from Python).  The defaults below leave
a wide margin for a loaded CI machine.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from re import Pattern

from . import profiles

CHROMIUM = "/usr/bin/chromium"

#: Flags for Debian's Chromium.  ``--host-resolver-rules`` makes every host
#: except localhost unresolvable, so a stray CDN request (Flet 1.0.5's wasm
#: build always asks cdn.jsdelivr.net for ``rive_native.js``, even with
#: ``no_cdn=True``) fails at once instead of waiting on DNS, and nothing
#: leaves the machine even when a network is present.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]

#: Default viewport: a mid-size Android phone (Pixel 7-ish CSS pixels).
PHONE_VIEWPORT = {"width": 412, "height": 915}

SERVER_START_TIMEOUT = 60.0  # process start -> HTTP 200 on "/"
APP_LOAD_TIMEOUT = 60.0  # goto -> semantics tree populated (measured 2-5 s)
ACTION_TIMEOUT = 10.0  # a click / wait for a text (measured < 0.2 s)

# Flet reads these and they override the command line: FLET_SERVER_PORT /
# FLET_SERVER_IP replace port/host given to ft.run(), so they are removed
# from the child environment.  FLET_FORCE_WEB_SERVER=1 keeps Flet in web
# server mode and stops it opening a browser even when DISPLAY is set
# (without DISPLAY on Linux Flet forces that mode anyway).
_FLET_ENV_DROP = ("FLET_SERVER_PORT", "FLET_SERVER_IP", "FLET_DISPLAY_URL_PREFIX")
_FLET_ENV_SET = {"FLET_FORCE_WEB_SERVER": "1", "PYTHONUNBUFFERED": "1"}

# JavaScript returning every visible string in the semantics tree, in DOM
# (roughly reading) order: aria-labels, text of <span>s (ft.Text), direct
# text of nodes (button captions, Semantics labels, split on newlines) and
# <input> labels and values (prefixed "label: ").
_READ_TEXTS_JS = r"""
() => {
  const out = [];
  const host = document.querySelector('flt-semantics-host');
  if (!host) return out;
  const push = (s) => { if (s != null) { s = String(s).trim(); if (s) out.push(s); } };
  for (const el of host.querySelectorAll('flt-semantics, span, input')) {
    if (el.tagName === 'SPAN') { push(el.textContent); continue; }
    if (el.tagName === 'INPUT') {
      push(el.getAttribute('aria-label'));
      if (el.value) push(el.value);
      continue;
    }
    push(el.getAttribute('aria-label'));
    for (const n of el.childNodes) {
      if (n.nodeType === Node.TEXT_NODE) {
        for (const line of n.textContent.split('\n')) push(line);
      }
    }
  }
  return out;
}
"""


# --------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------


def free_port() -> int:
    """Return a TCP port that is free on 127.0.0.1 right now (small race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    cmd: list[str],
    port: int,
    env: dict | None = None,
    timeout: float = SERVER_START_TIMEOUT,
    cwd: str | None = None,
) -> subprocess.Popen:
    """Start a Flet web server command and wait until ``/`` answers 200.

    ``cmd`` must make the app listen on 127.0.0.1:``port`` (e.g.
    ``[sys.executable, "-m", "scorekeeper.cli", "--db", DIR, "web",
    "--host", "127.0.0.1", "--port", str(port)]``).  ``env`` entries are
    added to (a cleaned copy of) ``os.environ``.  stdout+stderr go to a temp
    log file, readable with ``server_log(proc)``.  The process is started in
    its own process group so ``stop_server`` can end it and any children.

    Raises RuntimeError (with the server output) if the process exits or
    ``/`` does not answer 200 within ``timeout`` seconds.
    """
    child_env = {k: v for k, v in os.environ.items() if k not in _FLET_ENV_DROP}
    child_env.update(_FLET_ENV_SET)
    if env:
        child_env.update(env)
    log = tempfile.NamedTemporaryFile(prefix=f"flet-server-{port}-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        cmd,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=child_env,
        cwd=cwd,
        start_new_session=True,
    )
    log.close()
    proc.log_path = log.name  # type: ignore[attr-defined]
    proc.url = f"http://127.0.0.1:{port}/"  # type: ignore[attr-defined]

    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"server exited with code {proc.returncode} before answering "
                f"on port {port}; cmd={cmd!r}\n--- server output ---\n" + server_log(proc)
            )
        try:
            with urllib.request.urlopen(proc.url, timeout=2) as resp:  # type: ignore[attr-defined]
                if resp.status == 200:
                    return proc
        except (TimeoutError, urllib.error.URLError, ConnectionError, OSError):
            pass
        if time.monotonic() > deadline:
            out = server_log(proc)
            stop_server(proc)
            raise RuntimeError(
                f"server did not answer 200 on {proc.url} within {timeout}s; "  # type: ignore[attr-defined]
                f"cmd={cmd!r}\n--- server output ---\n{out}"
            )
        time.sleep(0.1)


def server_log(proc: subprocess.Popen) -> str:
    """Return everything the server wrote to stdout/stderr so far."""
    path = getattr(proc, "log_path", None)
    if not path or not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def stop_server(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """Stop a server from ``start_server``: SIGTERM its process group, wait,
    then SIGKILL if it is still there after ``timeout`` seconds.  Flet handles
    SIGTERM gracefully (closes the uvicorn server). Windows has no process groups to
    signal: the process itself is terminated there."""
    if proc.poll() is None and not hasattr(os, "killpg"):
        proc.terminate()
        proc.wait(timeout=timeout)
        return
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # group id == pid (new session)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=timeout)


# --------------------------------------------------------------------------
# Browser
# --------------------------------------------------------------------------


def launch_browser(playwright, headless: bool = True, **context_kwargs):
    """Launch Debian's Chromium and open a context; return (browser, context).

    ``context_kwargs`` go to ``browser.new_context`` (e.g.
    ``color_scheme="dark"``, ``device_scale_factor=2``, ``viewport=...``).
    Default viewport is ``PHONE_VIEWPORT`` (412x915).  Also makes
    ``page.get_by_test_id`` use ``flt-semantics-identifier`` (set by
    ``ft.Semantics(identifier=...)``) and records every request to a host
    other than localhost in ``context.external_requests`` (see
    ``external_requests``).
    """
    playwright.selectors.set_test_id_attribute("flt-semantics-identifier")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=headless)
    browser.playwright = playwright  # to launch more (e.g. netns.remote_browser), as the e2e fixture does
    return browser, new_context(browser, **context_kwargs)


#: What the pages ask for unless told (see ``new_context``): "reduce" for the tests; the
#: benchmarks set "no-preference", what most phones have, unless asked otherwise.
MOTION = "reduce"


def new_context(browser, **context_kwargs):
    """A browser context with the phone viewport (unless given), the action
    timeout, and every request that tries to leave localhost recorded (see
    ``external_requests``).

    The page asks for reduced motion (``MOTION``, unless ``reduced_motion=`` is given),
    as a phone with "Remove animations" on does: Flutter then skips its ink ripples and
    transitions, which are most of the frames a test's taps cost (a tile tap: 3 frames instead
    of 8-24; a new match: 27 instead of 101), and frames are what this 2-core machine spends
    its time on. Tests about what moves (the picker holding still) ask for the full motion."""
    context_kwargs.setdefault("viewport", dict(PHONE_VIEWPORT))
    context_kwargs.setdefault("reduced_motion", MOTION)
    pool = getattr(browser, "profiles", None)  # see e2e/profiles.py: the tests' browser has one
    asked = {k for k, v in context_kwargs.items() if not (k == "accept_downloads" and v is True)}  # (a profile does)
    if pool is not None and asked <= profiles.POOLED_OPTIONS:
        context = pool.lend(context_kwargs["viewport"], context_kwargs["reduced_motion"])
    else:
        context = browser.new_context(**context_kwargs)
        context.set_default_timeout(ACTION_TIMEOUT * 1000)
    context.external_requests = []  # type: ignore[attr-defined]

    def _on_request(req):
        if not re.match(r"^(https?|wss?)://(127\.0\.0\.1|localhost)[:/]|^(data|blob):", req.url):
            context.external_requests.append(req.url)  # type: ignore[attr-defined]

    context.on("request", _on_request)
    return context


def external_requests(context) -> list[str]:
    """URLs of requests that tried to leave localhost (they are made to fail
    by ``--host-resolver-rules``).  With Flet 1.0.5 and ``no_cdn=True`` the
    only one is ``https://cdn.jsdelivr.net/.../rive_native.js`` (hard-coded in
    the wasm build; harmless unless the app uses Rive)."""
    return list(getattr(context, "external_requests", []))


def open_app(context, url: str, timeout: float = APP_LOAD_TIMEOUT, on_page=None):
    """Open ``url`` in a new page, wait for the Flutter app, enable semantics
    and wait until the semantics tree has content.  Returns the Page.
    ``on_page(page)`` runs before the page loads (to listen to its websocket, say).

    Browser console errors are collected in ``page.console_errors``.
    """
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on(
        "console",
        lambda m: page.console_errors.append(m.text) if m.type == "error" else None,  # type: ignore[attr-defined]
    )
    if on_page is not None:
        on_page(page)
    page.goto(url, timeout=timeout * 1000)
    enable_semantics(page, timeout=timeout)
    return page


def enable_semantics(page, timeout: float = APP_LOAD_TIMEOUT) -> None:
    """Turn on Flutter's semantics tree and wait until the Flet page is in it.

    The placeholder sits at (-1,-1) with 1x1 size, so ``Locator.click`` fails
    ("outside of the viewport") and ``force=True`` does not help; a DOM click
    (``dispatch_event("click")``) works.  It is retried because a click that
    lands before the engine is ready can be lost.  "Ready" means: the tree
    holds at least one string (``read_texts``) - Flutter briefly shows
    text-less nodes (Flet's connecting spinner) first - and then has been
    quiet for 0.3 s.  Safe to call twice.
    """
    deadline = time.monotonic() + timeout
    has_text = "() => (" + _READ_TEXTS_JS + ")().length > 0"
    placeholder = page.locator("flt-semantics-placeholder")
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"Flutter semantics tree did not appear within {timeout}s at {page.url}")
        if page.evaluate(has_text):
            break
        if placeholder.count():
            try:
                placeholder.dispatch_event("click", timeout=1000)
            except Exception:  # detached between count() and click
                pass
        try:
            page.wait_for_function(has_text, polling=50, timeout=min(remaining, 1) * 1000)
            break
        except Exception:
            continue  # not there yet: click the placeholder again if present
    wait_idle(page, quiet=0.3, timeout=max(1.0, deadline - time.monotonic()))


def reload(page, new_session: bool = False, timeout: float = APP_LOAD_TIMEOUT) -> None:
    """Reload the page and re-enable semantics.

    By default Flet *reattaches the existing server session*: the tab's
    ``sessionStorage["_flet_session_id"]`` is sent again, ``main()`` does NOT
    run again and all in-memory state survives (sessions live for
    FLET_SESSION_TIMEOUT, 300 s by default, after disconnect).  With ``new_session=True``
    sessionStorage is cleared first, so the server starts a fresh session and
    runs ``main()`` with ``page.route`` taken from the URL - what a user
    opening the link in a new tab gets.
    """
    if new_session:
        # Cleared now and again as the new document starts (before Flet's client reads it):
        # cleared only now, the id was seen written back as the page unloaded, on a loaded
        # machine, and the "new" session was the old one reattached.
        if not getattr(page, "_sk_new_session_script", False):
            page.add_init_script(_NEW_SESSION_JS)
            page._sk_new_session_script = True
        page.evaluate("() => { sessionStorage.clear(); window.name = 'sk-new-session'; }")
    page.reload(timeout=timeout * 1000)
    enable_semantics(page, timeout=timeout)


#: Run at the start of every document of a page that once asked ``reload(new_session=True)``:
#: clears the tab's sessionStorage only on the load that asked (``window.name`` survives it).
_NEW_SESSION_JS = "if (window.name === 'sk-new-session') { sessionStorage.clear(); window.name = ''; }"


def go_to(page, route: str, expect: TextMatch | None = None, timeout: float = ACTION_TIMEOUT) -> None:
    """Open ``route`` (e.g. ``/table/<id>``) in the running app, as its own links do: the
    browser's history moves and the app's router follows, with no page load (a load costs
    this 2-core machine about 5 CPU-seconds: the engine compiled and every screen drawn
    again; this, a fraction of one). Waits for ``expect`` (as in ``wait_text``), or for the
    page to be quiet.

    When ``expect`` shows already (from one match's table to another's, both can say "Hand
    1, Ann to play"), it is looked for only once the screen has changed since the route was
    pushed (or after 3 s, for a route that draws what was there): a tap made while the old
    table still showed was lost as the new one replaced it (seen once in a whole run)."""
    ambiguous = expect is not None and page.evaluate(_SHOWN_JS, _text_arg(expect, 0))
    page.evaluate(
        "([r, ms]) => new Promise((resolve) => {"
        " const obs = new MutationObserver(() => { obs.disconnect(); clearTimeout(limit); resolve(true); });"
        " let limit;"
        " if (location.pathname + location.search === r) { ms = 0; }"  # already there: nothing will change
        " if (ms > 0) { obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true}); }"
        " limit = setTimeout(() => { obs.disconnect(); resolve(false); }, ms);"
        " history.pushState(null, '', r);"
        " window.dispatchEvent(new PopStateEvent('popstate', {state: history.state})); })",
        [route, 3000 if ambiguous else 0],
    )
    if expect is not None:
        wait_text(page, expect, timeout=timeout)
    wait_idle(page, quiet=0.15, timeout=timeout)


def record_sent(page) -> None:
    """Keep every websocket frame ``page`` sends in ``page.sent`` (give it to :func:`open_app`
    as ``on_page``, so the app's own socket is recorded from its start); :func:`resize` needs it."""
    page.sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: page.sent.append(frame)))


def resize(page, width: int, height: int) -> None:
    """Resize ``page`` (opened with ``on_page=record_sent``) and wait until it has sent the
    server its ``resize`` event with the new size (Flet's msgpack: the width and height as
    doubles, or as integers): the screens opened after it are laid out by the server for this
    size (its events are handled in order), and a tap is not lost to a layout on its way."""

    def packed(n: int) -> tuple[bytes, ...]:
        return (b"\xcb" + struct.pack(">d", float(n)), b"\xcd" + struct.pack(">H", n))

    def told(frame) -> bool:
        data = frame if isinstance(frame, bytes) else str(frame).encode()
        return b"resize" in data and any(w in data for w in packed(width)) and any(h in data for h in packed(height))

    seen = len(page.sent)
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height], polling=50
    )
    for _ in range(int(3 * ACTION_TIMEOUT / 0.05)):  # (seen 2 s after the resize on a loaded machine)
        if any(told(f) for f in page.sent[seen:]):
            return
        page.wait_for_timeout(50)  # (Playwright delivers the frame events while it waits)
    raise AssertionError(f"the page never told the server its size {width}x{height}: {page.sent[seen:]!r}")


# --------------------------------------------------------------------------
# Finding and driving controls
# --------------------------------------------------------------------------


def button(page, name: str):
    """Locator for a clickable control called ``name``.  Matches any of:

    * a ``role=button`` whose accessible name is exactly ``name``
      (``ft.Button("Play")``, ``ft.TextButton``, dialog actions, dropdown
      menu options, ``ft.Semantics(label=name, button=True,
      exclude_semantics=True)``);
    * the button inside a tooltip wrapper ``aria-label=name``
      (``ft.IconButton(icon=..., tooltip=name)``, ``ft.Button(content=...,
      tooltip=name)``);
    * a ``role=button`` whose text starts with ``name`` + newline
      (``ft.Semantics(label=name, button=True, content=ft.Text(...))``).

    Stays strict: if two controls match, Playwright raises on use.
    """
    exact = page.get_by_role("button", name=name, exact=True)
    tooltip = page.locator(f"flt-semantics[aria-label={_css_str(name)}] [role=button]")
    labelled = page.locator("flt-semantics[role=button]").filter(has_text=re.compile("^" + re.escape(name) + r"\n"))
    return exact.or_(tooltip).or_(labelled)


def button_starting(page, prefix: str):
    """Locator for the one clickable control whose name starts with ``prefix`` (e.g. an end
    of the All Fives drawing, ``set 6-2 on 2-2: count 12, scores 0``)."""
    return page.locator(f"flt-semantics[role=button][aria-label^={_css_str(prefix)}]").or_(
        page.locator("flt-semantics[role=button]").filter(has_text=re.compile("^" + re.escape(prefix)))
    )


def click(page, name: str, timeout: float = ACTION_TIMEOUT, dom: bool = False) -> None:
    """Click the control ``button(page, name)``.

    Default is a real mouse click (Playwright scrolls the node into view -
    Flutter then scrolls its own scroll view - and refuses if something such
    as a SnackBar covers it, like a user would be blocked).  ``dom=True``
    sends a DOM click to the semantics node instead: Flutter turns that into
    a tap action even when the node is off-screen or covered.
    """
    loc = button(page, name)
    if dom:
        loc.dispatch_event("click", timeout=timeout * 1000)
    else:
        loc.click(timeout=timeout * 1000)


def fill(page, label: str, value: str, timeout: float = ACTION_TIMEOUT, retype_last: bool = False) -> None:
    """Replace the text of ``ft.TextField(label=label)`` with ``value``.

    ``Locator.fill`` works on the semantics ``<input aria-label=label>`` but
    the *first* input after focusing is lost: Flutter attaches its editing
    state to the input ~15-40 ms after focus and overwrites what was typed
    before (on a loaded machine, seen later than 150 ms: the text pasted before
    was imported).  So: click (focus), wait for the page to be quiet, fill, let it
    settle 0.15 s, check the DOM value, and again once the page is quiet; retry until
    ``timeout``.

    Flutter can also miss the fill without overwriting it: the DOM then shows the text and
    the app never had it (seen once in CI, right after a file chooser: an Import acted on the
    record pasted before). ``retype_last``: once the DOM holds the text, its last character
    is typed again by key, as Flutter reads the whole field at each key it handles -- only for
    a field whose app does nothing with the text until a button is tapped (the app sees the
    text one character short for a moment).

    App-side gotcha: in an ``@ft.component`` the TextField must be
    *controlled* (``value=state``); an uncontrolled field is reset to empty
    whenever its component re-renders (e.g. because its own ``on_change``
    set state) - this function then fails after ``timeout``.
    """
    loc = page.get_by_role("textbox", name=label, exact=True)
    loc.click(timeout=timeout * 1000)
    wait_idle(page, quiet=0.1)  # the focus taken (a busy machine can take longer than 40 ms)
    deadline = time.monotonic() + timeout
    while True:
        loc.fill(value, timeout=timeout * 1000)
        page.wait_for_timeout(150)
        got = loc.input_value()
        if got == value:
            wait_idle(page, quiet=0.1)
            got = loc.input_value()  # and it stayed (not overwritten by a late attach)
            if got == value and value and retype_last:
                page.keyboard.press("Control+End")  # the last character again, by key
                page.keyboard.press("Backspace")
                page.keyboard.type(value[-1])
                page.wait_for_timeout(100)
                wait_idle(page, quiet=0.1)
                got = loc.input_value()
            if got == value:
                return
        if time.monotonic() > deadline:
            raise AssertionError(
                f"text field {label!r} holds {got!r} after fill({value!r}); is it a controlled TextField (value=state)?"
            )


def by_id(page, identifier: str):
    """Locator for ``ft.Semantics(identifier=identifier, ...)`` (the node gets
    ``flt-semantics-identifier``); the most stable hook for tests."""
    return page.locator(f"[flt-semantics-identifier={_css_str(identifier)}]")


def read_texts(page) -> list[str]:
    """All strings currently in the semantics tree, in DOM order: Text
    values, button captions, aria-labels (tooltips, checkbox/switch labels,
    Semantics labels), text-field labels and values.  Only what Flutter keeps
    in the tree: everything of a non-lazy scrolling Column, but only the
    built (visible + cache extent) items of a ListView; a modal dialog hides
    the page behind it."""
    return page.evaluate(_READ_TEXTS_JS)


TextMatch = str | Pattern[str]


def _text_arg(text: TextMatch, timeout: float) -> dict:
    """``text`` (and a timeout) as the argument of ``_SHOWN_JS`` and ``wait_text``'s script."""
    if isinstance(text, str):
        return {"s": text.strip(), "re": None, "flags": "", "ms": int(timeout * 1000)}
    flags = ("i" if text.flags & re.IGNORECASE else "") + ("m" if text.flags & re.MULTILINE else "")
    return {"s": None, "re": text.pattern, "flags": flags, "ms": int(timeout * 1000)}


#: Whether the text of ``_text_arg`` shows now (as ``wait_text`` looks for it).
_SHOWN_JS = (
    "(a) => { const texts = (" + _READ_TEXTS_JS + ")();"
    " const r = a.re === null ? null : new RegExp(a.re, a.flags);"
    " return r ? texts.some(t => r.test(t)) : texts.includes(a.s); }"
)


def wait_text(page, text: TextMatch, timeout: float = ACTION_TIMEOUT, gone: bool = False) -> None:
    """Wait until some semantics string (see ``read_texts``) equals ``text``
    (a str, whole-string match after trimming) or matches ``text`` (a
    compiled regex; JavaScript ``RegExp.test`` semantics, so keep it simple);
    with ``gone``, until none does (a screen left, not only one shown over it).
    Looks again whenever the page's tree changes (once a frame at most, while Flutter
    draws) and every 100 ms (a text field's value changes no node), not on a fixed
    20 ms poll: reading the whole tree fifty times a second took CPU from the very
    page being waited on.  Once shown, it returns 20 ms later (no sooner than that poll
    did), so a screen Flutter completes in the next frame is whole when the caller reads it.
    Raises TimeoutError with the current texts on failure."""
    arg = {**_text_arg(text, timeout), "gone": gone}
    js = (
        "(a) => new Promise((resolve) => { const shown = () => (" + _SHOWN_JS + ")(a) !== a.gone;"
        " if (shown()) { resolve(true); return; }"
        " const end = (ok) => { obs.disconnect(); clearInterval(poll); clearTimeout(limit); resolve(ok); };"
        " const look = () => { if (shown()) { obs.disconnect(); clearInterval(poll); setTimeout(() => end(true), 20); } };"
        " const obs = new MutationObserver(look);"
        " obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});"
        " const poll = setInterval(look, 100);"
        " const limit = setTimeout(() => end(shown()), a.ms); })"
    )
    if not page.evaluate(js, arg):
        what = "still shown after" if gone else "not shown within"
        raise TimeoutError(f"text {text!r} {what} {timeout}s; texts now: {read_texts(page)!r}")


def scroll_until(page, text: TextMatch, over=None, step: int = 400, max_steps: int = 40) -> None:
    """Scroll with the mouse wheel until ``text`` (as in ``wait_text``) is in
    the semantics tree.  Needed for lazy lists (``ft.ListView``, ``ft.GridView``):
    items that are not built are simply absent from the tree, so a locator
    cannot scroll to them.  (A non-lazy ``ft.Column(scroll=...)`` keeps all
    children in the tree and ``click`` scrolls by itself.)  ``over`` is a
    Locator inside the scrollable (default: the viewport centre); use a
    negative ``step`` to scroll up."""
    if over is not None:
        box = over.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    else:
        vp = page.viewport_size or PHONE_VIEWPORT
        x, y = vp["width"] / 2, vp["height"] / 2
    page.mouse.move(x, y)
    for _ in range(max_steps + 1):
        try:
            wait_text(page, text, timeout=0.2)
            return
        except TimeoutError:
            page.mouse.wheel(0, step)
    wait_text(page, text, timeout=1)


def wait_idle(page, quiet: float = 0.3, timeout: float = ACTION_TIMEOUT) -> None:
    """Wait until the semantics tree has not changed for ``quiet`` seconds
    (animations, route transitions, dialogs settling).  Useful before
    screenshots or reading the whole tree; not needed before ``wait_text``."""
    page.evaluate(
        """([quietMs, timeoutMs]) => new Promise((resolve, reject) => {
          const host = document.querySelector('flt-semantics-host') || document.body;
          let timer = setTimeout(done, quietMs);
          const limit = setTimeout(() => { obs.disconnect(); clearTimeout(timer);
              reject(new Error('semantics tree still changing after ' + timeoutMs + ' ms')); }, timeoutMs);
          const obs = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quietMs); });
          function done() { obs.disconnect(); clearTimeout(limit); resolve(); }
          obs.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
        })""",
        [int(quiet * 1000), int(timeout * 1000)],
    )


def settle(page, loc) -> None:
    """Bring a control into view and let Flutter's scrolling come to rest, so a
    real mouse click lands on it and not on a neighbour still moving past.

    Scrolls with the mouse wheel, as a user would: ``scroll_into_view_if_needed``
    on a semantics node can scroll the DOM overlay instead of Flutter's view
    (seen right after a form grew: the node then *reports* a box in view while
    the control is still painted below the fold, and the click lands on a
    neighbour).  It stays as the fallback when the wheel does not move the node
    (e.g. a row that scrolls sideways).

    Each query of a locator costs this 2-core machine ~15 ms of CPU (Playwright's driver, the
    browser and the page, against ~2 ms for an ``evaluate``), at every tap of every test: the
    first ``bounding_box`` is the one that waits for the control to be attached."""
    wait_idle(page, quiet=0.15)
    view = page.viewport_size or PHONE_VIEWPORT
    for _ in range(12):
        box = loc.bounding_box()  # (waits until the control is attached, as wait_for did)
        if box is None:
            break
        top, bottom = box["y"], box["y"] + box["height"]
        if top >= 0 and bottom <= view["height"]:
            return  # in view of a page quiet for 0.15 s (the click's own check waits for a still box)
        page.mouse.move(view["width"] / 2, view["height"] / 2)
        page.mouse.wheel(0, (top + bottom) / 2 - view["height"] / 2)
        wait_idle(page, quiet=0.15)
        after = loc.bounding_box()
        if after is not None and after["y"] == box["y"]:
            break  # the wheel moved nothing here
    for attempt in range(3):  # a re-render may replace the node between finding and scrolling
        try:
            loc.scroll_into_view_if_needed()
            break
        except Exception:
            if attempt == 2:
                raise
            wait_idle(page, quiet=0.2)
    wait_idle(page, quiet=0.15)


def scroll_to_top(page) -> None:
    """Wheel Flutter's view back to its top (the pointer in the middle of the page).

    Do this before a tap that makes the page much shorter (e.g. hiding a long
    list of options): when Flutter clamps a scrolled view to a shorter content
    it does not move the semantics overlay, whose boxes then lie about where
    the controls are painted."""
    view = page.viewport_size or PHONE_VIEWPORT
    page.mouse.move(view["width"] / 2, view["height"] / 2)
    page.mouse.wheel(0, -100 * view["height"])
    wait_idle(page, quiet=0.2)


def tap_starting(page, prefix: str) -> None:
    """A real mouse click on the one control whose name starts with ``prefix``."""
    loc = button_starting(page, prefix)
    settle(page, loc)
    loc.click()


def set_tile(page, tile, on, places: int) -> None:
    """Set ``tile`` (on ``on``, when it fits ``places`` > 1 places) as a player does: one tap on
    its cell, or on its place's target where its cell is split (two or three places: issue 48),
    else the tile and then its end on the drawing."""
    if 1 < places <= 3:
        tap_starting(page, f"set {tile} on {on}: ")
        return
    tap(page, f"tile {tile}")
    if places > 1:
        tap_starting(page, f"set {tile} on {on}: ")


def tap(page, name: str) -> None:
    """A real mouse click on ``button(page, name)``, once it is in view and still."""
    loc = button(page, name)
    settle(page, loc)
    loc.click()


def enter(page, label: str, value: str, retype_last: bool = False) -> None:
    """Type ``value`` into the text field ``label`` and leave the field, as a
    player tapping elsewhere would (so the next tap is not spent on the focus;
    ``retype_last``: see :func:`fill`)."""
    settle(page, page.get_by_role("textbox", name=label, exact=True))
    fill(page, label, value, retype_last=retype_last)
    page.keyboard.press("Tab")
    wait_idle(page, quiet=0.15)


def _css_str(s: str) -> str:
    """Quote ``s`` as a CSS string literal."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ") + '"'


__all__ = [
    "ACTION_TIMEOUT",
    "APP_LOAD_TIMEOUT",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "PHONE_VIEWPORT",
    "SERVER_START_TIMEOUT",
    "button",
    "by_id",
    "click",
    "enable_semantics",
    "external_requests",
    "fill",
    "free_port",
    "launch_browser",
    "new_context",
    "open_app",
    "read_texts",
    "record_sent",
    "reload",
    "resize",
    "scroll_until",
    "server_log",
    "settle",
    "tap",
    "enter",
    "start_server",
    "stop_server",
    "wait_idle",
    "wait_text",
]
