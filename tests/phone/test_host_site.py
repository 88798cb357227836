"""``scorekeeper web`` serves the phone's site at ``/app/``: built once into the cache (a 503
with a line until it is there), served by the guard like the rest, its pages allowed to
evaluate the JavaScript Pyodide builds (and only its pages); the host's "Phones at this
table" screen links to it."""

from __future__ import annotations

import shutil
from pathlib import Path

from ui.test_guard import PORT, call

from scorekeeper.site.build import MARK
from scorekeeper.ui.access.gate import Gate, Invite
from scorekeeper.ui.server.phone_site import PhoneSite


def test_the_site_is_served_at_app_once_built(built_site: Path, tmp_path: Path, request) -> None:
    from flet_web.fastapi import app_manager

    from scorekeeper.ui.server.serve import web_app

    site = PhoneSite(cache=tmp_path)
    app = web_app(lambda page: None, port=PORT, site=site)
    request.addfinalizer(app_manager.delete_temp_dirs)
    shutil.copytree(built_site, site.folder)  # as a build leaves it (a build costs half a minute)
    site.start()
    assert site.wait(5)
    page = call(app, "/app/")
    assert page.status == 200 and b'<script src="site.js">' in page.body
    policy = page.header("content-security-policy")
    assert "'unsafe-eval'" in policy and "'wasm-unsafe-eval'" in policy and "worker-src 'self' blob:" in policy
    assert page.header("x-frame-options") == "DENY"
    assert call(app, "/app/sw.js").body == (built_site / "sw.js").read_bytes()
    moved = call(app, "/app")  # the site's links are relative to its folder
    assert moved.status == 308 and moved.header("location") == "/app/"
    assert call(app, f"/app/{MARK}").status == 200
    # the table's own app keeps its strict policy: no eval there
    host_page = call(app, "/")
    assert host_page.status == 200 and "'unsafe-eval'" not in host_page.header("content-security-policy")


def test_the_first_request_starts_the_build_and_is_told_to_come_back(tmp_path: Path, monkeypatch) -> None:
    import threading

    import scorekeeper.site.build as site_build

    built: list[Path] = []
    asked = threading.Event()  # the build ends once the first answer is read: no race with it

    def fake_build(folder: Path) -> None:  # what a build leaves, once the first request is answered
        assert asked.wait(10), "the first request was never answered"
        folder.mkdir(parents=True)
        (folder / MARK).write_text("{}", encoding="utf-8")
        (folder / "index.html").write_text("<html></html>", encoding="utf-8")
        built.append(folder)

    monkeypatch.setattr(site_build, "build", fake_build)
    site = PhoneSite(cache=tmp_path)
    waiting = call(site_app := _guarded(site), "/app/")
    asked.set()
    assert waiting.status == 503 and waiting.text.startswith("the phone's app is being prepared")
    assert site.wait(10) and built == [site.folder]
    assert call(site_app, "/app/").status == 200
    PhoneSite(cache=tmp_path).start()  # another server: served from the cache, not built again
    assert built == [site.folder]


def _guarded(site: PhoneSite):
    """``site`` mounted at /app as ``scorekeeper web`` mounts it, without Flet's app."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from scorekeeper.ui.server.guard import Guard

    return Guard(Starlette(routes=[Mount("/app", site)]), port=PORT)


def test_a_site_already_built_for_this_version_is_served_at_once(built_site: Path, tmp_path: Path) -> None:
    site = PhoneSite(cache=tmp_path)
    assert site.folder.parent == tmp_path and site.folder.name.startswith("phone-site-")
    shutil.copytree(built_site, site.folder)
    site.start()  # no thread, no build: the cache has it
    assert site.wait(0)
    assert PhoneSite(cache=tmp_path).folder == site.folder  # the same key for the same files


def test_the_invite_links_to_the_phones_own_app() -> None:
    invite = Invite("http://192.168.1.20:8550", Gate(None))
    assert invite.site_link == "http://192.168.1.20:8550/app/"
