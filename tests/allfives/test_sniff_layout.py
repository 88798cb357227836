"""The sniff (``spinner: "sniff"``) in the All Fives layout: fives-and-threes.md, The sniff.

The first double set in a hand is the sniff, set across (a spinner whose open ends count
their half once both sides are covered) or in line (its open in-line ends count their half;
its flanks take tiles once both in-line ends are covered, and never count). Every later
double is an ordinary double.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.allfives.layout import (
    DOUBLE,
    LINE,
    SNIFF_ACROSS,
    SNIFF_INLINE,
    SPINNER,
    Layout,
    SniffLayout,
)
from scorekeeper.dominoes.tiles import Tile

from .sniffs import DOUBLE_SIX, WAYS, placements, replay, sniff_hands, spec_count, spec_points


def T(text: str) -> Tile:
    return Tile.parse(text)


def steps(*entries):
    """``("1-4",), ("4-4", "1-4", "inline"), ...`` as replay steps."""
    out = []
    for e in entries:
        tile, on, way = e + (None, "across")[len(e) - 1 :]
        out.append((T(tile), None if on is None else T(on), way))
    return out


# ---------------------------------------------------------------- the spec's example
@pytest.mark.parametrize(
    "way, counts",
    [("across", [5, 9, 14, 10]), ("inline", [5, 5, 6, 6])],
)
def test_the_spec_example_step_by_step(way, counts):
    # [1-4] led (5); [4-4] on it: across 1 + 8 = 9, inline 1 + 4 = 5; [4-5] on the sniff:
    # across 1 + 5 + 8 = 14, inline 6; [4-0] on the sniff: across 1 + 5 + 0 + 4 = 10, inline 6
    lay = Layout("sniff")
    assert isinstance(lay, SniffLayout) and lay.spinner == "sniff" and lay.sniff is None
    got = [lay.lead(T("1-4"))]
    assert lay.sets_sniff(T("4-4"))
    assert lay.count_after(T("4-4"), T("1-4"), sniff=way) == counts[1]
    got.append(lay.place(T("4-4"), T("1-4"), sniff=way))
    assert lay.sniff == (T("4-4"), way) and not lay.sets_sniff(T("5-5"))
    for tile in ("4-5", "4-0"):
        assert lay.fits(T(tile)) == [T("4-4")]
        assert lay.count_after(T(tile), T("4-4")) == lay.count_after(T(tile), T("4-4"), sniff="inline")
        got.append(lay.place(T(tile), T("4-4")))
        assert lay.count == lay.recount() == spec_count(lay)
    assert got == counts
    node = lay.nodes[T("4-4")]
    if way == "across":  # both sides covered, one end taken by 4-0, one end still open
        assert (node.kind, node.sides, node.ends) == (SNIFF_ACROSS, 0, 1)
        assert sorted(lay.open_ends()) == [0, 1, 4, 5]
    else:  # in line: 4-5 took the open end, 4-0 a flank; one flank left, counting nothing
        assert (node.kind, node.sides, node.ends) == (SNIFF_INLINE, 0, 1)
        assert sorted(lay.open_ends()) == [0, 1, 4, 5]
    assert [str(n.tile) for n in lay.children(T("4-4"))] == ["5-4", "4-0"]
    assert lay.state()[-1] == ("4-4", way)


# ---------------------------------------------------------------- the sniff as the lead
def test_a_led_sniff_across_is_a_spinner_whose_open_ends_count_their_half():
    lay = Layout("sniff")
    assert lay.lead(T("4-4")) == 8  # across by default: its pips while a side is open
    node = lay.root
    assert (node.kind, node.sides, node.ends) == (SNIFF_ACROSS, 2, 0)
    assert lay.open_ends() == [4, 4]  # its two sides; its ends are closed
    assert lay.place(T("4-1"), T("4-4")) == 8 + 1
    assert (node.sides, node.ends) == (1, 0) and lay.open_ends() == [4, 1]  # ends still closed
    assert lay.place(T("4-2"), T("4-4")) == 1 + 2 + 4 + 4  # both sides covered: each end its half
    assert (node.sides, node.ends) == (0, 2) and sorted(lay.open_ends()) == [1, 2, 4, 4]
    assert lay.place(T("4-3"), T("4-4")) == 1 + 2 + 3 + 4
    assert lay.place(T("4-0"), T("4-4")) == 1 + 2 + 3 + 0
    assert T("4-4") not in lay.open
    assert lay.attach(T("6-4"), T("4-4")) == -1
    assert lay.point_on(T("6-4"), T("4-4")) == (
        "6-4 cannot be played on 4-4: the sides and ends of the sniff 4-4 are all covered"
    )
    assert lay.point_on(T("6-5"), T("4-1")) == "6-5 cannot be played on 4-1: the open end of 4-1 shows 1"
    assert lay.count == lay.recount() == spec_count(lay)


def test_a_led_sniff_in_line_opens_its_flanks_only_once_both_ends_are_covered():
    lay = Layout("sniff")
    assert lay.lead(T("4-4"), sniff="inline") == 8  # both in-line ends show a 4
    node = lay.root
    assert (node.kind, node.sides, node.ends) == (SNIFF_INLINE, 2, 0)
    assert lay.place(T("4-1"), T("4-4")) == 4 + 1  # one end covered: the other shows 4
    assert (node.sides, node.ends) == (1, 0) and lay.open_ends() == [4, 1]  # flanks closed
    assert lay.count_after(T("4-2"), T("4-4")) == 1 + 2
    assert lay.place(T("4-2"), T("4-4")) == 1 + 2  # both ends covered: the flanks open, count 0
    assert (node.sides, node.ends) == (0, 2) and lay.open_ends() == [4, 4, 1, 2]
    assert lay.fits(T("4-3")) == [T("4-4")]
    assert lay.place(T("4-3"), T("4-4")) == 1 + 2 + 3  # a flank tile counts its own open half
    assert lay.place(T("4-0"), T("4-4")) == 1 + 2 + 3 + 0
    assert lay.fits(T("4-6")) == [] and T("4-4") not in lay.open
    assert lay.point_on(T("4-6"), T("4-4")) == (
        "6-4 cannot be played on 4-4: both ends and both flanks of the sniff 4-4 are covered"
    )
    assert lay.point_on(T("6-5"), T("4-3")) == "6-5 cannot be played on 4-3: the open end of 4-3 shows 3"
    assert lay.count == lay.recount() == spec_count(lay)


def test_a_sniff_set_in_line_on_the_layout_counts_the_half_it_did_not_match():
    lay = replay(steps(("6-5",), ("5-5", "6-5", "inline")))
    assert lay.count == 6 + 5
    node = lay.nodes[T("5-5")]
    assert (node.kind, node.sides, node.ends) == (SNIFF_INLINE, 1, 0)
    assert lay.open_ends() == [6, 5]  # the 5-5's far end; no flank yet
    assert lay.place(T("5-2"), T("5-5")) == 6 + 2  # its far end covered: the flanks open
    assert lay.open_ends() == [6, 5, 5, 2]
    assert lay.place(T("5-0"), T("5-5")) == 6 + 2 + 0
    assert lay.place(T("5-1"), T("5-5")) == 6 + 2 + 0 + 1
    assert lay.attach(T("5-3"), T("5-5")) == -1


def test_a_sniff_set_across_on_the_layout_keeps_counting_through_its_open_ends():
    lay = replay(steps(("6-5",), ("5-5", "6-5")))
    assert lay.count == 6 + 10 and lay.sniff == (T("5-5"), "across")
    assert lay.open_ends() == [6, 5]  # its far side; its ends are closed
    assert lay.place(T("5-2"), T("5-5")) == 6 + 2 + 5 + 5
    assert lay.place(T("5-0"), T("5-5")) == 6 + 2 + 0 + 5
    assert lay.place(T("5-1"), T("5-5")) == 6 + 2 + 0 + 1


# ---------------------------------------------------------------- later doubles
@pytest.mark.parametrize("way", WAYS)
def test_a_double_after_the_sniff_is_an_ordinary_double(way):
    lay = replay(steps(("1-4",), ("4-4", "1-4", way)))
    base = 1 + (8 if way == "across" else 4)
    assert not lay.sets_sniff(T("1-1"))
    assert lay.count_after(T("1-1"), T("1-4"), sniff="inline") == base - 1 + 2
    assert lay.place(T("1-1"), T("1-4"), sniff="inline") == base - 1 + 2  # way ignored
    node = lay.nodes[T("1-1")]
    assert (node.kind, node.sides, node.ends) == (DOUBLE, 1, 0)
    assert lay.sniff == (T("4-4"), way)
    assert lay.place(T("1-6"), T("1-1")) == base - 1 + 6  # both sides covered: counts nothing
    assert T("1-1") not in lay.open  # never spins
    assert lay.attach(T("1-5"), T("1-1")) == -1
    assert lay.point_on(T("1-5"), T("1-1")) == "5-1 cannot be played on 1-1: both sides of 1-1 are covered"
    assert lay.count == lay.recount() == spec_count(lay)


@pytest.mark.parametrize("way", WAYS)
def test_a_double_set_on_the_sniff_is_ordinary(way):
    lay = replay(steps(("3-3", None, way), ("3-1", "3-3"), ("3-2", "3-3")))
    lay.place(T("3-5"), T("3-3"))  # on the sniff's first end (flank)
    lay.place(T("2-2"), T("3-2"), sniff=way)
    assert lay.nodes[T("2-2")].kind == DOUBLE
    assert [n.kind for n in lay if n.tile.is_double] == [SNIFF_ACROSS if way == "across" else SNIFF_INLINE, DOUBLE]
    assert lay.count == lay.recount() == spec_count(lay)


def test_the_sniff_may_come_late_and_no_other_double_spins():
    lay = replay(steps(("6-5",), ("6-3", "6-5"), ("3-3", "6-3", "inline"), ("5-5", "6-5", "inline"), ("3-1", "3-3")))
    assert lay.sniff == (T("3-3"), "inline")
    kinds = {str(n.tile): n.kind for n in lay}
    assert kinds == {"6-5": LINE, "6-3": LINE, "3-3": SNIFF_INLINE, "5-5": DOUBLE, "3-1": LINE}
    assert SPINNER not in kinds.values()
    assert lay.count == 10 + 1 == lay.recount() == spec_count(lay)


# ---------------------------------------------------------------- sets_sniff, the way ignored
@pytest.mark.parametrize("spinner", ["first-double", "none", "all-doubles", "sniff"])
def test_sets_sniff_truth_table(spinner):
    lay = Layout(spinner)
    sniff = spinner == "sniff"
    assert [lay.sets_sniff(T(t)) for t in ("4-4", "0-0", "4-1")] == [sniff, sniff, False]
    lay.lead(T("4-1"))
    assert [lay.sets_sniff(T(t)) for t in ("4-4", "1-1", "6-5")] == [sniff, sniff, False]
    lay.place(T("4-4"), T("4-1"), sniff="inline")
    assert [lay.sets_sniff(T(t)) for t in ("1-1", "6-6", "6-5")] == [False, False, False]
    assert (lay.sniff is not None) == sniff


@pytest.mark.parametrize("spinner", ["first-double", "none", "all-doubles"])
def test_the_other_policies_ignore_the_sniff_argument(spinner):
    plain = replay(steps(("4-1",), ("4-4", "4-1"), ("1-1", "4-1"), ("4-2", "4-4")), spinner)
    told = replay(
        steps(("4-1", None, "inline"), ("4-4", "4-1", "inline"), ("1-1", "4-1", "bogus"), ("4-2", "4-4", "inline")),
        spinner,
    )
    assert told.state() == plain.state() and told.sniff is None and type(told) is Layout
    assert plain.count_after(T("4-3"), T("4-4"), sniff="inline") == plain.count_after(T("4-3"), T("4-4"))
    led = Layout(spinner)
    assert led.lead(T("5-5"), sniff="inline") == 10 and led.root.kind != SNIFF_INLINE


def test_the_way_is_ignored_on_non_doubles_and_later_doubles():
    a = replay(steps(("6-1",), ("1-1", "6-1", "inline"), ("6-6", "6-1"), ("1-2", "1-1")))
    b = replay(steps(("6-1", None, "bogus"), ("1-1", "6-1", "inline"), ("6-6", "6-1", "bogus"), ("1-2", "1-1", "x")))
    assert a.state() == b.state() and a.sniff == b.sniff == (T("1-1"), "inline")
    assert a.nodes[T("6-6")].kind == DOUBLE


def test_an_unknown_way_for_the_sniff_is_refused_and_changes_nothing():
    lay = replay(steps(("4-1",)))
    before = lay.state()
    with pytest.raises(ValueError, match='the sniff 4-4 is set "across" or "inline", not \'sideways\''):
        lay.attach(T("4-4"), T("4-1"), sniff="sideways")
    assert lay.state() == before and lay.sniff is None
    with pytest.raises(ValueError):
        lay.count_after(T("4-4"), T("4-1"), sniff="sideways")
    with pytest.raises(ValueError):
        Layout("sniff").lead(T("2-2"), sniff="")
    assert lay.attach(T("6-6"), T("4-1"), sniff="sideways") == -1  # does not fit: nothing to refuse


def test_state_tells_how_the_sniff_was_set():
    across = replay(steps(("1-4",), ("4-4", "1-4", "across")))
    inline = replay(steps(("1-4",), ("4-4", "1-4", "inline")))
    assert across.state() != inline.state()
    assert across.state()[-1] == ("4-4", "across") and inline.state()[-1] == ("4-4", "inline")
    assert replay(steps(("1-4",))).state()[-1] is None


# ---------------------------------------------------------------- count_after
@pytest.mark.parametrize(
    "prefix",
    [
        [],
        [("1-4",)],
        [("1-4",), ("4-4", "1-4", "across")],
        [("1-4",), ("4-4", "1-4", "inline")],
        [("1-4",), ("4-4", "1-4", "across"), ("4-5", "4-4")],
        [("1-4",), ("4-4", "1-4", "inline"), ("4-5", "4-4")],
        [("4-4", None, "across"), ("4-5", "4-4"), ("4-3", "4-4"), ("5-5", "4-5")],
        [("4-4", None, "inline"), ("4-5", "4-4"), ("4-3", "4-4"), ("5-5", "4-5")],
        [("6-5",), ("5-2", "6-5"), ("2-2", "5-2", "inline"), ("2-1", "2-2")],
    ],
)
def test_count_after_is_the_count_after_attach_for_every_legal_placement(prefix):
    done = steps(*prefix)
    lay = replay(done)
    moves = [(t, None) for t in DOUBLE_SIX] if not done else placements(lay)
    assert moves
    for tile, on in moves:
        for way in WAYS:
            predicted = lay.count_after(tile, on, sniff=way)
            after = replay([*done, (tile, on, way)])
            assert predicted == after.count == after.recount() == spec_count(after), (tile, on, way)
    assert lay.state() == replay(done).state()  # count_after changed nothing


# ---------------------------------------------------------------- properties
@given(sniff_hands())
def test_random_hands_keep_the_count_the_open_ends_and_the_fits_right(hand):
    lay = Layout("sniff")
    for n, (tile, on, way) in enumerate(hand):
        predicted = lay.count_after(tile, on, sniff=way)
        will_set = lay.sets_sniff(tile)
        count = lay.lead(tile, sniff=way) if on is None else lay.attach(tile, on, sniff=way)
        assert count == predicted == lay.count == lay.recount() == spec_count(lay)
        # the first double is the sniff, set the way its play said; every other double is ordinary
        sniff = next(((t, w) for t, _, w in hand[: n + 1] if t.is_double), None)
        assert will_set == (sniff is not None and sniff[0] is tile)
        assert lay.sniff == sniff
        for node in lay:
            if node.tile.is_double:
                the_sniff = sniff is not None and node.tile is sniff[0]
                assert node.kind == (
                    DOUBLE if not the_sniff else {"across": SNIFF_ACROSS, "inline": SNIFF_INLINE}[sniff[1]]
                )
        # the open ends and the fits, as the spec's tree gives them
        points = spec_points(lay)
        assert sorted(lay.open_ends()) == sorted(v for p, _ in points.values() for v in p)
        assert list(lay.open) == [t for t, (p, _) in points.items() if p]
        for t in DOUBLE_SIX:
            if t not in lay:
                assert lay.fits(t) == [o for o, (p, _) in points.items() if any(v in t for v in p)]


@given(sniff_hands(), st.sampled_from(WAYS))
def test_attach_changes_nothing_when_a_tile_does_not_fit(hand, way):
    lay = replay(hand)
    before = lay.state()
    for t in DOUBLE_SIX:
        if t not in lay:
            fits = lay.fits(t)
            for on in lay:
                if on.tile not in fits:
                    assert lay.attach(t, on.tile, sniff=way) == -1
                    assert lay.point_on(t, on.tile)
    assert lay.state() == before
