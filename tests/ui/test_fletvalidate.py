"""Flet's check of a control at every redraw (``validate``), as the app's ``fletdiff`` runs it:
for every control class of Flet, with random properties (its ``expand`` and ``opacity`` at
their defaults, set to good values or to bad ones), it raises where Flet's raises, with the
same message, and stays quiet where Flet's stays quiet, a first time and again (Flet reports
an error once a control until the control is right again)."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from flet.controls import base_control
from flet.controls.base_control import BaseControl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.app import fletdiff
from ui.test_fletencode import CLASSES, drawn

CONTROLS = [cls for cls in CLASSES if issubclass(cls, BaseControl)]
FLETS = fletdiff._ORIGINAL_MODULES["validate"]
KEY = "__reported_validation_errors"

#: What a control's checked fields are set to: good values, bad ones, the defaults.
SETTINGS = {
    "opacity": st.sampled_from([0.0, 0.5, 1.0, 1, 1.5, -0.1, None, "x"]),
    "expand": st.sampled_from([None, True, False, 1, 2, "x", 1.5]),
}


def outcome(check: Any, item: Any, suppress: bool) -> str | None:
    """What ``check`` does to ``item``: the error's kind and message (a value of another type
    than a check's fails in it: a ``TypeError``, an ``AttributeError``), or None."""
    try:
        check(item, suppress_repeated_errors=suppress)
    except Exception as e:  # noqa: BLE001 -- every error compared
        return f"{type(e).__name__}: {e}"
    return None


def forget(item: Any) -> None:
    """Flet's record of the errors reported on ``item`` taken away (as a new control has none)."""
    if KEY in vars(item):
        object.__delattr__(item, KEY)


def test_it_is_installed_on_the_flet_it_was_written_for() -> None:
    assert fletdiff.install()
    assert base_control.validate is fletdiff._validate
    fletdiff.install(original=True)
    assert base_control.validate is FLETS
    fletdiff.install()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # (a deprecated property drawn: Flet's check warns)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_control_with_random_properties_is_checked_as_flet_checks_it(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from(CONTROLS))
    item = drawn(cls, data)
    if item is None:
        return
    frozen = getattr(item, "_frozen", None)
    if frozen is not None:
        object.__delattr__(item, "_frozen")  # (as _before_update_safe checks it)
    for name, values in SETTINGS.items():
        if name in getattr(cls, "_prop_defaults", {}) and data.draw(st.booleans()):
            item._values[name] = data.draw(values)
    for suppress in (False, True):
        forget(item)
        flets = [outcome(FLETS, item, suppress) for _ in range(3)]
        forget(item)
        ours = [outcome(fletdiff._validate, item, suppress) for _ in range(3)]
        assert ours == flets, (cls.__name__, suppress)


def test_a_control_put_right_reports_its_next_error_again() -> None:
    """Flet reports an error once a control while it stays, and again once it was put right
    in between: so does the app's step."""
    for check in (FLETS, fletdiff._validate):
        text = ft.Text("a", opacity=2.0)
        forget(text)
        seen = [outcome(check, text, True)]
        seen.append(outcome(check, text, True))  # the same error: reported once
        text.opacity = 0.5
        seen.append(outcome(check, text, True))  # right again
        text.opacity = 2.0
        seen.append(outcome(check, text, True))  # reported again
        assert seen == [
            "ValueError: opacity must be between 0.0 and 1.0 inclusive, got 2.0",
            None,
            None,
            "ValueError: opacity must be between 0.0 and 1.0 inclusive, got 2.0",
        ], check


@pytest.mark.parametrize("cls", [ft.Container, ft.Text, ft.Semantics, ft.Row, ft.Column, ft.Stack, ft.TextSpan])
def test_a_control_at_its_defaults_is_checked_without_a_record_made(cls: type) -> None:
    """The controls the table screen makes most, their checked fields at their defaults: no
    check of a field at its default runs, and no record of errors is made on the control
    (Flet makes an empty one on each)."""
    item = cls() if cls is not ft.TextSpan else cls("a")
    forget(item)
    always, when_set, _ = fletdiff._checks(item)
    assert {name for name, _ in when_set} >= {"opacity", "expand"} and not always
    fletdiff._validate(item, suppress_repeated_errors=True)
    assert KEY not in vars(item)
    FLETS(item, suppress_repeated_errors=True)
    assert vars(item)[KEY] == set()
