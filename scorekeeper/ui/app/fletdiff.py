"""Flet's diff steps, made to do the same work without walking what they need not.

Every entry at a table redraws the table screen on each phone of it: Flet renders the
components whose arguments changed and diffs what they made against what the phone
shows (``ObjectPatch.from_diff``), then lists the controls the patch added and removed.
Measured with ``python -m tools.loadtest.broadcast`` (docs/benchmarks.md), those two
lists cost about as much as the diff itself, for two reasons in Flet 1.0.5's
``flet.controls.object_patch.DiffBuilder``:

* ``_configure_dataclass`` (the controls added) calls itself on every field of every new
  control -- a text's size, its colour, each of its sixty-odd properties -- to find the
  few that hold controls;
* ``_removed_controls`` (the controls removed) walks a removed control's children for
  every control it removes, and Flet removes the old copy of every control it
  reconciles: the whole screen is walked again below each of them (a control five
  levels down is listed five times), and ``will_unmount`` runs once per listing.

:func:`install` replaces the two with versions that skip the fields that cannot hold a
control (``None``, text, numbers, flags, enumerations) and list each removed control
once, in the order of its first listing. A field that is one of Flet's ``Prop``
descriptors with such a default holds a control only when it is in the object's
``_values`` (what ``Prop.__get__`` reads): those are read from there (the handful a
control sets, then put in the fields' order), and the sixty-odd fields left at their
defaults are not looked at one by one. What they add, remove, configure and mount
is otherwise Flet's own (``tests/ui/test_fletdiff.py`` checks both against Flet's on
the app's own screens, patch for patch). They are installed only on the Flet they were
written for (:data:`FOR_FLET`); on another, Flet's own stay, and that test says so.

Two more steps of the diff: ``_compare_values`` answers at once for two values that are
neither a dict, a list nor a dataclass (most of what it is asked); ``_compare_dataclasses``
gives a control kept inside a control drawn again its new parent, which Flet's own leaves
to the old one, gone (:func:`_compare_dataclasses`: a tap on such a control made Flet search
the whole page). And what the diff and the encoder ask of every value is answered from a
table kept for each class (``is_dataclass``, ``fields``, a field's first declaration);
``object_patch``'s debug lines cost nothing while its logger is not at ``DEBUG``.

Two steps around the diff: Flet's check of every control it makes or diffs (``validate``,
:func:`_validate`) passes over a field left at a default its check passes, and a patch is put
in its message (``ObjectPatch.to_message``, :func:`_to_message`) without looking up again
the beginning of a path that is the one before's.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
import weakref
from collections.abc import Iterator
from typing import Any

import flet
from flet.controls import base_control, object_patch
from flet.controls.value_types import Prop
from flet.messaging import protocol, session
from flet.utils import validation

__all__ = ["FOR_FLET", "install", "installed"]

#: The Flet these were written for and checked against.
FOR_FLET = "1.0.5"

#: Values that hold no control: not walked.
_LEAVES = (str, int, float, bool, bytes, enum.Enum)

_FIELDS: dict[type, tuple[str, ...]] = {}
_SPARSE: dict[type, frozenset[str]] = {}

_ORIGINAL: dict[str, Any] = {
    "to_message": object_patch.ObjectPatch.to_message,
    "_configure_dataclass": object_patch.DiffBuilder._configure_dataclass,
    "get_removed_controls": object_patch.DiffBuilder.get_removed_controls,
    "_compare_values": object_patch.DiffBuilder._compare_values,
    "_compare_dataclasses": object_patch.DiffBuilder._compare_dataclasses,
}


def _names(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass that Flet walks (those not marked ``skip``), once a class."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False))
    return names


def _sparse(cls: type) -> frozenset[str]:
    """The walked fields of ``cls`` that are ``Prop`` descriptors whose default holds no
    control, once a class: such a field holds a control only when it is in the object's
    ``_values`` (what ``Prop.__get__`` reads), so it is read from there."""
    sparse = _SPARSE.get(cls)
    if sparse is None:
        found = set()
        for name in _names(cls):
            raw = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
            if type(raw) is Prop and (raw.default is None or isinstance(raw.default, _LEAVES)):
                found.add(name)
        sparse = _SPARSE[cls] = frozenset(found)
    return sparse


#: Per class: the position of each walked field, and the walked fields not in :func:`_sparse`.
_PLANS: dict[type, tuple[dict[str, int], tuple[tuple[int, str], ...]]] = {}


def _plan(cls: type) -> tuple[dict[str, int], tuple[tuple[int, str], ...]]:
    """Where each walked field of ``cls`` comes in its order, and those read with ``getattr``
    (not :func:`_sparse`), with their places, once a class."""
    plan = _PLANS.get(cls)
    if plan is None:
        names, sparse = _names(cls), _sparse(cls)
        plan = _PLANS[cls] = (
            {name: i for i, name in enumerate(names)},
            tuple((i, name) for i, name in enumerate(names) if name not in sparse),
        )
    return plan


def _fields(item: Any, cls: type) -> Iterator[Any]:
    """The values of ``item``'s walked fields that may hold a control, in their order: what
    ``getattr`` gives for each, less those that hold no control (``None``, text, numbers,
    flags, enumerations; a ``Prop`` field not in ``_values`` holds its default, one of those).

    The ``Prop`` fields are read from what ``_values`` holds (a control sets a handful of its
    sixty-odd), not asked for one by one; the rest with ``getattr``; then put in the fields'
    order."""
    sparse = _sparse(cls)
    values = getattr(item, "_values", None) if sparse else None
    if not isinstance(values, dict):  # every field read, in order
        for name in _names(cls):
            v = getattr(item, name)
            if v is not None and not isinstance(v, _LEAVES):
                yield v
        return
    index, dense = _plan(cls)
    found: list[tuple[int, Any]] = []
    for name, v in values.items():
        if name in sparse and v is not None and not isinstance(v, _LEAVES):
            found.append((index[name], v))
    for i, name in dense:
        v = getattr(item, name)
        if v is not None and not isinstance(v, _LEAVES):
            found.append((i, v))
    if len(found) > 1:
        found.sort(key=_place)
    for _, v in found:
        yield v


def _place(pair: tuple[int, Any]) -> int:
    return pair[0]


def _configure_dataclass(
    self: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool = False
) -> Iterator[Any]:
    """Flet's ``DiffBuilder._configure_dataclass`` without the calls on values that hold no
    control (it yields the same controls in the same order, and leaves them alike)."""
    if item is None or isinstance(item, _LEAVES):
        return
    if not _is_dataclass_fast(item):
        if isinstance(item, dict):
            for v in item.values():
                yield from _configure_dataclass(self, v, parent, frozen)
        elif isinstance(item, list):
            for v in item:
                yield from _configure_dataclass(self, v, parent, frozen)
        return
    if parent is None:
        parent_ref = getattr(item, "_parent", None)
        parent = parent_ref() if parent_ref else None
    if parent:
        if parent is item:
            raise object_patch.ObjectPatchException(f"Parent is the same as item: {item}")
        item._parent = weakref.ref(parent)
    if hasattr(item, "_frozen"):
        frozen = item._frozen
    elif frozen:
        item._frozen = frozen
    item_cls = item.__class__
    if getattr(item_cls, "__flet_control_cls__", None) is None:
        item_cls.__flet_control_cls__ = self.control_cls
    is_control = bool(self.control_cls) and isinstance(item, self.control_cls)
    if is_control:
        if not configure_setattr_only:
            item.build()
            item._before_update_safe()
            object.__setattr__(item, "_initialized", True)
        yield item
    if not configure_setattr_only:
        child_parent = item if is_control else parent
        for v in _fields(item, item_cls):
            yield from _configure_dataclass(self, v, child_parent, frozen)
    if not frozen:
        dirty = getattr(item, "_dirty", None)
        if dirty is not None:
            dirty.clear()
        else:
            if item_cls.__setattr__ is not object_patch._control_setattr:
                item_cls.__setattr__ = object_patch._control_setattr
            object.__setattr__(item, "__changes", {})


def _removed(self: Any, item: Any, recurse: bool, whole: set[int], shallow: set[int]) -> Iterator[Any]:
    """Flet's ``DiffBuilder._removed_controls``, not walking again below a control already
    walked (``whole``: walked with ``recurse``, ``shallow``: without)."""
    control_cls = self.control_cls
    if control_cls and isinstance(item, control_cls):
        key = id(item)
        if key in whole or (not recurse and key in shallow):
            return
        (whole if recurse else shallow).add(key)
        if hasattr(item, "__prev_lists"):
            for item_list in getattr(item, "__prev_lists", {}).values():
                yield from _removed(self, item_list, recurse, whole, shallow)
            for item_dict in getattr(item, "__prev_dicts", {}).values():
                yield from _removed(self, item_dict, recurse, whole, shallow)
            for item_class in getattr(item, "__prev_classes", {}).values():
                yield from _removed(self, item_class, recurse, whole, shallow)
        elif recurse:
            for v in _fields(item, item.__class__):
                yield from _removed(self, v, recurse, whole, shallow)
        yield item
    elif isinstance(item, dict):
        for v in item.values():
            yield from _removed(self, v, recurse, whole, shallow)
    elif isinstance(item, list):
        for v in item:
            yield from _removed(self, v, recurse, whole, shallow)


def _get_removed_controls(self: Any) -> Iterator[Any]:
    """Flet's ``DiffBuilder.get_removed_controls``: each removed control once, in the order
    Flet first lists it."""
    whole: set[int] = set()
    shallow: set[int] = set()
    seen: set[int] = set()
    for key, dc in self._removed_dataclasses.items():
        for c in _removed(self, dc, key not in self._added_dataclasses, whole, shallow):
            if id(c) not in seen:
                seen.add(id(c))
                yield c


def _is_dataclass_fast(obj: Any) -> bool:
    """``dataclasses.is_dataclass``, the answer kept for each class of instance (a class
    itself is asked afresh): the diff and the encoder ask it of every value, 20 times a
    control."""
    answer = _IS_DATACLASS.get(type(obj))
    if answer is None:
        if isinstance(obj, type):
            return dataclasses.is_dataclass(obj)
        answer = _IS_DATACLASS[type(obj)] = hasattr(type(obj), "__dataclass_fields__")
    return answer


_IS_DATACLASS: dict[type, bool] = {}
_FIELDS_OF: dict[type, tuple[dataclasses.Field[Any], ...]] = {}


def _fields_of(obj: Any) -> tuple[dataclasses.Field[Any], ...]:
    """``dataclasses.fields``, once a class (a dataclass's fields do not change)."""
    cls = obj if isinstance(obj, type) else type(obj)
    found = _FIELDS_OF.get(cls)
    if found is None:
        found = _FIELDS_OF[cls] = dataclasses.fields(obj)
    return found


class _Dataclasses:
    """What ``object_patch`` reads of the ``dataclasses`` module: its two calls that the
    diff makes for every value answered from what was found for the class; the rest is the
    module's."""

    is_dataclass = staticmethod(_is_dataclass_fast)
    fields = staticmethod(_fields_of)

    def __getattr__(self, name: str) -> Any:
        return getattr(dataclasses, name)


class _Quiet:
    """``object_patch``'s logger while it does not log its debug lines (Flet sets it to
    ``INFO``): ``debug`` does nothing, without asking the level each time (the diff calls it
    about 17 times a control); everything else is the logger's."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger

    def debug(self, *args: Any, **kwargs: Any) -> None:
        """Not logged."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.logger, name)


_ORIGINAL_MODULES: dict[str, Any] = {
    "dataclasses": object_patch.dataclasses,
    "logger": object_patch.logger,
    "patch_logger": session.patch_logger,
    "is_dataclass": protocol.is_dataclass,
    "_get_root_dataclass_field": protocol._get_root_dataclass_field,
    "validate": base_control.validate,
}


#: What a value is to ``_compare_values``, by its class: 1 a dict, 2 a list, 3 a dataclass,
#: 0 anything else (compared with ``!=``).
_KINDS: dict[type, int] = {}


def _kind(value: Any) -> int:
    """What ``value`` is to ``_compare_values`` (see :data:`_KINDS`), kept for its class."""
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = 1 if isinstance(value, dict) else 2 if isinstance(value, list) else 3 if _is_dataclass_fast(value) else 0
        if not isinstance(value, type):  # (a class is asked afresh)
            _KINDS[type(value)] = kind
    return kind


def _compare_values(self: Any, parent: Any, path: list[Any], key: Any, src: Any, dst: Any, frozen: bool) -> None:
    """Flet's ``DiffBuilder._compare_values``, answering at once when neither value is a
    dict, a list or a dataclass (a text, a number, a colour: most of what it is asked):
    nothing when the two are alike, else a replace. Flet's own does the same after its
    checks; what it would also do then (the added and removed dataclasses, the snapshots
    of lists, dicts and dataclasses) does nothing to such values."""
    if not _kind(src) and not _kind(dst):
        if type(src) is not type(dst) or src != dst:
            self._item_replaced(path, key, dst)
        return
    _ORIGINAL["_compare_values"](self, parent, path, key, src, dst, frozen)


def _compare_dataclasses(self: Any, parent: Any, path: list[Any], src: Any, dst: Any, frozen: bool) -> None:
    """Flet's ``DiffBuilder._compare_dataclasses``, then the parent of each control that the
    new control holds in a property and the old one held too, the same object, made the new
    control (a part kept from the last drawing in a box drawn again).

    Flet's own passes over such a control (``old is new``) without giving it its new parent:
    it keeps the old one, which is gone, so the control is no longer on the page as Flet
    sees it. A tap on it then makes Flet look for it through the whole page, field by field
    (``Session.__find_live_control``: 5-18 ms of CPU a tap, measured), and ``control.page``
    fails. What is sent is the same."""
    _ORIGINAL["_compare_dataclasses"](self, parent, path, src, dst, frozen)
    if not frozen or src is dst:
        return
    control_cls = self.control_cls
    if control_cls and isinstance(parent, control_cls) and parent.is_isolated() and parent != self.dst_doc:
        return  # Flet's own left this control's children alone: so do these lines
    new = getattr(dst, "_values", None)
    old = getattr(src, "_values", None)
    if not new or old is None:
        return
    for name, value in new.items():
        if _kind(value) == 3 and old.get(name) is value and isinstance(value, control_cls) and value is not dst:
            value._parent = weakref.ref(dst)


#: Flet's field checks that look at the field's value alone (``V.instance_of``, ``V.between``
#: and the like): one that a ``Prop``'s default passes, it passes while the field is at it.
_VALUE_CHECKS = frozenset(
    f"V.{name}.<locals>._check" for name in ("instance_of", "between", "ge", "gt", "le", "lt", "one_of")
)

#: Per class: the field checks run always, those run only for a field set (in ``_values``),
#: and the class's own checks.
_CHECKS: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...], tuple[Any, ...]]] = {}


def _checks(instance: Any) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...], tuple[Any, ...]]:
    """What :func:`_validate` checks of an instance of ``instance``'s class, found once a class:
    Flet's compiled checks, those of a ``Prop`` field whose value alone they look at and whose
    default passes them put apart (checked only where the field is set)."""
    cls = type(instance)
    found = _CHECKS.get(cls)
    if found is None:
        compile_spec: Any = validation._compile_class_spec  # (cached by class)
        spec = compile_spec(cls)
        always: list[tuple[str, Any]] = []
        when_set: list[tuple[str, Any]] = []
        for name, rule in spec.field_rules:
            raw = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
            kind = getattr(rule._check, "__qualname__", "")
            if type(raw) is Prop and kind in _VALUE_CHECKS and _passes(rule, instance, name, raw.default):
                when_set.append((name, rule))
            else:
                always.append((name, rule))
        found = _CHECKS[cls] = (tuple(always), tuple(when_set), tuple(spec.class_rules))
    return found


def _passes(rule: Any, instance: Any, name: str, value: Any) -> bool:
    """Whether Flet's check ``rule`` passes ``value`` (a default that is no value of the
    field's, a marker of "not set", fails it)."""
    try:
        rule.validate(instance, name, value)
    except Exception:  # noqa: BLE001 -- a check that cannot take it: the field checked always
        return False
    return True


def _validate(instance: Any, *, suppress_repeated_errors: bool = False) -> None:
    """Flet's ``validate`` (every control, at every redraw that makes or diffs it), checking a
    field at its default only where the check could fail there: most of a control's checks
    are of its ``expand`` and ``opacity``, left at their defaults. Where a check fails, Flet's
    own runs (in its order), for its error and its record of the errors it reported; where all pass, that
    record is emptied as Flet's empties it, and not made where there is none (Flet makes an
    empty one on every control)."""
    values = getattr(instance, "_values", None)
    if values is None:
        _ORIGINAL_MODULES["validate"](instance, suppress_repeated_errors=suppress_repeated_errors)
        return
    always, when_set, class_rules = _checks(instance)
    try:
        for name, rule in always:
            rule.validate(instance, name, getattr(instance, name))
        for name, rule in when_set:
            if name in values:
                rule.validate(instance, name, getattr(instance, name))
        for class_rule in class_rules:
            class_rule.validate(instance)
    except Exception:  # noqa: BLE001 -- Flet's own then, in its order: its error, or its silence
        _ORIGINAL_MODULES["validate"](instance, suppress_repeated_errors=suppress_repeated_errors)
        return
    if suppress_repeated_errors:
        reported = getattr(instance, validation._REPORTED_VALIDATION_ERRORS_KEY, None)
        if reported:
            reported.clear()


def _to_message(self: Any) -> list[Any]:
    """Flet's ``ObjectPatch.to_message``: the patch's operations, each path given as a node of
    a shared table of the paths' beginnings and its last part. A path whose beginning is the
    one before's (the properties of one control, one after the other) is not looked up again
    in the table, node by node."""
    paths: list[Any] = [0]
    made = 1  # the next node's number
    last: list[Any] | None = None  # the path before, and the node of its beginning
    last_node: list[Any] = paths

    def encode_path(path: list[Any]) -> list[Any]:
        nonlocal made, last, last_node
        n = len(path)
        if n == 0:
            return [0, 0]  # root object
        if last is not None and len(last) == n and last[:-1] == path[:-1]:
            return [last_node[0], path[-1]]
        parent = node = paths
        for part in path[:-1]:
            if len(parent) == 1:
                parent.append({})
            node = parent[1].get(part, None)
            if node is None:
                node = [made]
                parent[1][part] = node
                made += 1
            parent = node
        last, last_node = path, node
        return [node[0], path[-1]]

    ops: list[Any] = [paths]
    for op in self.patch:
        kind = op["op"]
        if kind == "remove":
            ops.append([object_patch.Operation.Remove, *encode_path(op["path"])])
        elif kind == "replace":
            ops.append([object_patch.Operation.Replace, *encode_path(op["path"]), op["value"]])
        elif kind == "add":
            ops.append([object_patch.Operation.Add, *encode_path(op["path"]), op["value"]])
        elif kind == "move":
            ops.append([object_patch.Operation.Move, *encode_path(op["from"]), *encode_path(op["path"])])
        else:
            raise object_patch.ObjectPatchException(f"Unknown operation: {kind}")
    return ops


def installed() -> bool:
    """Whether the faster steps are Flet's now."""
    builder: Any = object_patch.DiffBuilder
    return builder._configure_dataclass is _configure_dataclass


def install(original: bool = False) -> bool:
    """Put the faster steps in Flet's place, on the Flet they were written for (``original``:
    put Flet's own back). Returns whether the faster ones are in place.

    Besides the two steps: ``object_patch`` and the message encoder ask
    ``dataclasses.is_dataclass`` (and ``fields``) of a class's instances from a table kept
    for it, the encoder finds a field's first declaration once a class and field,
    ``object_patch``'s debug lines cost nothing while its logger is not at ``DEBUG``, and
    Flet's check of each control and a patch's message are :func:`_validate` and
    :func:`_to_message`."""
    builder: Any = object_patch.DiffBuilder
    patch: Any = object_patch
    proto: Any = protocol
    sessions: Any = session
    controls: Any = base_control
    if original or flet.__version__ != FOR_FLET:
        patch.ObjectPatch.to_message = _ORIGINAL["to_message"]
        builder._configure_dataclass = _ORIGINAL["_configure_dataclass"]
        builder.get_removed_controls = _ORIGINAL["get_removed_controls"]
        builder._compare_values = _ORIGINAL["_compare_values"]
        builder._compare_dataclasses = _ORIGINAL["_compare_dataclasses"]
        patch.dataclasses = _ORIGINAL_MODULES["dataclasses"]
        patch.logger = _ORIGINAL_MODULES["logger"]
        sessions.patch_logger = _ORIGINAL_MODULES["patch_logger"]
        proto.is_dataclass = _ORIGINAL_MODULES["is_dataclass"]
        proto._get_root_dataclass_field = _ORIGINAL_MODULES["_get_root_dataclass_field"]
        controls.validate = _ORIGINAL_MODULES["validate"]
        return False
    patch.ObjectPatch.to_message = _to_message
    builder._configure_dataclass = _configure_dataclass
    builder.get_removed_controls = _get_removed_controls
    builder._compare_values = _compare_values
    builder._compare_dataclasses = _compare_dataclasses
    patch.dataclasses = _Dataclasses()
    logger = _ORIGINAL_MODULES["logger"]
    patch.logger = logger if logger.isEnabledFor(logging.DEBUG) else _Quiet(logger)
    sessions.patch_logger = patch.logger  # the same logger, for the lists of a patch
    proto.is_dataclass = _is_dataclass_fast
    proto._get_root_dataclass_field = functools.cache(_ORIGINAL_MODULES["_get_root_dataclass_field"])
    controls.validate = _validate
    return True
