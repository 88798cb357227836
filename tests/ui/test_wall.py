"""The wall for a room (issue 44) without a browser: how its lines fit 1280x720 and
1920x1080 (one column, two, or pages; together with the round's tables, or in turns),
the heading of each format's round, the mark and footnote of a place head to head decided,
each table's state, the way in for a late phone, and a page turned only when there is
another page to show."""

from __future__ import annotations

import pytest
from events.helpers import won_record

from scorekeeper.events import Event, Result, new_event, next_round, standings, tie_breaks
from scorekeeper.ui.access.gate import Codes, Gate, Invite
from scorekeeper.ui.events.wall_fit import Page, Room
from scorekeeper.ui.events.wall_model import HEAD_TO_HEAD, WallModel, round_heading, wall_of
from scorekeeper.ui.server.shared import open_shared

NAMES = (
    "Ann Ben Cy Di Ed Flo Gus Hal Ivy Jo Kit Lou Mo Ned Ola Pip Quentin Rosa Sam Tess Uma Vic Wyn Xavier "
    "Yves Zoe Abigail Bartholomew Cecilia Dominic Evangeline Florence"
).split()
SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}


def singles(n: int) -> Event:
    return new_event("e", "Friday club night", "swiss", "all-fives", players=NAMES[:n], rounds=3)


def league(n: int) -> Event:
    teams = {f"{NAMES[i]}'s team": [f"{NAMES[i]} {k}" for k in "ABC"] for i in range(n)}
    return new_event("e", "Winter league", "league", "all-fives", teams=teams, singles=3, legs=1)


def shape(page: Page) -> str:
    """A page in short: its blocks as kind:columns x lines a column, and how they share it."""
    blocks = [f"{b.kind}:{b.fit.split}x{b.fit.per_column}" for b in page.blocks]
    return (" | " if page.side_by_side else " / ").join(blocks)


def fits(page: Page, room: Room) -> None:
    """Every block of the page inside the room, its type no smaller than the least."""
    heights = []
    for b in page.blocks:
        f = b.fit
        assert f.size >= room.least, (b.kind, f.size)
        across = (b.width - (f.split - 1) * room.gutter) / f.split
        assert f.style.em * f.size <= across + 0.01, (b.kind, f.style.em * f.size, across)
        assert len(b.lines) <= f.split * f.per_column
        heights.append(f.head + f.per_column * f.row)
    notes = room.notes_height(page.notes, page.blocks[0].width)
    if page.side_by_side:
        assert heights[0] + notes <= room.main_height and heights[1] <= room.main_height
    else:
        assert sum(heights) + notes + room.gap * (len(heights) - 1) <= room.main_height
    assert room.main_width + (room.qr_width + 2 * room.gap if room.qr_width else 0) + 2 * room.pad <= room.width


@pytest.mark.parametrize(
    ("entrants", "size", "pages"),
    [
        # few: the standings and the round's tables together, side by side
        (singles(8), "720p", ["standings:1x8 | tables:1x4"]),
        (singles(8), "1080p", ["standings:1x8 | tables:1x4"]),
        # 16 players: two columns of 8 at 1280x720 (one would need type under 22 px), then the tables
        (singles(16), "720p", ["standings:2x8", "tables:1x8"]),
        (singles(16), "1080p", ["standings:1x16 | tables:1x8"]),
        # 32 players: two columns of 16, one page; then the 16 tables in two columns
        (singles(32), "720p", ["standings:2x16", "tables:2x8"]),
        (singles(32), "1080p", ["standings:2x16", "tables:2x8"]),
        # a league: four teams share the screen with their six games, one under the other
        (league(4), "720p", ["standings:1x4 / tables:1x6"]),
        (league(4), "1080p", ["standings:1x4 / tables:1x6"]),
        # sixteen teams (long names: one column is the bigger type), then their 24 games in two
        (league(16), "720p", ["standings:1x16", "tables:2x12"]),
        (league(16), "1080p", ["standings:1x16", "tables:2x12"]),
    ],
    ids=lambda v: v.id + str(len(v.entrants)) if isinstance(v, Event) else None,
)
def test_the_lines_fit_the_screen_in_columns_or_in_turns(entrants, size, pages):
    room = Room(*SIZES[size])
    heading, got = wall_of(entrants, standings(entrants, []), [], False, room)
    assert [shape(p) for p in got] == pages
    for page in got:
        fits(page, room)
    assert heading == "Round 1 of 3" if entrants.format == "swiss" else heading.startswith("Round 1 of ")


def test_sixty_four_players_go_over_two_pages_of_two_columns():
    players = [f"{n} {k}" for k in "AB" for n in NAMES]
    event = new_event("e", "Open", "swiss", "all-fives", players=players, rounds=5)
    room = Room(1280, 720)
    _, pages = wall_of(event, standings(event, []), [], False, room)
    assert [shape(p) for p in pages] == ["standings:2x16", "standings:2x16", "tables:2x8", "tables:2x8"]
    assert sum(len(p.blocks[0].lines) for p in pages[:2]) == 64
    for page in pages:
        fits(page, room)


def test_a_phone_sized_wall_stacks_few_lines_and_cuts_nothing():
    event = singles(4)
    room = Room(412, 915, qr=True)
    _, pages = wall_of(event, standings(event, []), [], False, room)
    assert [shape(p) for p in pages] == ["standings:1x4 / tables:1x2"] and room.qr_width == 0
    fits(pages[0], room)


@pytest.mark.parametrize(("width", "height"), [(0, 0), (100, 100), (300, 60)])
def test_a_window_too_small_for_anything_still_has_a_wall(width, height):
    event = singles(32)
    _, pages = wall_of(event, standings(event, []), [], False, Room(width, height))
    assert pages and all(b.fit.size >= 6 and b.fit.row > 0 for p in pages for b in p.blocks)
    assert sum(len(p.blocks[0].lines) for p in pages if p.blocks[0].kind == "standings") == 32


def test_the_round_heading_of_each_format():
    swiss = singles(8)
    assert round_heading(swiss, 1, False) == "Round 1 of 3"
    assert round_heading(swiss, 2, False) == "Round 2 of 3"
    robin = new_event("r", "Night", "round-robin", "all-fives", players=NAMES[:4])
    assert round_heading(robin, 2, False) == "Round 2 of 3"  # of the rounds drawn
    assert round_heading(league(4), 1, False) == "Round 1 of 3"
    knockout = new_event("k", "Cup", "knockout", "all-fives", players=NAMES[:8])
    assert round_heading(knockout, 1, False) == "Round 1"
    for n, words in ((2, "Semi-finals"), (3, "Final")):
        last = knockout.rounds[-1]
        results = [Result(last.number, t.number, (5, 0), 0) for t in last.tables]
        knockout = next_round(knockout, results)
        assert round_heading(knockout, n, False) == words
    for event in (swiss, robin, knockout):
        assert round_heading(event, len(event.rounds), True) == "Final standings"


def test_a_place_head_to_head_decided_is_marked_and_footnoted():
    # Ann beats Di and Ben; Cy beats Ben, Di beats Cy: Cy and Di level on score and
    # difference, Di above by head to head
    event = new_event("r", "Night", "round-robin", "all-fives", players=["Ann", "Ben", "Cy", "Di"])
    results = [Result(1, 1, (5, 0), 0), Result(1, 2, (0, 5), 1), Result(2, 1, (0, 5), 1), Result(2, 2, (5, 0), 0)]
    rows = standings(event, results)
    _, pages = wall_of(event, rows, [], False, Room(1280, 720))
    block = pages[0].blocks[0]
    assert block.kind == "standings"
    assert [ln.cells[0] + " " + ln.cells[1] for ln in block.lines] == ["1 Ann", "2 Di", "3* Cy", "4 Ben"]
    assert block.lines[2].label == "Standing 3. Cy: score 1, won 1, played 2 (placed by head to head)"
    assert pages[0].notes == (HEAD_TO_HEAD, tie_breaks(event)) == ("* placed by head to head", tie_breaks(event))
    headers = [c.header for c in block.fit.style.cols]
    assert headers == ["#", "Player", "P", "W", "L", "Points", "Diff", "Score"]
    assert [ln.cells[-2] for ln in block.lines] == ["+10", "0", "0", "-10"]
    # no place decided by head to head: no footnote, the tie-breaks still
    _, plain = wall_of(event, standings(event, results[:2]), [], False, Room(1280, 720))
    assert plain[0].notes == (tie_breaks(event),)


def test_a_leagues_standings_show_the_games_and_their_difference():
    event = league(4)
    _, pages = wall_of(event, standings(event, []), [], False, Room(1920, 1080))
    headers = [c.header for c in pages[0].blocks[0].fit.style.cols]
    assert headers == ["#", "Team", "P", "W", "D", "L", "Games", "GD", "Points", "Diff", "Score"]


@pytest.fixture
def served(tmp_path):
    gate = Gate(Codes("482913", "771204"))
    s = open_shared(str(tmp_path / "db"), gate=gate, invite=Invite("http://192.168.1.20:8550", gate))
    yield s
    s.close()


def test_each_tables_state_and_the_way_in_for_a_late_phone(served):
    event = new_event("club", "Friday club night", "round-robin", "all-fives", players=NAMES[:6], target=5)
    with served.lock:
        served.events.add(event)
        served.store.import_record(won_record(event, 1, 1, winner=1))
        served.events.open_round("club", 1)
    wall = WallModel(served, "club").look(1280, 720)
    assert wall is not None and wall.heading == "Round 1 of 5" and wall.pages == 1
    tables = next(b for b in wall.page.blocks if b.kind == "tables")
    first = event.rounds[0].tables[0]
    assert tables.lines[0].label == f"Table 1: {first.title}, {first.sides[1][0]} won 5-0"
    assert [ln.cells[2] for ln in tables.lines[1:]] == ["in play 0-0", "in play 0-0"]
    assert wall.qr == served.invite.scorer_link
    assert wall.join == (
        "Late? Scan this to join,",
        "then open Events: Friday club night.",
        "Or open 192.168.1.20:8550 and type 482 913.",
    )  # the host's screen (it may show the codes)
    watcher = served.visit("192.168.1.30")
    assert watcher.visitor.join(served.gate.codes.watcher)
    on_the_wall = WallModel(watcher, "club").look(1280, 720)  # a watcher shows no code (issue 43)
    assert on_the_wall.qr == f"{served.invite.base}/event/club"
    assert on_the_wall.join == ("Late? Scan this,", "type the table code from the host, and you are at the event.")
    assert WallModel(served, "nope").look(1280, 720) is None


def test_a_page_turns_only_when_there_is_another_to_show(served):
    with served.lock:
        served.events.add(new_event("few", "Few", "round-robin", "all-fives", players=NAMES[:4]))
        served.events.add(new_event("many", "Many", "swiss", "all-fives", players=NAMES, rounds=3))
    few = WallModel(served, "few")
    assert few.look(1280, 720).pages == 1
    before = few.revision
    assert few.turn() is False and few.revision == before  # nothing changes: nothing is drawn again
    many = WallModel(served, "many")
    assert many.look(1280, 720).index == 0
    assert many.turn() is True and many.revision == 1
    wall = many.look(1280, 720)
    assert (wall.index, wall.pages, wall.page.blocks[0].kind) == (1, 2, "tables")
    many.turn()
    assert many.look(1280, 720).page.blocks[0].kind == "standings"
