"""The league's one clock: UTC stamps as ISO 8601 text, the same in both backends.

>>> import datetime as dt
>>> stamp(dt.datetime(2026, 11, 29, 22, 30, tzinfo=dt.UTC))
'2026-11-29T22:30:00Z'
>>> later("2026-11-29T22:30:00Z", hours=48)
'2026-12-01T22:30:00Z'
"""

from __future__ import annotations

import datetime as _dt


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC)


def stamp(moment: _dt.datetime | None = None) -> str:
    """``moment`` (now when None) as ``2026-11-29T22:30:00Z``."""
    m = (moment or now()).astimezone(_dt.UTC)
    return m.isoformat(timespec="seconds").replace("+00:00", "Z")


def parse(text: str) -> _dt.datetime:
    return _dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def later(text: str, *, hours: float) -> str:
    """The stamp ``hours`` after ``text``."""
    return stamp(parse(text) + _dt.timedelta(hours=hours))
