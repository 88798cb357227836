"""Flet's message encoder, with what it finds out about a class found out once.

Every message to every phone is packed with ``msgpack.packb([action, body],
default=encode)``, ``encode`` made by Flet 1.0.5's
``flet.messaging.protocol.configure_encode_object_for_msgpack``: msgpack calls it for
every object it cannot pack itself -- every control, value (a border, a padding, a text
style) and enumeration of a patch, about a hundred a message on the table screen. For
each control and value Flet's ``encode_object_for_msgpack`` asks its class the same
things again: whether it is a dataclass, a control, a ``Value`` (a Python
``__instancecheck__``), its ``_structural_fields``, ``_event_fields``, ``_root_defaults``
and ``_override_props``, and for each structural field that holds a plain value (``_i``,
``_c``) its first declaration, through the class's MRO.

:func:`configure` makes the same encoder with those answers kept for each class (and, for
an enumeration whose ``value`` is ``Enum``'s own, its ``_value_`` read as that property
reads it). What is left per object is Flet's own work in the same order: the same dict
with the same keys in the same order (msgpack writes a map in its order), the same ``==``
and ``!=`` asked of the same values, the same copies of lists and dicts and the same
``__prev_lists``, ``__prev_dicts`` and ``__prev_classes`` left on an object not
``_frozen``. Three things differ, none of them seen outside: whether an object is
``_frozen`` is asked first, not last (nothing the encoder asks of its values unfreezes
it); a frozen object's lists and dicts are given to msgpack as they are (Flet's keeps
nothing on a frozen object: its copies would only be read and thrown away); and what a
colour of Flet's (``Colors``, ``CupertinoColors``: members, which live as long as their
class) is found to equal a field's root default is kept for the field and colour (their
``__eq__`` compares the two texts lowercased and does nothing else). Anything else -- a
plain dataclass such as a message's body, a control without ``_values``, a date, a time,
a ``Duration``, a callable, a class, and an object that holds a list or dict of a
subclass (given over when it is met, its values then asked again by Flet's) -- is given
to Flet's own encoder. ``tests/ui/test_fletencode.py`` checks the bytes packed, every
dict returned and what is left on the objects against Flet's, on every control and value
class with random properties, and a match played through the app message for message.

Measured with ``python -m tools.loadtest.broadcast --entries 60`` (five pairs in turns,
the same app with Flet's encoder and with this one): packing a session's redraw, msgpack
with it, 0.35 ms -> 0.22 (medians).

:func:`install` makes ``protocol.configure_encode_object_for_msgpack`` this module's, on
the Flet it was written for (:data:`FOR_FLET`): what asks Flet's module for an encoder
then gets this one (the app's web server send, ``scorekeeper/ui/server/transport.py``,
and the load-test phones, ``tools/loadtest/common.py``). Flet's own modules that took
the name when they were imported (its desktop and Pyodide connections) keep Flet's.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import flet
from flet.controls import object_patch, value_types
from flet.controls.colors import Colors
from flet.controls.cupertino.cupertino_colors import CupertinoColors
from flet.messaging import protocol
from flet.messaging.protocol import configure_encode_object_for_msgpack as flets_configure

__all__ = ["FOR_FLET", "configure", "flets_configure", "install", "installed"]

#: The Flet this was written for and checked against.
FOR_FLET = "1.0.5"

Encoder = Callable[[Any], Any]

#: What a class's instance is to the encoder (see :func:`_plan`).
_FLETS = 0  # given to Flet's own encoder
_FAST = 1  # a control or a value of Flet's fast path
_ENUM = 2  # an enumeration: its ``value``
_ENUM_VALUE = 3  # an enumeration whose ``value`` is ``Enum``'s own: its ``_value_``

#: What a value held by a field is to the encoder, by its class (:func:`_kind`).
_SCALAR, _LIST, _DICT, _DATACLASS, _ODD = 0, 1, 2, 3, 4
_KINDS: dict[type, int] = {}
#: The classes of value found to be ``_SCALAR`` (asked first: most values are).
_SCALARS: set[type] = set()

#: Flet's "not set" (a root default of a field that has none).
_UNSET = value_types._UNSET
_OBJECT_SETATTR = object.__setattr__
#: The ``__setattr__`` Flet gives a class it diffs: a name that begins with ``_`` it sets as
#: ``object`` does.
_CONTROL_SETATTR = object_patch._control_setattr
_ENUMS_VALUE = vars(enum.Enum)["value"]
#: The ``__getattribute__`` of the classes an enumeration is commonly mixed with: Python's
#: generic one (an attribute found as ``object`` finds it).
_GENERIC_GETATTRIBUTE = (object.__getattribute__, str.__getattribute__, int.__getattribute__, float.__getattribute__)
#: Flet's enumerations whose ``==`` is a function of the members' values alone (their
#: ``__eq__`` compares them lowercased): what a member is found to equal is kept.
_PURE_EQ = frozenset((Colors, CupertinoColors))


def _kind(value: Any) -> int:
    """What ``value`` is to Flet's encoder: a dataclass (``is_dataclass``: an instance of
    one, or a dataclass itself), a list, a dict (each of exactly that class), anything else,
    or an odd one (``_ODD``: a subclass of list or dict, whose copy may not be what it is, or
    a dataclass that is also a list or a dict, which Flet's asks in one order for a property,
    in another for a structural field): an object that holds one is left to Flet's. Kept for
    each class of value (a class itself is asked afresh)."""
    if isinstance(value, type):
        return _DATACLASS if hasattr(value, "__dataclass_fields__") else _SCALAR
    cls = type(value)
    if hasattr(cls, "__dataclass_fields__"):
        kind = _ODD if issubclass(cls, list | dict) else _DATACLASS
    elif cls is list or cls is dict:
        kind = _LIST if cls is list else _DICT
    else:
        kind = _ODD if issubclass(cls, list | dict) else _SCALAR
    _KINDS[cls] = kind
    if kind == _SCALAR:
        _SCALARS.add(cls)
    return kind


def _plan(cls: type, control_cls: type) -> tuple[Any, ...]:
    """What Flet's encoder finds out about an instance of ``cls`` before it looks at the
    instance's values, found out once: how it is encoded, and for its fast path the class's
    event fields, root defaults (those it has), overridden defaults that are not ``None``
    (in order), structural fields (in the order Flet iterates their frozenset) with the
    default each is compared with when it holds a plain value, and what the members of
    :data:`_PURE_EQ` are found to equal (by field and member)."""
    if issubclass(cls, type):
        return (_FLETS,)  # a class, asked as a class
    if hasattr(cls, "__dataclass_fields__"):
        structural = getattr(cls, "_structural_fields", None)
        is_control = issubclass(cls, control_cls)
        if structural is None or not (is_control or getattr(cls, "_is_flet_value", False)):
            return (_FLETS,)
        root_field = protocol._get_root_dataclass_field  # (the app may have made it a cached one)
        own_fields = cls.__dataclass_fields__
        fields: list[tuple[str, Any]] = []
        for name in structural:
            meta = own_fields.get(name)
            default = meta.default if meta is not None else _UNSET
            root = root_field(cls, name)
            if root is not None:
                default = root.default
            fields.append((name, default))
        roots = {name: d for name, d in getattr(cls, "_root_defaults", {}).items() if d is not _UNSET}
        overrides = tuple((n, v) for n, v in getattr(cls, "_override_props", {}).items() if v is not None)
        sames: dict[tuple[str, int], bool] = {}
        return (_FAST, getattr(cls, "_event_fields", frozenset()), roots, overrides, tuple(fields), sames)
    if issubclass(cls, enum.Enum):
        for klass in cls.__mro__:
            if "value" in vars(klass):
                own = vars(klass)["value"] is _ENUMS_VALUE
                break
        else:
            own = False
        plain = own and cls.__getattribute__ in _GENERIC_GETATTRIBUTE
        return (_ENUM_VALUE,) if plain else (_ENUM,)
    return (_FLETS,)


def _make(control_cls: type) -> Encoder:
    """The encoder :func:`configure` gives for ``control_cls``."""
    flets = flets_configure(control_cls)
    plans: dict[type, tuple[Any, ...]] = {}
    kinds, scalars, pure = _KINDS, _SCALARS, _PURE_EQ
    object_setattr, control_setattr = _OBJECT_SETATTR, _CONTROL_SETATTR

    def encode_object_for_msgpack(obj: Any) -> Any:
        """Flet's ``encode_object_for_msgpack``."""
        cls = type(obj)
        plan = plans.get(cls)
        if plan is None:
            plan = plans[cls] = _plan(cls, control_cls)
        how = plan[0]
        if how == _ENUM_VALUE:
            return obj._value_
        if how != _FAST:
            return obj.value if how == _ENUM else flets(obj)
        values = getattr(obj, "_values", None)
        if values is None:
            return flets(obj)
        _, events, roots, overrides, structural, sames = plan
        r: dict[str, Any] = {}
        if hasattr(obj, "_frozen"):
            # Nothing is kept on a frozen object (and nothing asked below unfreezes one): its
            # lists and dicts are given as they are, msgpack only reads them (Flet's copies
            # would be thrown away).
            for name, v in values.items():
                if v is None:
                    continue
                t = type(v)
                if name in roots:
                    if t in pure:
                        key = (name, id(v))  # a member: it lives as long as its class
                        same = sames.get(key)
                        if same is None:
                            same = sames[key] = bool(v == roots[name])
                        if same:
                            continue
                    elif v == roots[name]:
                        continue
                if t in scalars:
                    r[name] = True if name in events else v
                    continue
                kind = kinds.get(t)
                if kind is None:
                    kind = _kind(v)
                if kind == _SCALAR:
                    r[name] = True if name in events else v
                elif kind == _ODD:
                    return flets(obj)
                else:
                    r[name] = v
            for name, v in overrides:
                if name not in r:
                    r[name] = v
            for name, default in structural:
                v = getattr(obj, name)
                t = type(v)
                kind = _SCALAR if t in scalars else kinds.get(t)
                if kind is None:
                    kind = _kind(v)
                if kind == _SCALAR:
                    if v is not None and v != default:
                        r[name] = v
                elif kind == _DATACLASS:
                    r[name] = v
                elif kind == _ODD:
                    return flets(obj)
                elif v:
                    r[name] = v
            return r
        prev_lists: dict[str, Any] = {}
        prev_dicts: dict[str, Any] = {}
        prev_classes: dict[str, Any] = {}
        # 1. the values set, less ``None`` and those equal to their root default
        for name, v in values.items():
            if v is None:
                continue
            if name in roots and v == roots[name]:
                continue
            t = type(v)
            kind = _SCALAR if t in scalars else kinds.get(t)
            if kind is None:
                kind = _kind(v)
            if kind == _SCALAR:
                r[name] = True if name in events else v
            elif kind == _DATACLASS:
                r[name] = v
                prev_classes[name] = v
            elif kind == _LIST:
                v = v[:]
                r[name] = v
                prev_lists[name] = v
            elif kind == _DICT:
                v = v.copy()
                r[name] = v
                prev_dicts[name] = v
            else:
                return flets(obj)
        # 2. the defaults a subclass overrides, when not set
        for name, v in overrides:
            if name not in r:
                r[name] = v
        # 3. the structural fields
        for name, default in structural:
            v = getattr(obj, name)
            t = type(v)
            kind = _SCALAR if t in scalars else kinds.get(t)
            if kind is None:
                kind = _kind(v)
            if kind == _SCALAR:
                if v is not None and v != default:
                    r[name] = v
            elif kind == _LIST:
                v = v[:]
                if v:
                    r[name] = v
                prev_lists[name] = v
            elif kind == _DICT:
                v = v.copy()
                if v:
                    r[name] = v
                prev_dicts[name] = v
            elif kind == _DATACLASS:
                r[name] = v
                prev_classes[name] = v
            else:
                return flets(obj)
        setattr_ = cls.__setattr__
        if setattr_ is object_setattr or setattr_ is control_setattr:
            object_setattr(obj, "__prev_lists", prev_lists)
            object_setattr(obj, "__prev_dicts", prev_dicts)
            object_setattr(obj, "__prev_classes", prev_classes)
        else:
            setattr(obj, "__prev_lists", prev_lists)
            setattr(obj, "__prev_dicts", prev_dicts)
            setattr(obj, "__prev_classes", prev_classes)
        return r

    return encode_object_for_msgpack


_ENCODERS: dict[type, Encoder] = {}


def configure(control_cls: type) -> Encoder:
    """Flet's ``configure_encode_object_for_msgpack``: an encoder for ``msgpack.packb``'s
    ``default`` that gives what Flet's gives, made once for each ``control_cls``."""
    encoder = _ENCODERS.get(control_cls)
    if encoder is None:
        encoder = _ENCODERS[control_cls] = _make(control_cls)
    return encoder


def installed() -> bool:
    """Whether Flet's module gives this module's encoder now."""
    return protocol.configure_encode_object_for_msgpack is configure


def install(original: bool = False) -> bool:
    """Make ``protocol.configure_encode_object_for_msgpack`` :func:`configure`, on the Flet it
    was written for (``original``: put Flet's own back). Returns whether this one is in place."""
    proto: Any = protocol
    if original or flet.__version__ != FOR_FLET:
        proto.configure_encode_object_for_msgpack = flets_configure
        return False
    proto.configure_encode_object_for_msgpack = configure
    return True
