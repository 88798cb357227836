"""Players' names across matches: one person, however the name was typed.

Names are matched as :func:`scorekeeper.text.name_key` matches them: without regard to
case, spacing or the form of a letter (``"ann "`` and a full-width ``"Ａnn"`` are ``"Ann"``).
People can also rename a player or merge two spellings (``"Annie"`` is ``"Ann"``):
that is kept in ``players.json`` beside the index (a side file of the store,
:meth:`Store.side_file`), as a table from a spelling to the name it is shown as. The
records are never changed; deleting ``players.json`` undoes every rename and merge.

>>> names = Names({"annie": "Ann"})
>>> names.person("  annie"), names.person("ANN"), names.person("Ben")
('ann', 'ann', 'ben')
>>> names.rename("Ann", "Anne").person("Annie")
'anne'
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store
from scorekeeper.store.errors import StoreError
from scorekeeper.store.storage import NotDurableError

SCHEMA = 1
FILE = "players.json"
MAX_NAME = _text.MAX_NAME

#: The spelling-free form of a name: case, spacing and the form of letters left out.
key = _text.name_key


class Names:
    """Spellings and the names they are shown as (a person is the key of that name)."""

    def __init__(self, aliases: Mapping[str, str] | None = None) -> None:
        self.aliases: dict[str, str] = dict(aliases or {})

    def shown(self, name: str) -> str | None:
        """The name a spelling was renamed or merged to, or None."""
        seen: set[str] = set()
        k = key(name)
        out = None
        while k in self.aliases and k not in seen:
            seen.add(k)
            out = self.aliases[k]
            k = key(out)
        return out

    def person(self, name: str) -> str:
        """Who a name is: the key of the name it is shown as."""
        return key(self.shown(name) or name)

    def rename(self, old: str, new: str) -> Names:
        """These names with ``old`` (and every spelling shown as it) shown as ``new``;
        when ``new`` is another player's name the two are merged. ``new`` follows the rule
        for names (:mod:`scorekeeper.text`), as a name a record brings in does (a line break
        or a tab is refused, not taken for a space)."""
        _text.check_text(new, "a player's name")
        new = " ".join(new.split())
        if not new:
            raise ScorekeeperError("a player's name cannot be empty")
        if len(new) > MAX_NAME:
            raise ScorekeeperError(f"a player's name has at most {MAX_NAME} characters")
        _text.check_name(new)
        who = self.person(old)
        aliases = dict(self.aliases)
        for k in list(aliases):
            if self.person(k) == who:
                aliases[k] = new
        aliases[key(old)] = new
        aliases[who] = new
        if key(new) in aliases and self.person(new) == who:
            del aliases[key(new)]  # no loop: the new name stands for itself
        return Names(aliases)

    def split(self, spelling: str) -> Names:
        """Undo a merge: ``spelling`` is its own person again."""
        aliases = {k: v for k, v in self.aliases.items() if k != key(spelling)}
        return Names(aliases)


def load(store: Store) -> Names:
    """The renames and merges kept in the database (none when the file is missing or unreadable;
    a name in it that breaks the rule for names -- written by hand, or before the rule -- is
    left out, as if never given)."""
    data = store.side_file(FILE).load()
    names = data.get("names") if isinstance(data, dict) and data.get("schema") == SCHEMA else None
    if not isinstance(names, dict):
        return Names()
    return Names(
        {key(k): v for k, v in names.items() if isinstance(k, str) and _text.name_problem(v) is None and _text.clean(k)}
    )


def save(store: Store, names: Names) -> None:
    """Keep the renames and merges (a store that writes: it holds the database's lock)."""
    if store.read_only:
        raise StoreError("the database is open read-only: names cannot be changed")
    data = {"schema": SCHEMA, "names": dict(sorted(names.aliases.items()))}
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        store.side_file(FILE).save(text.encode())
    except NotDurableError:
        pass
    except OSError as e:
        raise StoreError(f"the players' names could not be saved ({e.strerror or e}); nothing was changed") from e
