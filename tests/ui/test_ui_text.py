"""Names at the app's doors (issue 26, findings 5 and 6): the New match forms and the
Players screen's rename / merge follow the rule of ``scorekeeper/text.py``, as import
does; a ``players.json`` written before the rule cannot bring in what it refuses."""

from __future__ import annotations

import json

import pytest

from scorekeeper.stats import names as _names
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfours.form import FoursNewMatchForm
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.shell.form import names_problem

WORKED = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Ann", "Ben"],
    "rules": {"target": 15},
    "hands": [
        {
            "leader": "Ann",
            "turns": [
                {"play": "3-2"},
                {"play": "2-2", "on": "3-2"},
                {"play": "2-4", "on": "2-2"},
                {"play": "2-0", "on": "2-2"},
                {"play": "3-6", "on": "3-2"},
            ],
        }
    ],
}


@pytest.mark.parametrize(
    "names, says",
    [
        (["Ann", "ann"], "two players have the same name: 'Ann' and 'ann'"),
        (["Ann", "ANN "], "two players have the same name: 'Ann' and 'ANN'"),  # as the match would get it
        (["Ann", "\uff21nn"], "two players have the same name: 'Ann' and 'Ａnn'"),
        (["Ann\x1b[2J", "Ben"], "a player's name must be printable, not 'Ann\\x1b[2J'"),
        (["Ann", "\u202eBen"], "a player's name must be printable, not '\\u202eBen'"),
        (["Ann", "\u200d"], "every player needs a name"),
    ],
)
def test_names_problem_follows_the_rule(names, says):
    assert (names_problem(names) or "").startswith(says), names_problem(names)


@pytest.mark.parametrize("form_class", [NewMatchForm, FoursNewMatchForm, BroadwayNewMatchForm])
def test_every_new_match_form_refuses_two_spellings_of_one_name(shared, form_class):
    form = form_class(shared)
    names = ["Ann", "ann", "Cy", "Di"][: len(form.names)]
    for i, name in enumerate(names):
        form.set_name(i, name)
    assert form.start() is None
    assert form.error is not None and "'Ann' and 'ann'" in form.error, form.error
    assert shared.store.count() == 0


@pytest.fixture
def played(shared):
    shared.store.import_record(WORKED)
    return shared


@pytest.mark.parametrize(
    "new, says",
    [
        ("Ann\x1b[2J", "a player's name must be printable, not 'Ann\\x1b[2J'"),
        ("\u202eAnn", "a player's name must be printable, not '\\u202eAnn'"),
        ("An\u2066n", "a player's name must be printable"),
        ("Ann\u200b", "a player's name must be printable"),
    ],
)
def test_a_rename_refuses_what_import_refuses(played, new, says):
    players = PlayersModel(played)
    assert players.rename("ann", new) is None
    assert players.error is not None and players.error.startswith(says), players.error
    assert not (played.store.path / "players.json").exists()


def test_a_rename_to_another_form_of_the_same_name_is_that_name(played):
    players = PlayersModel(played)
    assert players.rename("ann", "\uff21NN") is None  # full-width: the name Ann already is
    assert players.error == "Ann is that name already (capitals and spaces do not count)"


def test_names_keeps_the_rule_for_renames_and_ignores_refused_names_in_the_file(played):
    for bad in ("Ann\u202e", "Ann\nBen", "Ann\u2028Ben", "Ann\tBen"):  # no line break taken for a space
        with pytest.raises(ValueError, match="must be printable"):
            _names.Names().rename("Ann", bad)
    path = played.store.path / "players.json"
    path.write_text(json.dumps({"schema": 1, "names": {"ann": "Ann\x1b[2J", "ben": "Benjamin"}}), encoding="utf-8")
    assert _names.load(played.store).aliases == {"ben": "Benjamin"}
