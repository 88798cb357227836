"""What a fixture's sheets and disputes make of its result: properties (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.league.approval import Version, decide

versions = st.lists(
    st.builds(
        Version,
        id=st.integers(1, 50),
        sender=st.sampled_from(["club:1", "club:2"]),
        version=st.integers(1, 3),
        content=st.sampled_from(["a", "b"]),
        confirmed_home=st.booleans(),
        confirmed_away=st.booleans(),
        received_at=st.sampled_from(["2026-11-29T22:30:00Z", "2026-11-29T22:31:00Z"]),
    ),
    min_size=1,
    max_size=2,
    unique_by=lambda v: v.sender,
).filter(lambda vs: all(v.confirmed_home or v.confirmed_away for v in vs))


@given(versions, st.lists(st.text(min_size=1, max_size=5), max_size=2))
def test_the_decision_follows_the_rules_in_any_order(latest: list[Version], disputes: list[str]):
    d = decide(latest, disputes, 48)
    assert d == decide(latest[::-1], disputes, 48)
    contents = {v.content for v in latest}
    both = any(v.confirmed_home for v in latest) and any(v.confirmed_away for v in latest)
    if disputes:
        assert d.state == "disputed"
    elif len(contents) > 1:
        assert d.state == "different"
    elif both:
        assert d.state == "approved" and d.due_at is None
    else:
        assert d.state == "waiting" and d.due_at.startswith("2026-12-01T22:3")
    assert d.sheet in {v.id for v in latest}


def test_no_sheet_no_result():
    assert decide([], ["x"], 48) is None
