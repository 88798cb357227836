"""What a service process knows of the league's revision (:class:`scorekeeper.league.app.Revisions`):
told by each notification while it listens, asked of the database otherwise, and never
a revision older than one told."""

from __future__ import annotations

from scorekeeper.league.app import Revisions


class Reads:
    """The database's revision, and how many times it was asked."""

    def __init__(self, revision: int) -> None:
        self.revision = revision
        self.asked = 0

    def __call__(self) -> int:
        self.asked += 1
        return self.revision


def test_not_listening_every_request_asks_the_database():
    r, db = Revisions(), Reads(3)
    assert [r.ask(db), r.ask(db)] == [3, 3] and db.asked == 2
    r.heard("5")  # its own change, told at once: never answered older than that
    assert r.ask(db) == 5 and db.asked == 3 and r.known is None


def test_listening_it_asks_once_then_follows_what_it_is_told():
    r, db = Revisions(), Reads(3)
    r.listening(True)
    assert r.ask(db) == 3 and r.ask(db) == 3 and db.asked == 1
    r.heard("4")
    r.heard("6")
    r.heard("5")  # told late: the newest stays
    assert r.ask(db) == 6 and db.asked == 1


def test_a_read_begun_before_listening_began_again_is_not_kept():
    r = Revisions()
    r.listening(True)

    def read_while_reconnecting() -> int:
        r.listening(False)  # the connection lost, and made again, while the database was asked
        r.listening(True)
        return 2

    assert r.ask(read_while_reconnecting) == 2
    assert r.known is None  # what was told in between may have been missed: asked again next time
    assert r.ask(Reads(7)) == 7 and r.known == 7


def test_a_lost_connection_forgets_what_was_known_and_a_notification_of_nothing_is_ignored():
    r, db = Revisions(), Reads(9)
    r.listening(True)
    assert r.ask(db) == 9
    r.heard("not a number")
    assert r.known == 9
    r.listening(False)
    assert r.known is None and r.ask(db) == 9 and db.asked == 2
