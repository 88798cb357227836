"""The cheaper ``__init__`` of Flet's controls and values (``scorekeeper/ui/app/fletinit.py``)
against Flet's own: for every class it gives one, the object made is the same (its
``_values``, ``_dirty`` and every other attribute, in the same order), with no arguments
and with random ones (defaults, values equal to a default but not it, ``None``...), a
wrong call fails alike, and a match played through the app sends every phone the same
messages."""

from __future__ import annotations

import datetime
import enum
import inspect
import itertools
import subprocess
import sys
from typing import Any

import flet as ft
import pytest
from flet.controls import id_counter
from flet.controls.value_types import Prop
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.app import fletinit
from ui.test_fletdiff import play


def cheaper() -> list[tuple[type, Any, Any]]:
    """(class, Flet's ``__init__``, the cheaper one) for every class given one."""
    fletinit.install(everything=True)
    try:
        found = [(cls, fletinit.cheaper_init(cls)) for cls in fletinit.candidates()]
    finally:
        fletinit.install(original=True)
    return [(cls, cls.__dict__["__init__"], fast) for cls, fast in found if fast is not None]


CHEAPER = cheaper()


class Text(str):
    """A text equal to another, not it."""


def made(cls: type, init: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What ``init`` makes of a new ``cls`` (its attributes, in order, each dict's items in
    order), or the exception it raises (its type and words)."""
    id_counter.ControlId._counter = itertools.count(1000)
    obj = object.__new__(cls)
    try:
        init(obj, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 -- an error is a result to compare
        return ("raised", type(e), str(e))
    if "uid" in vars(obj).get("_internals", {}):
        obj._internals["uid"] = "RANDOM"  # a service registry's: random_string(10)
    return kept(vars(obj), obj)


def kept(value: Any, obj: Any) -> Any:
    """``value`` as compared: a dict's items in order, a list's or tuple's items, an object
    that equals only itself (a lock, a function) by its type, and a time by its type (a date
    picker's default is the time it is made), a method by its function and whether it is
    ``obj``'s."""
    if isinstance(value, dict):
        return [(k, kept(v, obj)) for k, v in value.items()]
    if isinstance(value, list | tuple):
        return (type(value), [kept(v, obj) for v in value])
    if inspect.ismethod(value):
        return ("a method", value.__func__, value.__self__ is obj)
    if isinstance(value, datetime.date | datetime.time) or (
        type(value).__eq__ is object.__eq__ and not isinstance(value, type)
    ):
        return ("an object", type(value))
    return value


def test_they_are_installed_on_the_flet_they_were_written_for() -> None:
    """On another Flet this fails: check :mod:`fletinit` against its ``value_types.py``,
    ``base_control.py`` and Python's ``dataclasses``, then set :data:`fletinit.FOR_FLET`."""
    assert ft.__version__ == fletinit.FOR_FLET
    try:
        assert fletinit.install() and fletinit.installed()
        ft.Text("1")  # made on first use
        assert ft.Text.__dict__["__init__"] is fletinit.cheaper_init(ft.Text)
    finally:
        fletinit.install(original=True)
    assert not fletinit.installed()
    assert all(cls.__dict__["__init__"] is orig for cls, orig, _ in CHEAPER)


def test_the_controls_and_values_the_app_makes_have_one() -> None:
    classes = {cls for cls, _, _ in CHEAPER}
    app = {ft.Container, ft.Text, ft.Row, ft.Column, ft.Stack, ft.Icon, ft.Button, ft.TextField, ft.GestureDetector}
    app |= {ft.TextStyle, ft.Padding, ft.BorderSide, ft.Margin, ft.BoxShadow}
    assert app <= classes
    assert len(classes) > 200


@pytest.mark.parametrize(("cls", "orig", "fast"), CHEAPER, ids=[c.__qualname__ for c, _, _ in CHEAPER])
def test_made_with_no_arguments_as_flets(cls: type, orig: Any, fast: Any) -> None:
    assert made(cls, fast, (), {}) == made(cls, orig, (), {})
    assert inspect.signature(fast) == inspect.signature(flets_dataclass_init(cls, orig))


def flets_dataclass_init(cls: type, init: Any) -> Any:
    """The dataclass ``__init__`` that Flet's ``init`` is or wraps (``@value``)."""
    for cell in init.__closure__ or ():
        if getattr(cell.cell_contents, "__qualname__", "") == f"{cls.__qualname__}.__init__":
            return cell.cell_contents
    return init


def like(default: Any) -> list[Any]:
    """Values equal to ``default`` that are not it."""
    if isinstance(default, enum.Enum):
        return [default.value] if default == default.value else []
    if isinstance(default, bool):
        return [int(default), float(default)]
    if isinstance(default, int | float):
        return [float(default), Text(str(default))] if default == float(default) else []
    if isinstance(default, str):
        return [Text(default)]
    return []


OTHERS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 300),
    st.floats(-10, 10, allow_nan=False),
    st.text(max_size=4),
    st.sampled_from([ft.Colors.RED, ft.FontWeight.BOLD, ft.TextAlign.CENTER, ft.MainAxisAlignment.END]),
    st.builds(lambda: ft.Padding(1, 2, 3, 4)),
    st.builds(lambda: ft.Text("x")),
    st.builds(lambda: [ft.Text("y")]),
)


@st.composite
def calls(draw: st.DrawFn) -> tuple[type, Any, Any, tuple[Any, ...], dict[str, Any]]:
    cls, orig, fast = draw(st.sampled_from(CHEAPER))
    params = list(inspect.signature(fast).parameters.values())[1:]
    kwargs: dict[str, Any] = {}
    for p in params:
        choice = draw(st.integers(0, 9))
        if choice <= 3:
            continue  # left to its default
        options: list[Any] = []
        if p.default is not inspect.Parameter.empty:
            options = [p.default, p.default, *like(p.default)]
        raw = fletinit_prop_default(cls, p.name)
        if raw is not None:
            options += [raw[0], *like(raw[0])]
        if options and choice <= 7:
            kwargs[p.name] = draw(st.sampled_from(options))
        else:
            kwargs[p.name] = draw(OTHERS)
    positional = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    n = draw(st.integers(0, len(positional) + 1))
    args: list[Any] = []
    for name in positional[:n]:
        args.append(kwargs.pop(name) if name in kwargs else draw(OTHERS))
    if n > len(positional):
        args.append(draw(OTHERS))  # one too many
    if draw(st.integers(0, 9)) == 0:
        kwargs[draw(st.sampled_from(["nonesuch", *(p.name for p in params)]))] = None  # unknown or twice
    return cls, orig, fast, tuple(args), kwargs


def fletinit_prop_default(cls: type, name: str) -> tuple[Any] | None:
    """The default of ``cls``'s ``Prop`` ``name`` (as a 1-tuple), if it has one."""
    for klass in cls.__mro__:
        if name in vars(klass):
            raw = vars(klass)[name]
            return (raw.default,) if isinstance(raw, Prop) else None
    return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_made_with_any_arguments_as_flets(call: tuple[type, Any, Any, tuple[Any, ...], dict[str, Any]]) -> None:
    cls, orig, fast, args, kwargs = call
    assert made(cls, fast, args, kwargs) == made(cls, orig, args, kwargs)


def test_a_wrong_call_fails_as_flets() -> None:
    def raised(cls: type, init: Any, *args: Any, **kwargs: Any) -> Any:
        result = made(cls, init, args, kwargs)
        assert result[0] == "raised"
        return result

    found = {cls: (orig, fast) for cls, orig, fast in CHEAPER}

    def too_many(cls: type) -> tuple[None, ...]:
        params = inspect.signature(found[cls][1]).parameters.values()
        return (None,) * (1 + sum(p.kind is p.POSITIONAL_OR_KEYWORD for p in params))

    for cls, args, kwargs in [
        (ft.Container, (), {"nonesuch": 1}),
        (ft.Container, too_many(ft.Container), {}),
        (ft.Row, too_many(ft.Row), {}),
        (ft.Container, (ft.Text("a"),), {"content": None}),
        (ft.Text, ("a",), {"value": "b"}),
        (ft.Text, too_many(ft.Text), {}),
        (ft.TextStyle, too_many(ft.TextStyle), {}),
        (ft.TextStyle, (), {"sise": 3}),
        (ft.BorderSide, too_many(ft.BorderSide), {}),
    ]:
        orig, fast = found[cls]
        assert raised(cls, fast, *args, **kwargs) == raised(cls, orig, *args, **kwargs)


def test_every_phone_is_sent_the_same_messages_as_with_flets_own_inits() -> None:
    fletinit.install(everything=True)  # Flet's modules all loaded before either match
    flets, flets_life = play(fast=True, entries=30, inits=False)
    ours, our_life = play(fast=True, entries=30, inits=True)
    assert len(flets) > 150
    assert len(ours) == len(flets)
    for i, (a, b) in enumerate(zip(flets, ours, strict=True)):
        assert a == b, f"message {i} differs"
    assert our_life == flets_life


def test_install_loads_nothing_and_each_session_gives_the_classes_loaded_since() -> None:
    """In a Python of its own (this one has loaded every class): :func:`fletinit.install`
    loads none of Flet's classes (that took 0.4 s of CPU in every process serving the app),
    gives those loaded the cheaper ``__init__``, and :func:`fletinit.refresh` (each session's
    start) gives it to a class loaded since; after ``install(original=True)``, ``refresh``
    puts nothing back."""
    code = (
        "import sys\n"
        "import flet as ft\n"
        "from scorekeeper.ui.app import fletinit\n"
        "ft.Container\n"
        "before = set(sys.modules)\n"
        "assert fletinit.install()\n"
        "assert set(sys.modules) == before, sorted(set(sys.modules) - before)[:5]\n"
        "assert ft.Container in fletinit.candidates()\n"
        "assert ft.Container.__init__ is not fletinit._ORIGINAL[ft.Container]\n"
        "late = ft.ExpansionTile\n"
        "assert late not in fletinit.candidates()\n"
        "assert fletinit.refresh() and late in fletinit.candidates()\n"
        "assert late.__init__ is not fletinit._ORIGINAL[late]\n"
        "fletinit.install(original=True)\n"
        "assert not fletinit.refresh() and ft.Container.__init__ is fletinit._ORIGINAL[ft.Container]\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
