"""The app's faster diff steps (``scorekeeper/ui/app/fletdiff.py``) against Flet's own: on
the app's own table screen, four phones, a match played through two hands, every
message each phone is sent is the same (each map's keys in the same order), and so is
what the sessions mount and unmount."""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import tempfile
from typing import Any

import aio
import flet as ft
import msgpack
import pytest
from flet.controls import id_counter, object_patch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.app import fletdiff, fletencode, fletinit
from tools.loadtest import broadcast, common


def test_they_are_installed_on_the_flet_they_were_written_for() -> None:
    """On another Flet this fails: check the steps against its ``object_patch.py`` (and
    ``validate`` against its ``utils/validation.py``), then set :data:`fletdiff.FOR_FLET`."""
    assert ft.__version__ == fletdiff.FOR_FLET
    try:
        assert fletdiff.install() and fletdiff.installed()
    finally:
        fletdiff.install(original=True)
    assert not fletdiff.installed()


def same_words(value: Any, words: dict[str, str]) -> Any:
    """``value`` (a message, decoded) with the strings of ``words`` said as they say, and every
    service registry's uid and a method call's id the same; a map as its pairs, in order
    (msgpack writes a map's keys in the order of the dict packed)."""
    if isinstance(value, str):
        for word, said in words.items():
            value = value.replace(word, said)
        return value
    if isinstance(value, list):
        return [same_words(v, words) for v in value]
    if isinstance(value, dict):
        return ("map", [(k, "RANDOM" if k in ("uid", "call_id") else same_words(v, words)) for k, v in value.items()])
    return value


def play(
    fast: bool, entries: int, inits: bool = True, encoder: bool | None = None
) -> tuple[list[Any], list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    """A match at one table of four sessions, ``entries`` entries (hand ends settled), with
    the faster steps or Flet's (and the cheaper ``__init__`` of ``fletinit.py`` or Flet's:
    ``inits``; the encoder of ``fletencode.py`` or Flet's: ``encoder``, by default as
    ``fast``): every message sent to each phone in order (decoded), and for every patch
    the controls it added and removed, in order (by type and id)."""
    sent: list[Any] = []
    life: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    send = common.BrowserlessPhone.send_message

    def keep(self: Any, message: Any) -> None:
        sent.append(self.encode(message))
        send(self, message)

    async def run() -> None:
        from scorekeeper.ui.app.main import make_main
        from scorekeeper.ui.server.shared import open_shared

        loop = asyncio.get_running_loop()
        hub = ft.PubSubHub(loop=loop)
        with tempfile.TemporaryDirectory(prefix="scorekeeper-fletdiff-") as tmp:
            shared = open_shared(os.path.join(tmp, "db"))
            broadcast.record_subscriptions(shared.hub)
            main = make_main(shared)
            fletdiff.install(original=not fast)
            fletinit.install(original=not inits)
            fletencode.install(original=not (fast if encoder is None else encoder))
            table = broadcast.Table(shared, main, loop, hub)
            await table.open(4)
            for _ in range(entries):
                await table.entry()
                await common.idle(table.sessions)
                table.check()
            # what is random in a run: the match's id, the sessions', a service registry's, a call's
            words = {table.mid: "MATCH", **{s.id: f"SESSION {n}" for n, s in enumerate(table.sessions)}}
            sent[:] = [same_words(msgpack.unpackb(s, strict_map_key=False), words) for s in sent]
            shared.close()

    from_diff = object_patch.ObjectPatch.from_diff.__func__  # type: ignore[attr-defined]

    def listing(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, added, removed = from_diff(cls, *args, **kwargs)
        life.append(
            (tuple(f"{type(c).__name__}{c._i}" for c in added), tuple(f"{type(c).__name__}{c._i}" for c in removed))
        )
        return patch, added, removed

    id_counter.ControlId._counter = itertools.count(3)  # the same ids in both runs
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(common.BrowserlessPhone, "send_message", keep)
        mp.setattr(object_patch.ObjectPatch, "from_diff", classmethod(listing))
        aio.run(run())  # on a thread of its own: a browser test may have left its loop running
    finally:
        mp.undo()
        fletdiff.install(original=True)
        fletinit.install(original=True)
        fletencode.install(original=True)
    return sent, life


def test_every_phone_is_sent_the_same_patches_as_with_flets_own_steps() -> None:
    flets, flets_life = play(fast=False, entries=40)
    ours, our_life = play(fast=True, entries=40)
    assert len(flets) > 200
    assert len(ours) == len(flets)
    for i, (a, b) in enumerate(zip(flets, ours, strict=True)):
        assert a == b, f"message {i} differs"
    assert len(our_life) == len(flets_life)
    removed = 0
    for i, ((added, gone), (flets_added, flets_gone)) in enumerate(zip(our_life, flets_life, strict=True)):
        assert added == flets_added, f"patch {i}: other controls added"
        # Flet's own lists a removed control once for every walk that meets it (and unmounts
        # it as often); ours once, in the order Flet first lists it
        assert gone == tuple(dict.fromkeys(flets_gone)), f"patch {i}: other controls removed"
        removed += len(gone)
    assert removed > 100


def walked(item: Any) -> list[Any]:
    """Flet's reading of ``item``'s fields as the steps had it before ``fletdiff._fields``:
    ``getattr`` on each field walked, less those that hold no control."""
    found = [getattr(item, name) for name in fletdiff._names(type(item))]
    return [v for v in found if v is not None and not isinstance(v, fletdiff._LEAVES)]


def some_classes() -> list[type]:
    fletinit.install(everything=True)  # loads all of Flet's classes
    try:
        return [cls for cls in fletinit.candidates() if not issubclass(cls, ft.Page)]
    finally:
        fletinit.install(original=True)


CLASSES = some_classes()
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.text(max_size=2),
    st.sampled_from([ft.Colors.RED, ft.FontWeight.BOLD]),
    st.builds(lambda: ft.Text("x")),
    st.builds(lambda: [ft.Text("y"), ft.Container()]),
    st.builds(lambda: ft.Padding(1, 2, 3, 4)),
    st.builds(lambda: ft.TextStyle(size=3)),
    st.builds(lambda: {"a": ft.Text("z")}),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_fields_walked_are_read_as_flet_reads_them(data: st.DataObject) -> None:
    """``fletdiff._fields`` reads a ``Prop`` field from ``_values``: it gives what ``getattr``
    gives for every field, in order, on every control and value class, whatever is set."""
    cls = data.draw(st.sampled_from(CLASSES))
    try:
        item = cls()
    except Exception:  # noqa: BLE001 -- a class that needs arguments: left out
        return
    names = fletdiff._names(cls)
    for name in data.draw(st.lists(st.sampled_from(names), max_size=8)) if names else []:
        try:
            setattr(item, name, data.draw(VALUES))
        except Exception:  # noqa: BLE001 -- a field that takes no such value
            continue
    ours = list(fletdiff._fields(item, cls))
    assert len(ours) == len(walked(item))
    assert all(a is b for a, b in zip(ours, walked(item), strict=True))


def kept_in_a_new_box(fast: bool, redraws: int) -> list[bool]:
    """A component that draws a box, keyed, around a control it keeps (a picker cell's digits
    in their semantics node), the box drawn again at each of ``redraws`` changes of its colour,
    with the faster steps or Flet's own: after each, whether the kept control is on the page
    as Flet sees it (its parents lead there) and whether a tap on it reaches its handler."""
    seen: list[bool] = []
    taps: list[int] = []

    async def run() -> None:
        loop = asyncio.get_running_loop()
        phone = common.BrowserlessPhone(loop, ft.PubSubHub(loop=loop))
        session = common.open_session(phone, "/")
        page = session.page
        fletdiff.install(original=not fast)
        node = ft.Semantics(content=ft.Text("5-3"), label="tile 5-3", on_tap=lambda e: taps.append(1))
        lit: dict[str, Any] = {}

        @ft.component
        def Cell() -> ft.Control:
            on, set_on = ft.use_state(False)
            lit["set"] = set_on
            return ft.Container(content=node, bgcolor=ft.Colors.PRIMARY if on else None, key="cell")

        page.render(Cell)
        await session.after_event(page)
        await common.idle([session])
        for n in range(redraws):
            lit["set"](n % 2 == 0)
            await common.idle([session])
            gc.collect()  # the box drawn before is gone
            try:
                seen.append(node.page is page)
            except RuntimeError:  # "Control must be added to the page first"
                seen.append(False)
            before = len(taps)
            await session.dispatch_event(node._i, "tap", None)
            await common.idle([session])
            assert len(taps) == before + 1, f"redraw {n + 1}: the tap did not reach the handler"

    try:
        aio.run(run())
    finally:
        fletdiff.install(original=True)
    return seen


def test_a_control_kept_in_a_box_drawn_again_stays_on_the_page() -> None:
    """A control kept from the last drawing inside a box drawn again is given the new box as
    its parent. Flet's own steps leave it the old box, which is gone: Flet no longer sees it on
    the page, and a tap on it makes Flet look for it field by field through the whole page
    (``Session.__find_live_control``; 5-18 ms of CPU a tap on the app's table, measured with
    ``capacity``) before the handler runs."""
    assert kept_in_a_new_box(fast=False, redraws=3) == [False, False, False]  # what the steps mend
    assert kept_in_a_new_box(fast=True, redraws=3) == [True, True, True]


PARTS = st.one_of(st.sampled_from(["_b", "controls", "content", "value", "width"]), st.integers(0, 3), st.just(True))
PATHS = st.lists(PARTS, max_size=5)
OPS = st.lists(
    st.one_of(
        st.builds(lambda p: {"op": "remove", "path": p}, PATHS),
        st.builds(lambda p, v: {"op": "replace", "path": p, "value": v}, PATHS, st.integers()),
        st.builds(lambda p, v: {"op": "add", "path": p, "value": v}, PATHS, st.text(max_size=2)),
        st.builds(lambda a, b: {"op": "move", "from": a, "path": b}, PATHS, PATHS),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(OPS, st.booleans())
def test_a_patch_is_put_in_a_message_as_flet_puts_it(ops: list[dict[str, Any]], odd: bool) -> None:
    """Any operations (a path repeated, one whose beginning is the one before's, empty ones, a
    move, ``True`` beside ``1``, an unknown operation): the same message, or the same error."""
    if odd:
        ops = [*ops, {"op": "copy", "path": []}]
    outcomes = []
    for encode in (fletdiff._ORIGINAL["to_message"], fletdiff._to_message):
        try:
            outcomes.append(encode(object_patch.ObjectPatch(ops)))
        except object_patch.ObjectPatchException as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]
    assert repr(outcomes[0]) == repr(outcomes[1])  # (the same keys, in the same order)
