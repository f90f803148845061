"""The tables: one entry point, safe across threads, for every action from every adapter.

The web layer, the camera watcher and the buttons all call :meth:`TableService.submit`.
Under the table's lock it checks the caller's version, lets the game's pure ``apply`` judge
the action, commits the accepted action to the SQLite log and only then changes the live
state, bumps the version and tells the listeners (SSE streams, LEDs, narration).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.clock import Clock, SystemClock
from companion.games.base import (
    HOST,
    N_,
    Accepted,
    Actor,
    Context,
    Game,
    OptionError,
    Rejection,
    State,
    resolve_options,
)
from companion.games.registry import game_ids, get_game
from companion.store import LogEntry, Store, TableRecord

log = logging.getLogger(__name__)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud without doubt
CODE_LENGTH = 4
MAX_NAME = 24
PIN_TRIES = 5
PIN_LOCK_S = 30.0
# Across every address (200 addresses on a LAN, each with its own 5 tries, found a 4-digit
# PIN in 112 s): past PIN_GLOBAL_TRIES wrong PINs at a table in PIN_GLOBAL_WINDOW_S, the
# table hears one try a PIN_GLOBAL_SPACING_S, from anyone but a phone that gave the right
# PIN before. Guessing among 10,000 PINs then takes days (5,000 tries on average, one a
# minute: about 83 h), and the host waits a minute at most on a new phone; the host's own
# phone, already unlocked, is never held.
PIN_GLOBAL_TRIES = 10
PIN_GLOBAL_WINDOW_S = 600.0
PIN_GLOBAL_SPACING_S = 60.0


class TableError(Exception):
    """A refusal with a translatable reason and the HTTP status that fits it."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(message.format(**params))
        self.status = status
        self.rejection = Rejection(code, message, params)

    @classmethod
    def from_rejection(cls, rejection: Rejection, status: int = 422) -> TableError:
        return cls(status, rejection.code, rejection.message, **rejection.params)


@dataclass(frozen=True)
class Update:
    """What listeners hear after an action is committed."""

    table_id: str
    version: int
    kind: str  # "action", "undo" or "join"
    events: list[dict[str, Any]]
    actor: Actor


Listener = Callable[[Update], None]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _hash_pin(pin: str, salt: str | None = None) -> str:
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), 20_000).hex()
    return f"{salt}${digest}"


def _pin_ok(pin: str, stored: str) -> bool:
    salt, _, _digest = stored.partition("$")
    return hmac.compare_digest(_hash_pin(pin, salt), stored)


def rng_for(seed: int, seq: int) -> random.Random:
    """The random generator an action sees: fixed by the table's seed and the action's place
    in the log, so a replay draws exactly the same cards."""
    return random.Random(f"{seed}:{seq}")


MOMENTS_KEPT = 256
# after a reboot, a table's timeline goes on this long after its latest stored time
RESUME_GAP_NS = 1_000_000_000


@dataclass
class LiveTable:
    record: TableRecord
    game: Game
    state: State
    version: int
    log: list[LogEntry]
    seats: dict[int, str]
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[Listener] = field(default_factory=list)
    # the latest narration line announced (not logged: a phone that opens the table, or
    # reloads it, is handed it, so its card says what its neighbours' cards say)
    last_line: dict[str, Any] | None = None
    # each phone's wrong PINs (by its address on the LAN), the times of the latest
    pin_failures: dict[str | None, list[float]] = field(default_factory=dict)
    # every wrong PIN at this table, whoever sent it (its time), and the addresses that gave
    # the right one (``TableService.check_pin``)
    pin_wrong: list[float] = field(default_factory=list)
    pin_trusted: set[str | None] = field(default_factory=set)
    # the game's moment of play (``moment``, optional) at each version reached while this
    # process ran, the latest MOMENTS_KEPT: a move from a phone that saw an older version is
    # still heard at the same moment (see TableService._check_version)
    moments: dict[int, Any] = field(default_factory=dict)
    # in a game with secrets, the log numbers each viewer reads, at the version under "version"
    seen_cache: dict[Any, Any] = field(default_factory=dict)
    # the public view at a version ((version, view)): each phone's view of one move, a
    # table's 20 watchers made it 20 times (the view of a score pad grows with its rounds)
    public_cache: tuple[int, Any] | None = None
    # added to this process's monotonic times (a button's press, a camera frame) to put them
    # on the table's timeline (:meth:`TableService.stamp`): 0 but after a reboot
    time_offset_ns: int = 0

    def remember_moment(self) -> None:
        moment = getattr(self.game, "moment", None)
        if moment is None:
            return
        self.moments[self.version] = moment(self.state)
        while len(self.moments) > MOMENTS_KEPT:
            del self.moments[next(iter(self.moments))]

    @property
    def id(self) -> str:
        return self.record.id

    def summary(self, version: int | None = None) -> dict[str, Any]:
        """The table's card (for the list of tables, a page's heading). ``version``: the
        viewer's (``TableService._version_for``); left out, where the game keeps secrets
        (its own version counts the secret moves), none is given."""
        if version is None and getattr(self.game, "history_view", None) is None:
            version = self.version
        return {
            "id": self.record.id,
            "code": self.record.code,
            "game": self.record.game,
            "title": self.record.title,
            "players": self.record.players,
            "options": self.record.options,
            **({} if version is None else {"version": version}),
            "seats_taken": sorted(self.seats),
            # (the seat the host plays in, where the game knows it: Werewolf)
            **({} if (hook := getattr(self.game, "host_seat", None)) is None
               else {"host_seat": hook(self.state)}),
            "created": self.record.created,
            "outcome": self.game.outcome(self.state),
        }


def replay(record: TableRecord, game: Game, log: list[LogEntry],
           events: list[dict[str, Any]] | None = None) -> State:
    """The state a log leads to: setup, then every action that was not undone, in order.
    An undo logged with ``resume`` lets the game's ``resumed(state, ctx)`` start again what
    it brought back (Werewolf: the step's timer and narration), at the undo's time; the
    last entry's events go to ``events``. (Undos logged before ``resume`` replay as then.)"""
    undone = {e.body["undo"] for e in log if e.kind == "undo"}
    state = game.setup(record.players, record.options, rng_for(record.seed, 0))
    resumed = getattr(game, "resumed", None)
    for entry in log:
        if entry.kind == "undo" and entry.body.get("resume") and resumed is not None:
            done = resumed(state, Context(Actor.from_json(entry.actor),
                                          rng_for(record.seed, entry.seq), entry.t, entry.seq))
            state = done.state
            if events is not None and entry is log[-1]:
                events.extend(done.events)
            continue
        if entry.kind != "action" or entry.seq in undone:
            continue
        ctx = Context(
            Actor.from_json(entry.actor), rng_for(record.seed, entry.seq), entry.t, entry.seq
        )
        result = game.apply(state, entry.body, ctx)
        if not isinstance(result, Accepted):  # the rules changed under a stored game
            raise RuntimeError(
                f"log entry {entry.seq} of {record.id} no longer applies: {result.code}"
            )
        state = result.state
    return state


# An action is logged as sent: it must be plain JSON (NaN or Infinity in the log made the
# history and the export no JSON) and of a sane size (the largest a game sends, a Versus
# pile's signature or an UNO hand shown, is a few kB).
MAX_ACTION_BYTES = 32_000


def _check_plain(action: Any) -> None:
    try:
        size = len(json.dumps(action, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise TableError(400, "bad_action", N_("An action must be plain JSON.")) from None
    if size > MAX_ACTION_BYTES:
        raise TableError(413, "action_too_big", N_("That action is too large."))


class TableService:
    """All the tables of this companion, backed by one :class:`Store`."""

    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self._tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()
        self._global_listeners: list[Listener] = []

    # -- creating and finding tables ---------------------------------------------------
    def create_table(
        self,
        game_id: str,
        players: list[str],
        pin: str,
        options: dict[str, Any] | None = None,
        title: str | None = None,
        seed: int | None = None,
    ) -> LiveTable:
        if game_id not in game_ids():
            raise TableError(
                404, "unknown_game", N_("There is no game called {game}."), game=str(game_id)[:40]
            )
        game = get_game(game_id)
        players = self._check_players(game, players)
        if not isinstance(pin, str) or not (pin.isascii() and pin.isdigit()) or \
                not 4 <= len(pin) <= 8:
            raise TableError(400, "bad_pin", N_("The host PIN must be 4 to 8 digits."))
        try:
            opts = resolve_options(game.options, options)
        except OptionError as exc:
            raise TableError.from_rejection(exc.rejection, 400) from None
        if title is not None and (not isinstance(title, str) or len(title) > 60):
            raise TableError(400, "bad_title", N_("A title is at most 60 characters."))
        with self._lock:
            code = self._new_code()
            record = TableRecord(
                id=secrets.token_hex(6),
                code=code,
                game=game_id,
                title=(title or "").strip() or game.name,
                players=players,
                options=opts,
                seed=seed if seed is not None else secrets.randbits(48),
                pin_hash=_hash_pin(pin),
                created=self.clock.wall(),
            )
            try:  # (set up before it is stored: a table that cannot start is no table)
                state = replay(record, game, [])
            except OptionError as exc:  # (the game says why: Versus's dealer not at it)
                raise TableError.from_rejection(exc.rejection, 400) from None
            except Exception:
                log.exception("table options that cannot start a game: %r", opts)
                raise TableError(400, "bad_option",
                                 N_("These options cannot start a game.")) from None
            self.store.create_table(record)
            live = LiveTable(record, game, state, 0, [], {})
            live.remember_moment()
            self._tables[record.id] = live
        return live

    def _check_players(self, game: Game, players: Any) -> list[str]:
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise TableError(400, "bad_players", N_("Players must be a list of names."))
        names = [" ".join(p.split()) for p in players]
        if not game.min_players <= len(names) <= game.max_players:
            raise TableError(
                400,
                "player_count",
                N_("This game needs {low} to {high} players."),
                low=game.min_players,
                high=game.max_players,
            )
        # (" ".join(split()) took every space out; a control character is no name's)
        if any(not n or len(n) > MAX_NAME or not n.isprintable() for n in names):
            raise TableError(400, "bad_name", N_("A name must be 1 to {n} characters."), n=MAX_NAME)
        if len({n.casefold() for n in names}) != len(names):
            raise TableError(400, "duplicate_name", N_("Two players have the same name."))
        return names

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not self.store.code_in_use(code):
                return code

    def get(self, table_id: str) -> LiveTable:
        """The live table, loaded from the log on first use; TableError 404 if unknown."""
        if not isinstance(table_id, str) or len(table_id) > 64:
            raise TableError(404, "no_table", N_("There is no such table."))
        with self._lock:
            live = self._tables.get(table_id)
            if live is not None:
                return live
            record = self.store.get_table(table_id)
            if record is None:
                raise TableError(404, "no_table", N_("There is no such table."))
            game = get_game(record.game)
            log = self.store.log(table_id)
            live = LiveTable(
                record,
                game,
                replay(record, game, log),
                log[-1].seq if log else 0,
                log,
                self.store.seats(table_id),
            )
            live.remember_moment()
            live.time_offset_ns = self._resume_offset(game, live.state)
            self._tables[table_id] = live
            return live

    def _resume_offset(self, game: Game, state: State) -> int:
        """How far this process's monotonic clock is behind the table's latest stored time
        (``game.latest_time``, a game that keeps times: Versus's pile timelines and
        presses), plus RESUME_GAP_NS. The clock counts from the machine's boot: after a
        power cut every new stamp was earlier than the stored ones, and a real pair was
        judged no pair. 0 where the clock is ahead (the server restarted, not the machine)."""
        latest = getattr(game, "latest_time", None)
        t = latest(state) if callable(latest) else None
        now = self.clock.monotonic_ns()
        return 0 if t is None or t < now else int(t) - now + RESUME_GAP_NS

    def stamp(self, table_id: str, t_ns: int) -> int:
        """A time of this process's monotonic clock (a button's press, a camera frame) on
        the table's own timeline, which goes on from where it was before a reboot."""
        return t_ns + self.get(table_id).time_offset_ns

    def by_code(self, code: str) -> LiveTable:
        record = self.store.find_code(str(code).strip().upper()[:8])
        if record is None:
            raise TableError(404, "no_table", N_("There is no table with that code."))
        return self.get(record.id)

    def list_tables(self) -> list[dict[str, Any]]:
        """Every table that loads: one whose log no longer replays (a record stored by an
        older version) is left out and logged, not the whole list lost. Each says when it
        was last played (``active``: its latest move, else its creation) and whether the
        host archived it; the latest played first."""
        out = []
        archived, active = self.store.archived(), self.store.last_activity()
        for r in self.store.list_tables():
            try:
                out.append({**self.get(r.id).summary(), "archived": r.id in archived,
                            "active": max(active.get(r.id, r.created), r.created)})
            except Exception:
                log.exception("table %s does not load; left out of the list", r.id)
        return sorted(out, key=lambda t: -t["active"])

    # -- tidying the list of tables (the host's: the PIN is checked by the caller) -------
    def rename(self, table_id: str, title: Any) -> None:
        """A new title (1 to 60 characters; empty: the game's name)."""
        if not isinstance(title, str) or len(title) > 60:
            raise TableError(400, "bad_title", N_("A title is at most 60 characters."))
        live = self.get(table_id)
        with live.lock:
            title = title.strip() or live.game.name
            self.store.set_title(table_id, title)
            live.record = replace(live.record, title=title)

    def set_archived(self, table_id: str, archived: Any) -> None:
        """Archived: listed apart on the home page, under "Archived"; it still opens."""
        if not isinstance(archived, bool):
            raise TableError(400, "bad_archived", N_("Archived is true or false."))
        self.get(table_id)
        self.store.set_archived(table_id, archived)

    def delete(self, table_id: str) -> None:
        """The table and its log gone for good. Its phones are told first (``deleted``)."""
        live = self.get(table_id)
        with live.lock:
            self._notify(live, Update(table_id, live.version, "announce",
                                      [{"type": "table_deleted"}], HOST))
            self.store.delete_table(table_id)
            with self._lock:
                self._tables.pop(table_id, None)

    # -- who is who --------------------------------------------------------------------
    def check_pin(self, table_id: str, pin: Any, client: str | None = None) -> None:
        """Raise unless ``pin`` is the host's. Five wrong tries from one phone (``client``:
        its address) lock the PIN for that phone for 30 s. Only that phone's: a lock for the
        whole table let one player, a prank or a child mistyping, stop the host's undo and
        tie buttons, and even the host's page, every 30 s. Across addresses, past
        PIN_GLOBAL_TRIES wrong PINs the table hears one try a minute (see there), but from
        an address that gave the right PIN before (the host's own phone keeps working)."""
        live = self.get(table_id)
        now = self.clock.monotonic_ns() / 1e9
        with live.lock:
            for who in list(live.pin_failures):  # (the old ones go, whoever made them)
                kept = [t for t in live.pin_failures[who] if now - t < PIN_LOCK_S]
                if kept:
                    live.pin_failures[who] = kept
                else:
                    del live.pin_failures[who]
            failures = live.pin_failures.get(client, [])
            if len(failures) >= PIN_TRIES:
                raise TableError(
                    429,
                    "pin_locked",
                    N_("Too many wrong PINs from this phone. Try again in {s} s."),
                    s=int(PIN_LOCK_S - (now - failures[0])) + 1,
                )
            live.pin_wrong = [t for t in live.pin_wrong if now - t < PIN_GLOBAL_WINDOW_S]
            wait = PIN_GLOBAL_SPACING_S - (now - live.pin_wrong[-1]) if live.pin_wrong else 0
            if client not in live.pin_trusted and len(live.pin_wrong) >= PIN_GLOBAL_TRIES \
                    and wait > 0:
                raise TableError(
                    429,
                    "pin_busy",
                    N_("Too many wrong PINs at this table. Try again in {s} s."),
                    s=int(wait) + 1,
                )
            if not isinstance(pin, str) or not _pin_ok(pin, live.record.pin_hash):
                live.pin_failures[client] = [*failures, now]
                live.pin_wrong.append(now)
                raise TableError(403, "bad_pin_given", N_("That is not the host's PIN."))
            live.pin_trusted.add(client)

    def seat_for_token(self, table_id: str, token: str | None) -> int | None:
        if not token:
            return None
        live = self.get(table_id)
        hashed = _hash(token)
        for seat, stored in live.seats.items():
            if hmac.compare_digest(stored, hashed):
                return seat
        raise TableError(401, "bad_token", N_("This phone's pass for the table is not valid."))

    def join(self, table_id: str, seat: Any, pin: str | None = None,
             client: str | None = None, host: bool = False) -> str:
        """Give a phone the seat's token. A seat already taken needs the host's PIN (a phone
        lost or swapped mid-game), which invalidates the old phone's token. ``host``: the
        host's own phone (its PIN checked by the caller, in its headers, not typed to move
        a seat): in a game that knows the seat its host plays in (``host_seat``), the first
        seat the host joins is that seat."""
        live = self.get(table_id)
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not (0 <= seat < len(live.record.players))
        ):
            raise TableError(400, "bad_seat", N_("There is no such seat."))
        with live.lock:
            if host:
                pass  # (the host's phone: its PIN was checked)
            elif seat in live.seats:
                if pin is None:
                    raise TableError(
                        409,
                        "seat_taken",
                        N_("{name} has already joined from another phone."),
                        name=live.record.players[seat],
                    )
                self.check_pin(table_id, pin, client)
            elif self._seat_locked(live, seat):
                # (a seat nobody held when its secret card was dealt: any phone on the
                # network could have taken it and read the card)
                if pin is None:
                    raise TableError(
                        409,
                        "seat_locked",
                        N_("The cards are dealt: only the host's PIN gives {name}'s seat to "
                           "a phone."),
                        name=live.record.players[seat],
                    )
                self.check_pin(table_id, pin, client)
            token = secrets.token_urlsafe(18)
            self.store.set_seat(table_id, seat, _hash(token), self.clock.wall())
            live.seats[seat] = _hash(token)
            self._notify(
                live,
                Update(
                    table_id,
                    live.version,
                    "join",
                    [{"type": "player_joined", "seat": seat}],
                    Actor(seat=seat),
                ),
            )
            if host and getattr(live.game, "host_seat", None) is not None and \
                    self._host_seat(live) is None:
                try:  # (logged, so that a replay knows the host's seat too)
                    self.submit(table_id, {"type": "host_seat", "seat": seat}, HOST)
                except TableError:
                    log.info("table %s: the host's seat %s not recorded", table_id, seat)
        return token

    @staticmethod
    def _host_seat(live: LiveTable) -> int | None:
        """The seat the table's host plays in, where the game knows it (``host_seat``)."""
        hook = getattr(live.game, "host_seat", None)
        return None if hook is None else hook(live.state)

    def host_seat(self, table_id: str) -> int | None:
        """The seat the table's host plays in (None: the host does not play, or the game
        does not say)."""
        live = self.get(table_id)
        with live.lock:
            return self._host_seat(live)

    def _viewer(self, live: LiveTable, seat: int | None, host: bool) -> tuple[int | None, bool]:
        """Whose view a caller reads: a host who plays (``host_seat``) reads that seat's,
        whatever the phone sends (with the PIN alone a Werewolf host who plays, not yet
        joined, read the moderator view: every card); the moderator view is for a host who
        does not play."""
        if host and (mine := self._host_seat(live)) is not None:
            return mine, True
        return seat, host

    @staticmethod
    def _seat_locked(live: LiveTable, seat: int) -> bool:
        """Whether a free seat goes to a phone only with the host's PIN: the game's
        ``seat_locked(state, seat)`` (Werewolf: the seat's card is dealt)."""
        locked = getattr(live.game, "seat_locked", None)
        return bool(locked is not None and locked(live.state, seat))

    def ask_empty_seats(self, table_id: str, action: Any, actor: Actor) -> None:
        """A phone's action in the game's ``deal_actions`` (Werewolf's ``start``: it deals
        each seat its secret card) with a seat no phone holds asks the host first (409
        ``empty_seats``; a refusal of the rules comes first): after it, that card goes only
        to a phone the host gives the seat to. The host answers by sending it again with
        ``"empty_seats": true``. (Asked by the web API of the phones' moves; the table's own
        callers, a test or a script, deal as they are told.)"""
        live = self.get(table_id)
        if not isinstance(action, dict) or action.get("empty_seats") is True or \
                action.get("type") not in getattr(live.game, "deal_actions", ()):
            return
        players = live.record.players
        with live.lock:
            mine = self._host_seat(live)  # (the host's own seat is held by the host's phone)
            empty = [i for i in range(len(players)) if i not in live.seats and i != mine]
            if not empty:
                return
            self._judge(live, action, actor, self.clock.wall())
            raise TableError(
                409,
                "empty_seats",
                N_("Nobody has joined as {names} yet: once the cards are dealt, only a phone "
                   "the host gives the seat to (with the PIN) is shown that card. Deal "
                   "anyway?"),
                names=", ".join(players[i] for i in empty),
                seats=empty,
            )

    # -- acting ------------------------------------------------------------------------
    def submit(
        self, table_id: str, action: Any, actor: Actor, expected_version: int | None = None,
        viewer: tuple[int | None, bool] | None = None,
    ) -> Update:
        """Judge and commit one action; TableError for a refusal (nothing changes then).
        ``viewer``: whose view the sending phone holds, (seat, host), for its version (the
        actor's where not given: a host acting for another seat holds its own view)."""
        live = self.get(table_id)
        with live.lock:
            self._check_version(live, expected_version,
                                self._viewer(live, *(viewer or (actor.seat, actor.host))))
            _check_plain(action)
            seq = live.version + 1
            now = self.clock.wall()
            result = self._judge(live, action, actor, now)
            self.store.append(table_id, seq, "action", action, actor.to_json(), now)
            live.log.append(LogEntry(seq, "action", action, actor.to_json(), now))
            live.state, live.version = result.state, seq
            live.remember_moment()
            update = Update(table_id, seq, "action", result.events, actor)
            self._notify(live, update)
        return update

    def check(self, table_id: str, action: Any, actor: Actor) -> None:
        """Whether the rules would take this action now, without committing it: the
        TableError that ``submit`` would raise, or nothing. (A phone's slap under the
        hardware layer is judged a moment later in a race with the buttons; a press the rules
        refuse anyway is answered on that phone at once.)"""
        live = self.get(table_id)
        with live.lock:
            self._judge(live, action, actor, self.clock.wall())

    def _judge(self, live: LiveTable, action: Any, actor: Actor, now: float) -> Any:
        """The rules' verdict on ``action`` as the table's next move (the caller holds the
        lock): what they accept, or a TableError for a refusal."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise TableError(400, "bad_action", N_("An action needs a type."))
        seq = live.version + 1
        ctx = Context(actor, rng_for(live.record.seed, seq), now, seq)
        # (asked of a move as it comes, not on replay: Versus believes no time a phone gives,
        # though its slaps were logged with one the server gave)
        admit = getattr(live.game, "admit", None)
        if admit is not None and (refused := admit(action, actor)) is not None:
            raise TableError.from_rejection(refused, 403)
        try:
            result = live.game.apply(live.state, action, ctx)
        except Exception as exc:  # a rules bug must not take the table down
            raise TableError(
                422, "rules_error", N_("The rules could not judge that action.")
            ) from exc
        if isinstance(result, Rejection):
            raise TableError.from_rejection(
                result, 403 if result.code in ("host_only", "not_your_seat") else 422
            )
        return result

    def undo(
        self, table_id: str, actor: Actor = HOST, expected_version: int | None = None,
        viewer: tuple[int | None, bool] | None = None,
    ) -> Update:
        """Take back the last action that is still in force (the host's)."""
        live = self.get(table_id)
        if not actor.host:
            raise TableError(403, "host_only", N_("Only the host can do that."))
        with live.lock:
            self._check_version(live, expected_version,
                                self._viewer(live, *(viewer or (actor.seat, actor.host))),
                                same_moment=False)
            undone = {e.body["undo"] for e in live.log if e.kind == "undo"}
            target = next(
                (e for e in reversed(live.log) if e.kind == "action" and e.seq not in undone), None
            )
            if target is None:
                raise TableError(409, "nothing_to_undo", N_("There is nothing to undo."))
            seq = live.version + 1
            now = self.clock.wall()
            entry = LogEntry(seq, "undo", {"undo": target.seq}, actor.to_json(), now)
            resumed: list[dict[str, Any]] = []
            state = replay(live.record, live.game, [*live.log, entry])
            # The game may start again what the undo brought back (Werewolf: the step's
            # timer and narration), where it says it brought something back (``resumes``):
            # a wolf's vote taken back, the step unchanged, restarted the step on every
            # phone and told them all that a secret move had been undone. Logged, so that
            # a replay does the same.
            if getattr(live.game, "resumed", None) is not None and getattr(
                    live.game, "resumes", lambda before, after: True)(live.state, state):
                entry = LogEntry(seq, "undo", {"undo": target.seq, "resume": True},
                                 actor.to_json(), now)
                state = replay(live.record, live.game, [*live.log, entry], resumed)
            self.store.append(table_id, seq, "undo", entry.body, entry.actor, now)
            live.log.append(entry)
            live.state, live.version = state, seq
            live.remember_moment()
            update = Update(table_id, seq, "undo", [self._undone(live, target), *resumed],
                            actor)
            self._notify(live, update)
        return update

    @staticmethod
    def _undone(live: LiveTable, target: LogEntry) -> dict[str, Any]:
        """The event of an undo: in a game with secrets, only for the seats whose history
        shows the entry taken back, and without its number in the log (an "undone" sent to
        every phone after a Werewolf night told them that somebody had made a secret move).
        """
        filt = getattr(live.game, "history_view", None)
        if filt is None:
            return {"type": "undone", "seq": target.seq}
        entry = {**target.to_json(), "undone": True}
        # (``watchers``: a phone without a seat, a watcher's or the host's, reads the entry
        # too, and hears its undo: its news line still told of the move taken back)
        return {"type": "undone", "to": [s for s in range(len(live.record.players))
                                         if filt(live.state, entry, s) is not None],
                "watchers": filt(live.state, entry, None) is not None}

    def _check_version(self, live: LiveTable, expected: int | None,
                       viewer: tuple[int | None, bool], same_moment: bool = True) -> None:
        """Refuse a move from a phone that had not seen the table as it is (409), where the
        phone sent the version it saw: its own (``_version_for``), in a game with secrets
        the count of its history's entries, which a secret move it may not see leaves as
        it was (the rules still judge the move against the table as it is)."""
        if expected is None:
            return
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise TableError(400, "bad_version", N_("The version must be a whole number."))
        seen = self._seen(live, *viewer)
        now = live.version if seen is None else len(seen)
        if expected == now:
            return
        # Moves of one moment of play (every living player voting, every phone saying it has
        # seen its card) do not wait for one another: each phone's view is a moment behind
        # the others' taps, and refusing them all but the first would have a table tap again
        # and again. The rules still judge the move against the table as it is now.
        # (Not an undo: it takes back the latest move, which that phone may not have seen.)
        # (in a game with secrets, a phone's version stands for every table version up to
        # its next visible entry: the latest of them, the state it may have been shown, as
        # the night's hidden moves carried the table on to the day's captain vote)
        at = expected if seen is None else (
            seen[expected] - 1 if 0 <= expected < len(seen) else None)
        moment = live.moments.get(at) if at is not None else None
        if same_moment and moment is not None and moment == live.moments.get(live.version):
            return
        # (no numbers: players do not know versions, and in a game with secrets the two
        # would count the secret moves between)
        raise TableError(409, "stale_version", N_(
            "The table changed since your phone last looked. Check it and try again."))

    # -- reading -----------------------------------------------------------------------
    def view(self, table_id: str, seat: int | None = None, host: bool = False) -> dict[str, Any]:
        """What one viewer may see: the public view, plus a player's own view for a seat.
        The host's moderator view (``host=True``) is the full state (not for a host who
        holds a seat in a game with secrets: ``_moderates``)."""
        live = self.get(table_id)
        with live.lock:
            seat, host = self._viewer(live, seat, host)
            version = self._version_for(live, seat, host)
            if live.public_cache is None or live.public_cache[0] != live.version:
                live.public_cache = (live.version, live.game.public_view(live.state))
            out = {
                "table": live.summary(version),
                "version": version,
                "public": live.public_cache[1],  # (read only: shared by every viewer)
            }
            if seat is not None:
                out["you"] = {
                    "seat": seat,
                    "name": live.record.players[seat],
                    "view": live.game.player_view(live.state, seat),
                }
            if self._moderates(live, seat, host):
                moderator = getattr(live.game, "moderator_view", None)
                out["host"] = moderator(live.state) if moderator else live.state
        return out

    def history(
        self, table_id: str, seat: int | None = None, host: bool = False
    ) -> list[dict[str, Any]]:
        """The log as a viewer may read it. A game with secrets filters the entries through
        ``history_view(state, entry, seat)``; the host reads everything. An undo of an entry
        the viewer may not see is not shown either: "undone" after a Werewolf night told
        every phone that somebody had taken a secret action."""
        live = self.get(table_id)
        with live.lock:
            seat, host = self._viewer(live, seat, host)
            shown = None if self._moderates(live, seat, host) else self._shown(live, seat)
            if shown is None:
                undone = {e.body["undo"] for e in live.log if e.kind == "undo"}
                return [{**e.to_json(), "undone": e.seq in undone} for e in live.log]
            # numbered as the viewer's own list: the log's numbers, by their gaps, told how
            # many secret moves were made between two that may be seen (the phone shows them)
            number = {seq: i for i, seq in enumerate(shown, 1)}
            return [{**v, "seq": number[v["seq"]]} | (
                {"body": {**v["body"], "undo": number[v["body"]["undo"]]}}
                if v["kind"] == "undo" else {}) for v in shown.values()]

    @staticmethod
    def _shown(live: LiveTable, seat: int | None) -> dict[int, dict[str, Any]] | None:
        """The entries a seat (None: a watcher) may read, by their number in the log, as
        ``history_view`` shows them; None for a game without secrets (everyone reads all)."""
        filt = getattr(live.game, "history_view", None)
        if filt is None:
            return None
        undone = {e.body["undo"] for e in live.log if e.kind == "undo"}
        shown: dict[int, dict[str, Any]] = {}
        for e in live.log:
            entry = {**e.to_json(), "undone": e.seq in undone}
            if entry["kind"] == "undo" and entry["body"].get("undo") not in shown:
                continue
            if (v := filt(live.state, entry, seat)) is not None:
                shown[e.seq] = v
        return shown

    @staticmethod
    def _moderates(live: LiveTable, seat: int | None, host: bool) -> bool:
        """Whether this viewer reads the whole table (the moderator's view, every log entry,
        the table's version): the host, unless the host holds a seat in a game with
        secrets. A host who plays is a player there: the PIN gives the host's powers, not
        the other players' hands (an UNO host's phone showed a hand shown only to the
        challenger, and the cards the others drew)."""
        return host and (seat is None or getattr(live.game, "history_view", None) is None)

    def _seen(self, live: LiveTable, seat: int | None, host: bool) -> list[int] | None:
        """The log numbers of the entries this viewer reads, oldest first (cached for the
        table's version); None where the viewer reads the whole log."""
        if self._moderates(live, seat, host) or getattr(live.game, "history_view", None) is None:
            return None
        if live.seen_cache.get("version") != live.version:
            live.seen_cache = {"version": live.version}
        if seat not in live.seen_cache:
            live.seen_cache[seat] = list(self._shown(live, seat) or ())
        return live.seen_cache[seat]

    def _version_for(self, live: LiveTable, seat: int | None, host: bool) -> int:
        """The version a viewer is shown: the table's (the number of entries in its log),
        or, in a game with secrets, the number of entries in this viewer's own history. A
        phone's version then moves only with what it may see: the table's counted the secret
        moves (and timed them) for anyone with a phone's developer tools."""
        seen = self._seen(live, seat, host)
        return live.version if seen is None else len(seen)

    def moderates(self, table_id: str, seat: int | None, host: bool) -> bool:
        """Whether this caller reads the whole table (``_moderates``)."""
        live = self.get(table_id)
        return self._moderates(live, *self._viewer(live, seat, host))

    def viewer_version(self, table_id: str, seat: int | None = None,
                       host: bool = False) -> int:
        """The version this viewer's view carries (see ``_version_for``)."""
        live = self.get(table_id)
        with live.lock:
            return self._version_for(live, *self._viewer(live, seat, host))

    def score_sheet(self, table_id: str) -> dict[str, Any] | None:
        """The game's score sheet (``columns`` and ``rows``) for export, if it keeps one."""
        live = self.get(table_id)
        export = getattr(live.game, "export", None)
        if export is None:
            return None
        with live.lock:
            return export(live.state)

    # -- listening ---------------------------------------------------------------------
    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        live = self.get(table_id)
        with live.lock:
            live.listeners.append(listener)

        def unsubscribe() -> None:
            with live.lock:
                if listener in live.listeners:
                    live.listeners.remove(listener)

        return unsubscribe

    def announce(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """Push events that change no state (a narration line for the host's screen, a line
        for the host phone to speak, a refused card for the buzzer) to the table's phones.
        They are not logged: the log holds only what the rules accepted."""
        live = self.get(table_id)
        with live.lock:
            for e in events:
                if e.get("type") == "narration" and "to" not in e:
                    live.last_line = e
            self._notify(live, Update(table_id, live.version, "announce", list(events), HOST))

    def add_listener(self, listener: Listener) -> None:
        """Hear every table's updates (the LEDs, the buzzer, the narrator)."""
        self._global_listeners.append(listener)

    def _notify(self, live: LiveTable, update: Update) -> None:
        for listener in [*live.listeners, *self._global_listeners]:
            try:
                listener(update)
            except Exception:  # a broken listener must never undo a committed action
                log.exception("listener failed")
