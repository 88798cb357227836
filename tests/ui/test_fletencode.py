"""The app's message encoder (``scorekeeper/ui/app/fletencode.py``) against Flet's own: for
every control and value class of Flet, with random properties (nested controls, lists,
dicts, enumerations, ``None``, event handlers, values equal to a default, dates, odd
values), frozen or not, the bytes msgpack packs are the same, so is every dict the
encoder returns (its keys in order), so is what it leaves on each object (``__prev_lists``,
``__prev_dicts``, ``__prev_classes``) or the error it raises; and a match played through
the app sends every phone the same messages with either."""

from __future__ import annotations

import collections
import dataclasses
import datetime
import enum
import inspect
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import _control_setattr
from flet.messaging import protocol
from flet.messaging.protocol import MessageAction, PatchControlBody
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.app import fletdiff, fletencode, fletinit
from scorekeeper.ui.server import transport
from ui.test_fletdiff import play

PREV = ("__prev_lists", "__prev_dicts", "__prev_classes")
_UNSET = fletencode._UNSET


def every_class() -> list[type]:
    """Every control and value class of Flet (all of them loaded first)."""
    fletinit.install(everything=True)
    try:
        return list(fletinit._flets_classes())
    finally:
        fletinit.install(original=True)


CLASSES = every_class()
FLETS = fletencode.flets_configure(BaseControl)
OURS = fletencode.configure(BaseControl)


class Shade(enum.Enum):
    """An enumeration whose ``value`` is its own (not ``Enum``'s)."""

    DARK = "dark"

    @property
    def value(self) -> str:  # type: ignore[override]
        return f"shade {self._value_}"


class Level(enum.IntEnum):
    LOW = 1


@dataclasses.dataclass
class Plain:
    """A plain dataclass (no ``_values``): Flet's slow path."""

    a: int = 1
    items: list[Any] = dataclasses.field(default_factory=list)
    on_go: Any = None


class Items(list):  # type: ignore[type-arg]
    """A list that is not exactly one."""


def fn(e: Any) -> None:
    """An event handler (or, in another field, a callable that cannot be sent)."""


def freeze(obj: Any, frozen: bool) -> Any:
    if frozen:
        object.__setattr__(obj, "_frozen", True)
    return obj


FROZEN = st.booleans()
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 13),
    st.sampled_from([0.0, 1.0, 2.0, 12.0, 10.5]),
    st.text(max_size=3),
    st.sampled_from(["black", "BLACK", "red", "", "start"]),
    st.sampled_from(
        [
            ft.Colors.RED,
            ft.Colors.BLACK,
            ft.Colors.PRIMARY,
            ft.CupertinoColors.SYSTEM_RED,
            ft.FontWeight.BOLD,
            ft.TextAlign.START,
            ft.TextAlign.CENTER,
            ft.TextOverflow.CLIP,
            ft.MainAxisAlignment.CENTER,
            Shade.DARK,
            Level.LOW,
        ]
    ),
)
ODD = st.sampled_from(
    [
        datetime.date(2024, 1, 2),
        datetime.datetime(2024, 1, 2, 3, 4, 5),
        datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.UTC),
        datetime.time(10, 30),
        ft.Duration(seconds=3),
        fn,
        Plain,
        b"bytes",
        (1, 2),
    ]
)


def leaves() -> st.SearchStrategy[Any]:
    """A value that holds no control."""
    return st.one_of(
        SCALARS,
        st.builds(lambda f: freeze(ft.Padding(1, 2, 3, 4), f), FROZEN),
        st.builds(lambda f: freeze(ft.TextStyle(size=3, color=ft.Colors.BLACK), f), FROZEN),
        st.builds(lambda f, c: freeze(ft.BorderSide(1, c), f), FROZEN, st.sampled_from([ft.Colors.BLACK, "black", 2])),
        st.builds(lambda f: freeze(ft.Border.all(2, ft.Colors.RED), f), FROZEN),
        st.builds(lambda a: Plain(a=a, items=[a]), st.integers(0, 2)),
    )


def controls(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A control, maybe frozen, maybe holding ``children``."""
    return st.one_of(
        st.builds(lambda v, f: freeze(ft.Text(v), f), st.text(max_size=2), FROZEN),
        st.builds(lambda c, f: freeze(ft.Container(content=c, bgcolor=ft.Colors.RED), f), children, FROZEN),
        st.builds(lambda cs, f: freeze(ft.Column(cs), f), st.lists(children, max_size=3), FROZEN),
        st.builds(lambda c, f: freeze(ft.Semantics(content=c, on_tap=fn), f), children, FROZEN),
    )


VALUES = st.recursive(
    st.one_of(leaves(), ODD),
    lambda inner: st.one_of(
        controls(inner),
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=2),
        st.builds(collections.OrderedDict, st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)),
        st.builds(Items, st.lists(inner, max_size=2)),
    ),
    max_leaves=6,
)


def made(cls: type, data: st.DataObject) -> Any:
    """An instance of ``cls``, its required arguments drawn (then plainer ones tried), or
    None when none makes one."""
    params = inspect.signature(cls).parameters.values()
    required = [p.name for p in params if p.default is inspect.Parameter.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
    required += [p.name for p in params if p.default is inspect.Parameter.empty and p.kind == p.KEYWORD_ONLY]
    tries: list[dict[str, Any]] = [{name: data.draw(VALUES) for name in required}] if required else [{}]
    tries += [dict.fromkeys(required, filler) for filler in (ft.Text("r"), "r", 1, [ft.Text("r")])]
    for kwargs in tries:
        try:
            return cls(**kwargs)
        except Exception:  # noqa: BLE001, S112 -- arguments it does not take: the next ones
            continue
    return None


def prop_names(cls: type) -> list[str]:
    return list(getattr(cls, "_prop_defaults", {}))


def drawn(cls: type, data: st.DataObject) -> Any:
    """An instance of ``cls`` with random properties set (through ``Prop`` or, as Flet's
    ``object_model`` does, into ``_values`` directly: ``None``, a default), structural fields
    set, maybe frozen; or None when ``cls`` makes none."""
    item = made(cls, data)
    if item is None:
        return None
    names = prop_names(cls)
    for name in data.draw(st.lists(st.sampled_from(names), max_size=8)) if names else []:
        defaults = [d for d in (cls._root_defaults.get(name), cls._prop_defaults.get(name)) if d is not _UNSET]
        value = data.draw(st.one_of(VALUES, st.sampled_from(defaults)) if defaults else VALUES)
        if "_values" in vars(item) and data.draw(st.booleans()):
            item._values[name] = value  # as Flet's object_model sets a property from the client
            continue
        try:
            setattr(item, name, value)
        except Exception:  # noqa: BLE001, S112 -- a field that takes no such value
            continue
    structural = sorted(getattr(cls, "_structural_fields", ()))
    for name in data.draw(st.lists(st.sampled_from(structural), max_size=3)) if structural else []:
        object.__setattr__(item, name, data.draw(VALUES))
    return freeze(item, data.draw(st.booleans()))


def shape(value: Any, owner: Any, name: str) -> Any:
    """What an encoder left in one entry of a ``__prev_*`` dict, as compared: a list's or
    dict's items (by identity) and whether it is the object's own or a copy; else the object."""
    own = vars(owner).get("_values", {}).get(name, vars(owner).get(name))
    if isinstance(value, list):
        return ("list", value is own, [id(v) for v in value])
    if isinstance(value, dict):
        return ("dict", value is own, [(k, id(v)) for k, v in value.items()])
    return ("object", id(value))


def left(obj: Any) -> Any:
    """What an encoder left on ``obj``: each ``__prev_*`` dict, its keys in order."""
    kept = vars(obj) if hasattr(obj, "__dict__") else {}
    return [None if name not in kept else [(k, shape(v, obj, k)) for k, v in kept[name].items()] for name in PREV]


def same_value(a: Any, b: Any) -> bool:
    """Whether two values an encoder returned (or put in a dict it returned) are the same:
    lists and dicts item for item (by identity), anything else the same object or equal."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(a[k] is b[k] or same_value(a[k], b[k]) for k in a)
    return a is b or a == b


def packed(encode: Any, value: Any) -> tuple[Any, list[Any], list[Any], list[Any]]:
    """``value`` packed with ``encode`` as msgpack's ``default``: the bytes (or the error), the
    objects it was called on in order, what it returned for each, and what it left on each."""
    seen: list[Any] = []
    returned: list[Any] = []

    def recording(obj: Any) -> Any:
        seen.append(obj)
        r = encode(obj)
        returned.append(r)
        return r

    try:
        out: Any = msgpack.packb(value, default=recording)
    except Exception as e:  # noqa: BLE001 -- an error is a result to compare
        out = ("raised", type(e), str(e))
    return out, seen, returned, [left(o) for o in seen]


def forget(objs: list[Any]) -> None:
    """Take what an encoder left off ``objs`` (before the other encoder packs them)."""
    for obj in objs:
        for name in PREV:
            if name in getattr(obj, "__dict__", {}):
                delattr(obj, name)


def check_alike(value: Any) -> tuple[Any, list[Any]]:
    """Pack ``value`` with Flet's encoder, then with the app's, and check they did alike.
    Returns the bytes and the objects encoded."""
    flets = packed(FLETS, value)
    forget(flets[1])
    ours = packed(OURS, value)
    assert ours[0] == flets[0], "other bytes (or another error)"
    assert len(ours[1]) == len(flets[1]) and all(a is b for a, b in zip(ours[1], flets[1], strict=True))
    assert len(ours[2]) == len(flets[2])
    for i, (a, b) in enumerate(zip(ours[2], flets[2], strict=True)):
        assert same_value(a, b), f"object {i} ({type(ours[1][i]).__name__}) encoded otherwise: {a!r} != {b!r}"
    assert ours[3] == flets[3], "other __prev_* left"
    return flets[0], flets[1]


def test_it_is_installed_on_the_flet_it_was_written_for() -> None:
    """On another Flet this fails: check :mod:`fletencode` against its ``protocol.py`` and
    ``value_types.py``, then set :data:`fletencode.FOR_FLET`."""
    assert ft.__version__ == fletencode.FOR_FLET
    try:
        assert fletencode.install() and fletencode.installed()
        assert protocol.configure_encode_object_for_msgpack(BaseControl) is OURS
    finally:
        fletencode.install(original=True)
    assert not fletencode.installed()
    assert protocol.configure_encode_object_for_msgpack is fletencode.flets_configure
    # what a colour equals is kept: their ``__eq__`` compares texts and does nothing else
    for cls in fletencode._PURE_EQ:
        eq = vars(cls)["__eq__"]
        assert set(eq.__code__.co_names) == {"isinstance", "str", "Enum", "value", "lower", "NotImplemented"}


def test_the_web_servers_send_packs_with_it() -> None:
    try:
        assert transport.install()
        assert fletencode.installed()
    finally:
        transport.install(original=True)
    assert not fletencode.installed()


@pytest.mark.parametrize("frozen", [False, True])
def test_every_class_made_plainly_is_packed_alike(frozen: bool) -> None:
    done = 0
    for cls in CLASSES:
        try:
            item = cls()
        except Exception:  # noqa: BLE001, S112 -- a class that needs arguments: drawn below
            continue
        out, seen = check_alike([MessageAction.PATCH_CONTROL, PatchControlBody(id=1, patch=freeze(item, frozen))])
        assert isinstance(out, bytes) and any(o is item for o in seen)
        done += 1
    assert done > 150


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_class_with_random_properties_is_packed_alike(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from(CLASSES))
    item = drawn(cls, data)
    if item is None:
        return
    value = data.draw(st.sampled_from(["alone", "in a list", "in a message"]))
    if value == "in a list":
        check_alike([item, data.draw(VALUES), item])
    elif value == "in a message":
        check_alike([MessageAction.PATCH_CONTROL, PatchControlBody(id=1, patch=[[0, 0, "x", item]])])
    else:
        check_alike(item)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_random_values_are_packed_alike(value: Any) -> None:
    check_alike(value)


def test_a_subclass_default_and_a_value_equal_to_a_default_are_packed_alike() -> None:
    """``RawImage`` overrides the default of ``scale`` (what Flet's sends when it is not set);
    a value set into ``_values`` (as Flet's ``object_model`` sets one) that equals the root
    default is not sent: the colour itself, or as a text, in any case (Flet's
    ``Colors.__eq__`` lowercases both), asked again of the same colour; another is."""
    assert fletencode._plan(ft.RawImage, BaseControl)[3] == (("scale", 1.0),)
    out, _ = check_alike(ft.RawImage())
    assert msgpack.unpackb(out)["scale"] == 1.0
    for frozen in (False, True):
        for black in (ft.Colors.BLACK, "black", "BLACK", ft.Colors.BLACK):
            side = ft.BorderSide(2, ft.Colors.RED)
            side._values["color"] = black
            side._values["width"] = 1  # equal to the root default, 1.0
            assert msgpack.unpackb(check_alike(freeze(side, frozen))[0]) == {}
        for red in (ft.Colors.RED, ft.Colors.RED, "blacker"):
            side = freeze(ft.BorderSide(2, red), frozen)
            assert msgpack.unpackb(check_alike(side)[0]) == {"width": 2, "color": red}


def test_what_is_left_on_an_object_is_set_as_its_class_sets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """An object not frozen gets its ``__prev_*`` through its class's ``__setattr__`` (when it
    is not ``object``'s or Flet's ``_control_setattr``, which set them alike)."""
    noted: list[str] = []

    def noting(self: Any, name: str, value: Any) -> None:
        noted.append(name)
        object.__setattr__(self, name, value)

    for setter in (_control_setattr, noting):
        monkeypatch.setattr(ft.Column, "__setattr__", setter)
        column = ft.Column([ft.Text("a")])
        noted.clear()
        check_alike(column)
        assert getattr(column, "__prev_lists") == {"controls": column.controls}
        assert getattr(column, "__prev_lists")["controls"] is not column.controls
        assert noted == ([] if setter is _control_setattr else [*PREV, *PREV])  # Flet's, then the app's


def test_an_object_it_cannot_send_fails_as_with_flets() -> None:
    text = ft.Text("a")
    text._values["tooltip"] = fn  # a callable where no event handler goes
    out, _ = check_alike(text)
    assert out[:2] == ("raised", RuntimeError) and "Cannot serialize method" in out[2]


def test_every_phone_is_sent_the_same_messages_as_with_flets_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's steps in both runs; Flet's encoder in one (the app's is not asked once), the
    app's in the other (asked for every control, value and enumeration)."""
    asked: list[type] = []

    def counting(obj: Any) -> Any:
        asked.append(type(obj))
        return OURS(obj)

    monkeypatch.setitem(fletencode._ENCODERS, BaseControl, counting)
    flets, _ = play(fast=True, entries=40, encoder=False)
    assert not asked
    ours, _ = play(fast=True, entries=40, encoder=True)
    assert len(asked) > 10000 and ft.Container in asked and ft.BorderSide in asked
    assert not fletencode.installed() and not fletdiff.installed()
    assert len(flets) > 200
    assert len(ours) == len(flets)
    for i, (a, b) in enumerate(zip(flets, ours, strict=True)):
        assert a == b, f"message {i} differs"
