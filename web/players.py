"""Players who last: a player is a name (the same name, in any case or spacing, is the same
player) with a colour, and their results across games and tables.

Results are never stored: they are read from the tables' logs (``player_stats``), so nothing
can drift out of step, and a file can never invent a win. What the companion keeps of a
player itself is small (``Store.players``): the name's colour, chosen on a phone (the player
page), and the names another companion's file brought.

Who may do what (there is no companion-wide host, only each table's PIN):

* a colour: any phone on the table's network, as anyone may take a seat under a name; it is
  a name's colour, nothing secret or scored;
* an import: the host of the latest table played here (its PIN, ``X-Host-Pin``, with that
  table's limits on wrong tries). A companion with no table yet asks for nothing (a fresh
  one, the case of moving to a new Pi: there is nobody's history to protect). An import
  merges names and colours only: a name already here keeps its colour, and the file's
  results are ignored (they stay with the tables where they were played).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from companion.games.base import N_
from companion.table import MAX_NAME, TableError, TableService

bp = Blueprint("players", __name__)

# (named, not free RGB: the page's style sheet allows no inline style, each has a class
# readable on the dark and the light theme, and a name a screen reader can say)
PALETTE = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "brown",
           "grey")
MAX_IMPORT = 500  # players in one file: a leaderboard, not a phone book


def tables() -> TableService:
    return current_app.extensions["tables"]


def player_key(name: Any) -> str:
    """The player a name is: spaces collapsed, case folded ("ana " and "Ana" are one)."""
    return " ".join(str(name).split()).casefold()


def _roles(table_id: str) -> list[str | None]:
    """A finished Werewolf table's cards as the game ended (public once it is over: every
    phone's view shows them), by seat."""
    try:
        view = tables().view(table_id)
    except Exception:  # (a table that no longer replays: no roles, not a broken page)
        return []
    out: list[str | None] = [None] * len(view["table"].get("players") or [])
    for item in (view.get("public") or {}).get("roles") or []:
        if isinstance(item, dict) and isinstance(item.get("seat"), int) \
                and 0 <= item["seat"] < len(out):
            out[item["seat"]] = item.get("role")
    return out


def player_stats() -> list[dict]:
    """Every player: every name seated at this companion's tables and every name kept here
    (a colour chosen, an import), with the games they finished and won, per game too (each
    finished game's score, oldest first: the score history; Werewolf's cards and their
    wins), and their tables, the latest first. The leaderboard's order: wins, the share of
    games won, games finished, then the name."""
    kept = tables().store.players()
    people: dict[str, dict] = {}

    def person(key: str, name: str) -> dict:
        return people.setdefault(key, {"name": name, "key": key, "colour": None, "played": 0,
                                       "won": 0, "tables": [], "games": {},
                                       "spellings": {}})

    for t in tables().list_tables():  # (the latest first)
        outcome = t.get("outcome")
        roles = _roles(t["id"]) if outcome and t.get("game") == "werewolf" else []
        for seat, name in enumerate(t.get("players") or []):
            key = player_key(name)
            if not key:
                continue
            p = person(key, str(name))
            # (shown as most tables spell it; a tie: as it was spelled first, at the oldest)
            p["spellings"][str(name)] = p["spellings"].get(str(name), 0) + 1
            p["name"] = max(p["spellings"], key=lambda n: (p["spellings"][n], n == str(name)))
            won = bool(outcome) and seat in (outcome.get("winners") or [])
            scores = (outcome or {}).get("scores")
            score = scores[seat] if isinstance(scores, list) and seat < len(scores) else None
            role = roles[seat] if seat < len(roles) else None
            p["tables"].append({"id": t["id"], "title": t.get("title"), "game": t.get("game"),
                                "finished": bool(outcome), "won": won, "score": score,
                                **({"role": role} if role else {}),
                                "active": t.get("active")})
            if not outcome:
                continue
            p["played"] += 1
            p["won"] += int(won)
            g = p["games"].setdefault(t.get("game"), {"game": t.get("game"), "played": 0,
                                                      "won": 0, "scores": [], "roles": {}})
            g["played"] += 1
            g["won"] += int(won)
            if isinstance(score, (int, float)) and not isinstance(score, bool):
                g["scores"].insert(0, score)  # (tables come latest first: oldest first here)
            if role:
                r = g["roles"].setdefault(role, {"played": 0, "won": 0})
                r["played"] += 1
                r["won"] += int(won)
    for key, (name, colour) in kept.items():
        person(key, name)["colour"] = colour if colour in PALETTE else None
    out = list(people.values())
    for p in out:
        del p["spellings"]
        p["games"] = sorted(p["games"].values(), key=lambda g: (-g["played"], g["game"]))
    out.sort(key=lambda p: (-p["won"], -(p["won"] / p["played"] if p["played"] else 0),
                            -p["played"], p["key"]))
    return out


def _colour(value: Any) -> str | None:
    if value is not None and value not in PALETTE:
        raise TableError(400, "bad_colour", N_("That colour is not one of the companion's "
                                                "({colours})."), colours=", ".join(PALETTE))
    return value


@bp.get("/api/players/colours")
def colours():
    """Each player's colour by key (``{"ana": "teal"}``): a table's page shows it beside
    the names."""
    return {"colours": {k: c for k, (_, c) in tables().store.players().items()
                        if c in PALETTE}, "palette": list(PALETTE)}


@bp.put("/api/players/<path:key>/colour")
def set_colour(key: str):
    """A player's colour (``{"colour": "teal"}``, or null for none), for every phone. The
    player must be known here: seated at a table, or kept (an import)."""
    from web.api import body

    data = body()
    colour = _colour(data.get("colour"))
    wanted = player_key(key)
    found = next((p for p in player_stats() if p["key"] == wanted), None)
    if found is None:
        raise TableError(404, "no_player", N_("Nobody of that name has played here."))
    tables().store.set_player(wanted, found["name"], colour)
    return {"key": wanted, "name": found["name"], "colour": colour}


def _check_host() -> None:
    """The import's power: the PIN of the latest table played here (none asked where there
    is no table yet)."""
    listed = tables().list_tables()
    if not listed:
        return
    pin = request.headers.get("X-Host-Pin")
    if pin is None:
        raise TableError(403, "host_only", N_("Only the host can do that."))
    tables().check_pin(listed[0]["id"], pin, request.remote_addr)


def read_players_file(data: Any) -> list[tuple[str, str, str | None]]:
    """The names and colours of a players file (``GET /api/players``'s shape: ``{"players":
    [{"name": .., "colour": ..}, ..]}``); a clear 400 for anything else, nothing half
    read. Everything else in it (results, tables) is ignored."""
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list):
        raise TableError(400, "bad_players_file",
                         N_("This is not a players file: it has no list of players."))
    if len(players) > MAX_IMPORT:
        raise TableError(400, "too_many_players",
                         N_("A players file holds at most {n} players."), n=MAX_IMPORT)
    rows: dict[str, tuple[str, str, str | None]] = {}
    for i, item in enumerate(players, start=1):
        if not isinstance(item, dict):
            raise TableError(400, "bad_player_entry",
                             N_("Player {n} in the file is not a player."), n=i)
        name, colour = item.get("name"), item.get("colour")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise TableError(400, "bad_player_entry", N_(
                "Player {n} in the file has no name, or one longer than {max} characters."),
                n=i, max=MAX_NAME)
        if colour is not None and colour not in PALETTE:
            raise TableError(400, "bad_player_entry", N_(
                "Player {n} in the file has a colour the companion does not know."), n=i)
        name = " ".join(name.split())
        rows.setdefault(player_key(name), (player_key(name), name, colour))
    return list(rows.values())


@bp.post("/api/players/import")
def import_players():
    """Another companion's players file (``GET /api/players``), merged: its names join the
    leaderboard, its colours go to names that have none here. The host's (see the module's
    docstring)."""
    from web.api import body

    _check_host()
    data = body()
    rows = read_players_file(data)
    changed = tables().store.merge_players(rows)
    return {"players": len(rows), "changed": changed}
