"""Flet's controls and values made without setting, one by one, the properties left at their defaults.

Every control a screen draws is made anew at each redraw: a table screen makes about
160 of them per phone per entry (``python -m tools.loadtest.broadcast``,
docs/benchmarks.md). In Flet 1.0.5 a control is a dataclass whose public fields are
``flet.controls.value_types.Prop`` descriptors, and its dataclass ``__init__`` assigns
every field -- a ``Container`` has seventy, a ``Text`` sixty-five -- through
``Prop.__set__``, which drops the value when it is the field's default: a screen's
controls set a handful each, so nearly all of that work is thrown away. The values
(``Border``, ``Padding``, ``TextStyle``...: ``@value``) are made the same way.

:func:`install` gives each of those classes an ``__init__`` generated as the dataclass's
own is (same parameters, defaults, annotations, name, body, ``__post_init__`` call: it is
checked, bytecode for bytecode, against the original before anything is replaced),
but where an assignment ``self.x = x`` of a ``Prop`` field is made only when ``x`` is
not the field's default object itself. When it is, ``Prop.__set__`` would do nothing
(the field is not in the new object's ``_values`` yet, and the default equals itself),
so the object ends the same: the same ``_values`` in the same order, the same
``_dirty``, the same attributes. A class is left as it is when that cannot be said of
it: its own ``__setattr__``, a ``_notify`` (``Prop.__set__`` calls it), a field
behind another data descriptor, a frozen dataclass, a default that is not a plain
constant (``None``, a flag, a number, a text, an enumeration), or a generated
``__init__`` that is not the one this module would write.

Flet 1.0.5 loads its classes on first use: :func:`install` gives those loaded so far a
stand-in that makes the cheaper ``__init__`` the first time the class is used (only the
few dozen classes the app draws with are made one), and the app calls it again as each
session starts, for the classes loaded since (loading all of Flet's classes first would
cost about 0.4 s of CPU in every process that serves the app: ``everything=True`` does,
for the tests).
``tests/ui/test_fletinit.py`` checks the objects against Flet's on random arguments,
and a match played through the app message for message. Installed only on the Flet it
was written for (:data:`FOR_FLET`).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import flet
from flet.controls import value_types
from flet.controls.base_control import BaseControl
from flet.controls.value_types import Prop, Value

__all__ = ["FOR_FLET", "candidates", "cheaper_init", "install", "installed", "refresh"]

#: The Flet this was written for and checked against.
FOR_FLET = "1.0.5"

#: Defaults that equal themselves and nothing else's ``==`` is asked of (see :func:`_plain`).
_PLAIN = (type(None), bool, int, float, str)

#: Flet's own ``__init__`` of every class this module may replace it of.
_ORIGINAL: dict[type, Callable[..., None]] = {}
#: The cheaper ``__init__`` of each class, once made (None: Flet's is kept).
_FAST: dict[type, Callable[..., None] | None] = {}

#: What ``value_types.value`` makes of a class's ``__init__`` (``_value_init``, wrapping the dataclass's).
_VALUE_INIT = "value.<locals>._apply.<locals>._value_init"


def _plain(default: Any) -> bool:
    """Whether ``default == default`` is true and asks nothing of any code but Python's own."""
    if isinstance(default, enum.Enum):
        eq = type(default).__eq__
        return eq in (object.__eq__, enum.Enum.__eq__) or any(eq is t.__eq__ for t in _PLAIN)
    if type(default) not in _PLAIN:
        return False
    return not (isinstance(default, float) and math.isnan(default))


def _generated(fn: Any, cls: type) -> bool:
    """Whether ``fn`` is a dataclass-generated ``__init__`` of ``cls``."""
    code = getattr(fn, "__code__", None)
    return (
        code is not None
        and code.co_filename == "<string>"
        and code.co_qualname == "__create_fn__.<locals>.__init__"
        and fn.__qualname__ == f"{cls.__qualname__}.__init__"
    )


def _source(cls: type, orig: Any, skip: dict[str, Any], value: bool) -> tuple[str, dict[str, Any], list[str]]:
    """The text of ``cls``'s dataclass ``__init__`` as ``dataclasses`` writes it (``_init_fn``),
    its closure's names and values, and the names of the fields it assigns (in order). With
    ``skip`` (field -> its ``Prop``'s default), those fields are assigned only when not given
    their default object; with ``value``, it also does what ``@value``'s wrapper does around it."""
    code = orig.__code__
    params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    self_name = params[0]
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    real = {f.name for f in dataclasses.fields(cls)}
    initvars = {name for name in fields if name not in real and name in params}
    init_fields = [f for f in fields.values() if f.name in real or f.name in initvars]
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    defaults = dict(
        zip(
            params[code.co_argcount - len(orig.__defaults__ or ()) : code.co_argcount],
            orig.__defaults__ or (),
            strict=True,
        )
    )
    defaults.update(orig.__kwdefaults__ or {})

    local: dict[str, Any] = {f"_type_{f.name}": f.type for f in init_fields}
    local["MISSING"] = dataclasses.MISSING
    factory_marker = next(
        (defaults[f.name] for f in init_fields if f.init and f.default_factory is not dataclasses.MISSING), None
    )
    local["_HAS_DEFAULT_FACTORY"] = factory_marker
    local["__dataclass_builtins_object__"] = object
    body: list[str] = []
    assigned: list[str] = []
    if value:
        body += [
            f"__dataclass_builtins_object__.__setattr__({self_name},'_values',{{}})",
            f"__dataclass_builtins_object__.__setattr__({self_name},'_dirty',{{}})",
        ]
    for f in init_fields:
        name = f.name
        dflt = f"_dflt_{name}"
        if f.default_factory is not dataclasses.MISSING:
            local[dflt] = f.default_factory
            val = f"{dflt}() if {name} is _HAS_DEFAULT_FACTORY else {name}" if f.init else f"{dflt}()"
        elif f.init:
            if f.default is not dataclasses.MISSING:
                local[dflt] = f.default
            val = name
        else:
            continue
        if name in initvars:
            continue
        if frozen:
            line = f"__dataclass_builtins_object__.__setattr__({self_name},{name!r},{val})"
        else:
            line = f"{self_name}.{name}={val}"
        if name in skip and val == name:
            local[f"_prop_{name}"] = skip[name]
            line = f"if {name} is not _prop_{name}:{line}"
        body.append(line)
        assigned.append(name)
    if "__post_init__" in code.co_names:
        body.append(f"{self_name}.__post_init__({','.join(f.name for f in init_fields if f.name in initvars)})")
    if value:
        body.append(f"{self_name}._dirty.clear()")
    if not body:
        body = ["pass"]

    def param(f: Any) -> str:
        if f.default is not dataclasses.MISSING:
            return f"{f.name}:_type_{f.name}=_dflt_{f.name}"
        if f.default_factory is not dataclasses.MISSING:
            return f"{f.name}:_type_{f.name}=_HAS_DEFAULT_FACTORY"
        return f"{f.name}:_type_{f.name}"

    args = [self_name] + [param(f) for f in init_fields if f.init and not f.kw_only]
    kw_only = [param(f) for f in init_fields if f.init and f.kw_only]
    if kw_only:
        args += ["*", *kw_only]
    for f in init_fields:  # a default of an InitVar (``ref``) is the signature's too
        if f.default is not dataclasses.MISSING:
            local[f"_dflt_{f.name}"] = f.default
    local["_return_type"] = None
    lines = "\n".join(f"  {b}" for b in body)
    text = f" def __init__({','.join(args)})->_return_type:\n{lines}"
    text = f"def __create_fn__({', '.join(local)}):\n{text}\n return __init__"
    return text, local, assigned


def _make(orig: Any, text: str, local: dict[str, Any]) -> Any:
    ns: dict[str, Any] = {}
    # compiled as dataclasses compile it: without this module's ``from __future__`` flags
    exec(compile(text, "<string>", "exec", dont_inherit=True), orig.__globals__, ns)  # noqa: S102
    fn = ns["__create_fn__"](**local)
    fn.__qualname__ = orig.__qualname__
    return fn


def _same(a: Any, b: Any) -> bool:
    """Whether two functions are the same code with the same defaults, closure and annotations."""
    ca, cb = a.__code__, b.__code__
    attrs: tuple[str, ...] = ("co_code", "co_consts", "co_names", "co_varnames", "co_freevars", "co_cellvars")
    attrs += ("co_argcount", "co_kwonlyargcount", "co_posonlyargcount", "co_flags", "co_qualname", "co_name")
    if any(getattr(ca, x) != getattr(cb, x) for x in attrs):
        return False
    pairs = [(a.__defaults__ or (), b.__defaults__ or ())]
    ka, kb = a.__kwdefaults__ or {}, b.__kwdefaults__ or {}
    if list(ka) != list(kb) or list(a.__annotations__) != list(b.__annotations__):
        return False
    pairs += [(tuple(ka.values()), tuple(kb.values()))]
    pairs += [(tuple(a.__annotations__.values()), tuple(b.__annotations__.values()))]
    pairs += [
        (tuple(c.cell_contents for c in a.__closure__ or ()), tuple(c.cell_contents for c in b.__closure__ or ()))
    ]
    return all(len(x) == len(y) and all(p is q for p, q in zip(x, y, strict=True)) for x, y in pairs) and (
        a.__qualname__ == b.__qualname__ and a.__module__ == b.__module__
    )


def _raw(cls: type, name: str) -> Any:
    """What ``cls`` (or the first class of its MRO that has it) holds under ``name``."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def _flets_init(cls: type, init: Any) -> Any:
    """The dataclass ``__init__`` that ``init`` (``cls``'s own, as Flet made it) is or wraps
    (``@value``), or None when it is neither: the classes this module may replace the
    ``__init__`` of."""
    is_control = issubclass(cls, BaseControl)
    is_value = isinstance(init, types.FunctionType) and init.__code__.co_qualname == _VALUE_INIT
    if init is None or is_control == is_value:
        return None
    if is_value:
        if init.__code__.co_filename != value_types.__file__ or not init.__closure__:
            return None
        inner = [c.cell_contents for c in init.__closure__ if _generated(c.cell_contents, cls)]
        return inner[0] if len(inner) == 1 else None
    return init if _generated(init, cls) else None


def _build(cls: type, orig: Any, is_value: bool) -> Any:
    """The cheaper ``__init__`` of ``cls`` (whose dataclass ``__init__`` is ``orig``), or None
    when this module leaves it as Flet made it."""
    if (
        cls.__setattr__ is not object.__setattr__
        or hasattr(cls, "_notify")
        or cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        or "__slots__" in cls.__dict__
    ):
        return None
    text, local, assigned = _source(cls, orig, {}, value=False)
    if not _same(_make(orig, text, local), orig):
        return None  # not the ``__init__`` this module would write: left alone
    if not is_value:
        # ``_values`` must be made afresh (a dict) before any field is set
        first = cls.__dataclass_fields__.get("_values")  # type: ignore[attr-defined]
        if not assigned or assigned[0] != "_values" or first is None or first.default_factory is not dict:
            return None
    skip: dict[str, Any] = {}
    for name in assigned:
        raw = _raw(cls, name)
        if type(raw) is Prop:
            if _plain(raw.default):
                skip[name] = raw.default
        elif hasattr(type(raw), "__set__") or hasattr(type(raw), "__delete__"):
            return None  # a field behind another data descriptor: its setter may do anything
    if not skip:
        return None
    text, local, _ = _source(cls, orig, skip, value=is_value)
    return _make(orig, text, local)


def cheaper_init(cls: type) -> Any:
    """The ``__init__`` :func:`install` gives ``cls`` (made on its first use), or None when it
    leaves Flet's."""
    if cls not in _FAST:
        init = _ORIGINAL.get(cls, cls.__dict__.get("__init__"))
        orig = _flets_init(cls, init)
        _FAST[cls] = None if orig is None else _build(cls, orig, orig is not init)
    return _FAST[cls]


def _first_use(cls: type, orig: Any) -> Any:
    """An ``__init__`` for ``cls`` that, on its first call, puts the cheaper one (or Flet's) in its
    place and calls it: only the classes the app makes are made an ``__init__`` for."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = cheaper_init(cls) or orig
        type.__setattr__(cls, "__init__", init)
        init(self, *args, **kwargs)

    __init__.__qualname__ = orig.__qualname__
    return __init__


def _flets_classes(everything: bool = False) -> Iterator[type]:
    """Every control class (``BaseControl``'s subclasses) and value class (``@value``) loaded
    now (``everything``: once all of Flet's public names are: Flet 1.0.5 loads them on first
    use, and loading them all takes about 0.4 s of CPU)."""
    if everything:
        for name in flet.__all__:
            getattr(flet, name)
    seen: set[type] = set()
    todo = [BaseControl]
    while todo:
        cls = todo.pop()
        for sub in type.__subclasses__(cls):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                yield sub
    for modname, module in list(sys.modules.items()):
        if modname != "flet" and not modname.startswith("flet."):
            continue
        for obj in list(vars(module).values()):
            if isinstance(obj, type) and obj not in seen and issubclass(obj, Value) and "__init__" in obj.__dict__:
                seen.add(obj)
                yield obj


def candidates() -> list[type]:
    """Every class :func:`install` may give a cheaper ``__init__`` (after a first :func:`install`)."""
    return list(_ORIGINAL)


def refresh() -> bool:
    """While the cheaper ``__init__`` are in place: give them to the classes Flet loaded since
    :func:`install` last looked (cheap when none were: the app calls it as each session
    starts). Never puts them in place itself. Returns whether they are."""
    return install() if _LOOKED["on"] else False


def installed() -> bool:
    """Whether the cheaper ``__init__`` are Flet's now (or will be, on first use)."""
    return any(cls.__dict__.get("__init__") is not orig for cls, orig in _ORIGINAL.items())


#: The classes looked at and left with Flet's own ``__init__`` (none to replace, or not as expected).
_KEPT: set[type] = set()
#: How many modules were loaded when :func:`install` last looked for classes, and whether
#: the cheaper ``__init__`` are in place.
_LOOKED = {"modules": -1, "on": False}


def install(original: bool = False, everything: bool = False) -> bool:
    """Give Flet's control and value classes loaded so far the cheaper ``__init__`` (each on its
    first use), on the Flet they were written for (``original``: put Flet's own back;
    ``everything``: load all of Flet's classes first). Returns whether they are in place.

    Flet loads a class when it is first used: the app calls this again as each session
    starts, which gives the classes loaded since theirs (nothing is done when no module
    was loaded since the last look)."""
    if original or flet.__version__ != FOR_FLET:
        for cls, orig in _ORIGINAL.items():
            type.__setattr__(cls, "__init__", orig)
        _LOOKED["on"] = False
        return False
    if _LOOKED["on"] and not everything and len(sys.modules) == _LOOKED["modules"]:
        return bool(_ORIGINAL)
    new: list[type] = []
    for cls in _flets_classes(everything):
        if cls in _ORIGINAL or cls in _KEPT:
            continue
        init = cls.__dict__.get("__init__")
        if init is not None and _flets_init(cls, init) is not None:
            _ORIGINAL[cls] = init
            new.append(cls)
        else:
            _KEPT.add(cls)
    _LOOKED["modules"] = len(sys.modules)
    for cls in _ORIGINAL if not _LOOKED["on"] else new:
        orig = _ORIGINAL[cls]
        made = _FAST.get(cls, orig) if cls in _FAST else _first_use(cls, orig)
        type.__setattr__(cls, "__init__", made or orig)
    _LOOKED["on"] = True
    return bool(_ORIGINAL)
