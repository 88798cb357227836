"""The layout drawn for the pixel box it has (issue 27): on a phone its digits stay 14 px or
more (issue 48), no tile covers another, and the buttons of the ends a tile may go on sit beyond those
ends, on no tile (scorekeeper/ui/allfives/fit.py, drawing.py, placing.py)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.allfives.engine import Match
from scorekeeper.allfives.layout import Layout
from scorekeeper.allfives.record import load, parse_record
from scorekeeper.allfives.simulate import random_record
from scorekeeper.dominoes.tiles import Tile, tiles_of_set
from scorekeeper.ui.allfives import fit
from scorekeeper.ui.allfives.drawing import Drawing, draw_layout
from scorekeeper.ui.allfives.layout_view import drawing_height
from scorekeeper.ui.allfives.tiles import MIN_DIGITS, digit_size
from scorekeeper.ui.shell.widgets import PAD

from .test_ui_model import assert_clear


def _box(width: float, board: float = 40.0) -> tuple[float, float]:
    """The drawing's box (px) on a screen ``width`` wide (``screens.Table``): the content
    width, and the drawing's height less what a pegboard (``board`` px high) takes over the
    chips."""
    content = width - 2 * PAD
    return content, max(170.0, drawing_height(content) - (board - 40.0))


PHONES = {"360x800": _box(360), "412x915": _box(412)}
PEGBOARD = _box(360, board=91.2)  # the Fives and Threes pegboard at 336 px
RULES = {
    "two players": dict(players=2),
    "two players, no spinner": dict(players=2, spinner="none"),
    "four players in partnerships": dict(players=4, teams=True),
    "four players, every double spins": dict(players=4, spinner="all-doubles"),
    "two players, the sniff": dict(players=2, spinner="sniff"),
}
PUB = dict(count="fives-and-threes", spinner="none", draw=False, hand_end="go", domino="side", target=61)


def turns(rules: dict, seed: int):
    """Every turn's layout of the first hand of a random legal match (the same object, grown)."""
    setup, events = parse_record(random_record(seed, max_hands=1, **rules))
    m = Match(setup)
    for ev in events:
        m.push(ev)
        h = m.hand
        if h is not None and len(h.layout):
            yield h.layout


def rects(d: Drawing, unit: float, at: tuple[float, float]) -> list[fit.Rect]:
    return [(at[0] + g.x * unit, at[1] + g.y * unit, g.w * unit, g.h * unit) for g in d.tiles]


def check_buttons(lay: Layout, d: Drawing, width: float, height: float) -> tuple[int, int]:
    """For every tile not down that fits several ends: its buttons are 44 px or more, in the
    box, on no tile and no other button. (Such tiles, those for which the drawing moved or
    shrank while they wait.)"""
    unit = fit.unit_for(d, width, height)
    marks = {m.tile: m for m in reversed(d.ends)}  # the first open end of each tile
    asked = moved = 0
    for t in tiles_of_set(6):
        ons = [on for on in lay.fits(t) if on in marks] if t not in lay else []
        if len(ons) < 2:
            continue
        asked += 1
        sizes = [fit.button_size([f"on {on}", "+20"]) for on in ons]
        b = fit.end_buttons(d, unit, width, height, [(marks[on], s) for on, s in zip(ons, sizes, strict=True)])
        moved += (b.unit, b.origin) != (unit, fit.origin(d, unit, width, height))
        tiles = rects(d, b.unit, b.origin)
        for g in tiles:  # (the drawing, moved or not, stays in its box)
            assert 0 <= g[0] and g[0] + g[2] <= width + 1e-9 and 0 <= g[1] and g[1] + g[3] <= height + 1e-9
        placed: list[fit.Rect] = []
        for s in b.spots:
            r = (s.left, s.top, s.width, s.height)
            assert s.width >= fit.END_BUTTON and s.height >= fit.END_BUTTON
            assert 0 <= s.left and s.left + s.width <= width and 0 <= s.top and s.top + s.height <= height
            assert not fit._hits(r, tiles), f"the button {s} covers a tile"
            assert not fit._hits(r, placed), f"the button {s} covers another"
            placed.append(r)
    return asked, moved


@settings(max_examples=30)
@given(
    seed=st.integers(0, 100_000),
    rules=st.sampled_from(sorted(RULES)),
    phone=st.sampled_from(sorted(PHONES)),
)
# arms turning for the box and every door kept left no clear way: a mark under a tile
@example(seed=6971, rules="four players, every double spins", phone="412x915")
@example(seed=6971, rules="four players, every double spins", phone="360x800")
def test_on_a_phone_every_turn_is_drawn_clear_with_legible_digits_and_buttons_on_no_tile(seed, rules, phone):
    width, height = PHONES[phone]
    box = fit.drawing_box(width, height)
    for lay in turns(RULES[rules], seed):
        d = draw_layout(lay, box)
        assert d.box == box
        assert_clear(d)
        unit = fit.unit_for(d, width, height)
        if d.fits:  # (else, a hand too long for the box or a search out of tries: drawn smaller)
            assert unit >= fit.MIN_UNIT
            assert min(digit_size(fit.half_px(unit, g.spinner)) for g in d.tiles) >= MIN_DIGITS
            left, top = fit.origin(d, unit, width, height)
            assert left >= fit.MARGIN - 1e-9 and top >= fit.MARGIN - 1e-9
        check_buttons(lay, d, width, height)


@pytest.mark.parametrize("phone", sorted(PHONES))
@pytest.mark.parametrize("rules", ["two players", "two players, no spinner", "four players in partnerships"])
def test_these_hands_fit_a_phone_at_every_turn(phone, rules):
    # measured (benchmarks/drawing.py): every turn of these seeded hands is laid out in the box
    width, height = PHONES[phone]
    box = fit.drawing_box(width, height)
    for seed in range(6):
        hand = load(random_record(seed, max_hands=1, **RULES[rules])).hands[0]
        for lay in turns(RULES[rules], seed):
            assert draw_layout(lay, box).fits, (seed, len(lay))
        assert len(hand.layout) >= 7


@pytest.mark.parametrize("players", [2, 4])
def test_fives_and_threes_hands_fit_the_phone_under_the_pegboard(players):
    width, height = PEGBOARD
    box = fit.drawing_box(width, height)
    assert height == 170 and box[1] == 13
    rules = dict(players=players, teams=players == 4, **PUB)
    for seed in range(6):
        for lay in turns(rules, seed):
            d = draw_layout(lay, box)
            assert d.fits, (seed, len(lay))
            check_buttons(lay, d, width, height)


@settings(max_examples=60)
@given(width=st.floats(240, 1400), height=st.floats(170, 420), w=st.integers(1, 200), h=st.integers(1, 200))
def test_a_drawing_that_fits_its_box_is_drawn_at_the_least_unit_or_more(width, height, w, h):
    box = fit.drawing_box(width, height)
    d = Drawing([], [], w, h, 0, [], 0, box)
    unit = fit.unit_for(d, width, height)
    assert unit >= 4
    if d.fits:
        assert unit >= fit.MIN_UNIT
        assert digit_size(fit.half_px(unit, True)) >= MIN_DIGITS  # a spinner's half is the smaller
        assert d.width * unit <= width - 2 * fit.MARGIN + 1e-9 and d.height * unit <= height - 2 * fit.MARGIN + 1e-9


def test_without_a_box_the_drawing_is_as_before():
    lay = Layout("first-double")
    lay.lead(Tile(3, 2))
    lay.place(Tile(2, 2), Tile(3, 2))
    d = draw_layout(lay)
    assert d.box is None and d.fits
    assert [(str(g.tile), g.x, g.y, g.w, g.h) for g in d.tiles] == [("3-2", 2, 1, 4, 2), ("2-2", 6, 0, 2, 4)]
    # the open ends say the way their arms grow: the next tile goes there
    assert [(m.value, m.dx, m.dy) for m in d.ends] == [(3, -1, 0), (2, 1, 0)]


def test_a_long_arm_turns_at_the_edges_of_a_phone_box():
    # ten tiles on one end of the lead: in the fixed reach (14 units left and right, 18 up and
    # down) the arm runs right, turns down and back left, a portrait drawing that a phone's
    # landscape box draws under the least unit; laid out for the box it turns at its edges
    lay = Layout("none")
    chain = [(6, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 2), (2, 0), (0, 3), (3, 5)]
    lay.lead(Tile(*chain[0]))
    for prev, t in zip(chain, chain[1:], strict=False):
        lay.place(Tile(*t), Tile(*prev))
    width, height = PHONES["360x800"]
    box = fit.drawing_box(width, height)
    d = draw_layout(lay, box)
    assert d.fits and d.height < d.width
    assert fit.unit_for(d, width, height) >= fit.MIN_UNIT > fit.unit_for(draw_layout(lay), width, height)


def test_the_ends_a_tile_may_go_on_are_buttons_beyond_them_saying_which(shared):
    from flet.components.component import Renderer

    from scorekeeper.ui.allfives.layout_view import layout_view

    from .test_ui_table import play, table

    t = table(shared)
    for tile in ["3-2", "2-2", "6-3"]:
        play(t, tile)
    t.play.tap("6-2")  # fits the 6 of 6-3 and a side of the spinner 2-2
    width, height = PHONES["412x915"]
    d = t.drawing(fit.drawing_box(width, height))
    with Renderer().with_context():
        view = layout_view(t, d, width, height)
    controls = {c.key: c for c in view.controls if c.key}
    unit = fit.unit_for(d, width, height)
    at = fit.origin(d, unit, width, height)
    laid = rects(d, unit, at)
    marks = {str(m.tile): m for m in reversed(d.ends)}
    for on, words in [("6-3", "set 6-2 on 6-3: count 6, scores 0"), ("2-2", "set 6-2 on 2-2: count 12, scores 0")]:
        button = controls[f"end-{on}"]
        face = button.content.content  # (in its semantics node)
        assert button.content.label == words  # what the browser tests tap
        assert face.content.value == f"on {on}" and not face.content.spans  # scores nothing: which end only
        r = (button.left, button.top, face.width, face.height)
        assert face.width >= 44 and face.height >= 44
        assert not fit._hits(r, laid)
        # just beyond the open end, the way its arm grows
        assert r == fit.just_beyond(marks[on], (face.width, face.height), unit, at)


@pytest.mark.parametrize("ends", [1, 10])
def test_a_box_full_of_tiles_moves_or_shrinks_the_drawing_while_a_tile_waits(ends):
    # a drawing with no room for a button anywhere on it, in a 360 px phone's box: its margin
    # (12 px, room for the ends' marks alone) is too narrow for one, and moving the drawing in
    # its box leaves no row of 44 px either: it is drawn smaller while the tile waits, leaving
    # room all round (a tile that fits four places or more: two or three are the picker's)
    from scorekeeper.ui.allfives.drawing import EndMark, TileGlyph

    tile = Tile(6, 5)
    glyphs = [TileGlyph(tile, x, y, 4, 2, 6, 5, False, 1) for x in range(0, 32, 4) for y in range(0, 16, 2)]
    marks = [EndMark(tile, 2 + 3 * k, 8, 5, 5, 1, 0) for k in range(ends)]
    width, height = PHONES["360x800"]
    d = Drawing(glyphs, marks, 32, 16, 0, [], 0, fit.drawing_box(width, height))
    unit = fit.unit_for(d, width, height)
    b = fit.end_buttons(d, unit, width, height, [(m, (44.0, 44.0)) for m in marks])
    assert b.unit < unit
    tiles = rects(d, b.unit, b.origin)
    for i, s in enumerate(b.spots):
        r = (s.left, s.top, s.width, s.height)
        assert 0 <= s.left and s.left + s.width <= width and 0 <= s.top and s.top + s.height <= height
        assert not fit._hits(r, tiles) and not fit._hits(r, [(t.left, t.top, t.width, t.height) for t in b.spots[:i]])


@pytest.mark.parametrize("rules", ["two players", "four players in partnerships", "four players, every double spins"])
def test_a_laptop_draws_the_table_half_as_large_again(rules):
    """The host's drawing at 1280x800 (784 x 420 px beside the panel) is laid out for 14 px
    units: every turn of these seeded hands fits it, clear, its tiles half as large again as
    a phone's (measured: every turn of 8 hands of each rule set fits)."""
    width, height = 784, 420
    box = fit.drawing_box(width, height)
    assert fit.box_unit(width) == fit.BIG_UNIT and fit.box_unit(412) == fit.MIN_UNIT
    for seed in range(3):
        for lay in turns(RULES[rules], seed):
            d = draw_layout(lay, box)
            assert_clear(d)
            assert d.fits and fit.unit_for(d, width, height) >= fit.BIG_UNIT, (seed, len(lay))


@pytest.mark.parametrize("width", [336.0, 380.0, 784.0])
def test_the_unit_is_one_of_a_few_steps_and_never_grows_within_a_hand(width):
    """The tiles change size only at a step (a few times a hand, so a tap redraws one tile,
    not every tile of the layout), never grow back while the drawing grows, and a drawing
    that fits is drawn at the largest step that fits."""
    height = drawing_height(width)
    box = fit.drawing_box(width, height)
    steps = fit.unit_steps(width)
    assert steps[0] == fit.max_unit(width) and steps[-1] == fit.box_unit(width)
    assert all(b < a for a, b in zip(steps, steps[1:], strict=False)) and len(steps) <= 5
    for seed in range(4):
        units = []
        for lay in turns(RULES["two players"], seed):
            d = draw_layout(lay, box)
            unit = fit.unit_for(d, width, height)
            room = min((width - 2 * fit.MARGIN) / d.width, (height - 2 * fit.MARGIN) / d.height)
            if d.fits:
                assert unit in steps and unit <= room
                assert all(u > room for u in steps if u > unit)  # the largest that fits
            units.append(unit)
        assert units == sorted(units, reverse=True), seed  # smaller as the layout grows, never larger
