"""Broadway at a table of phones (issue 27): a seated phone's entry for another player
(a tile, a pass, a tile shown out of turn) is asked about first and goes in only on
"For Ann"; a phone that is nobody's enters for the player to move at once."""

from __future__ import annotations

from broadway.test_ui_broadway import NAMES, double_down, propose, turns

from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.broadway.table import BroadwayTableModel
from ui.test_live import served


def phones(tmp_path):
    shared = served(tmp_path)
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_leader(NAMES[0])
    mid = form.start()
    assert mid, form.error
    host = BroadwayTableModel(shared.visit("127.0.0.1"), mid)
    view = shared.visit("192.168.1.12")
    assert view.visitor.join("482913")
    ben = BroadwayTableModel(view, mid)
    ben.take_seat(NAMES[1])
    return shared, host, ben


def test_a_seated_phone_is_asked_before_it_enters_for_the_player_to_move(tmp_path):
    shared, host, ben = phones(tmp_path)
    first = NAMES[0]
    propose(ben, "6-6", (0, 0), (1, 0))  # the leader's double, on Ben's phone
    ben.confirm()
    assert ben.asking is not None and ben.asking[0] == f"It is {first}'s turn. Enter 6-6 for {first}?"
    assert turns(shared, ben) == []
    ben.cancel()
    assert ben.asking is None and turns(shared, ben) == []
    propose(ben, "6-6", (0, 0), (1, 0))
    ben.confirm()
    ben.confirm_other()  # "For Ann": in, under the leader's name
    assert len(turns(shared, ben)) == 1 and ben.asking is None
    assert ben.to_move == NAMES[1] and ben.my_turn


def test_a_pass_for_another_player_is_asked_too_and_the_host_is_not_asked(tmp_path):
    shared, host, ben = phones(tmp_path)
    double_down(host)  # the host (nobody's) enters for the leader at once
    assert len(turns(shared, host)) == 1
    ben.catch_up()
    ben.seen()
    ben.take_seat(NAMES[2])  # now Cy's phone: Ben is to move
    ben.pass_()
    assert ben.asking is not None and ben.asking[0] == f"It is {NAMES[1]}'s turn. Enter a pass for {NAMES[1]}?"
    assert len(turns(shared, ben)) == 1
    ben.confirm_other()
    assert turns(shared, ben)[-1] == {"pass": True} and ben.asking is None
