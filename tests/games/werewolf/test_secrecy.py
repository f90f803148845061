"""Secrets stay secret: whole games are played through the real TableService, and every
response each player's phone could get (its view, its history, each event routed to it, each
refusal of its own actions) is checked against a model of what that player may know.

The model is built here, from the moderator's state and the actions the test itself made,
not from the game's views:

* one's own card (and the thief's original card and spares);
* werewolves: the pack, and the little girl once caught;
* the seer: each card she looked at; the little girl: the werewolves she peeked at;
* lovers: each other (Cupid knows them too); the witch: the victim she is shown, her potions;
* everyone: the cards of the dead, the lovers once one died of grief; all, once it is over.

Every role a response mentions must come as ``{"seat": s, "role": r}`` so it can be checked;
a role name anywhere else (a stray string) fails the test.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion.clock import FakeClock
from companion.games.base import HOST, Actor
from companion.games.werewolf import flow
from companion.games.werewolf.roles import ROLES, WEREWOLF, suggested_roles
from companion.store import Store
from companion.table import TableError, TableService

ROLE_NAMES = set(ROLES)
STEPISH_KEYS = {"name", "step", "awake", "game", "title"}  # public: step names, game id
NIGHT_ACTIONS = {
    "thief",
    "cupid",
    "seer",
    "wolf_vote",
    "peek",
    "witch",
    "claim",
    "assign",
    "catch_little_girl",
}


class Knowledge:
    """What each seat may know so far (it only grows)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pairs: list[set[tuple[int, str]]] = [set() for _ in range(n)]
        self.saw_victim: set[int] = set()

    def refresh(self, s: dict) -> None:
        roles = s["roles"]
        for seat in range(self.n):
            if roles[seat] is not None:
                self.pairs[seat].add((seat, roles[seat]))
            if s["original_roles"][seat] is not None:
                self.pairs[seat].add((seat, s["original_roles"][seat]))
        if s["phase"] == "setup":
            return
        pack = [i for i, r in enumerate(roles) if r == WEREWOLF]
        for w in pack:
            self.pairs[w] |= {(x, WEREWOLF) for x in pack}
            self.pairs[w] |= {(c["seat"], "little_girl") for c in s["caught"]}
        for look in s["seer_log"]:
            self.pairs[look["by"]].add((look["seat"], look["role"]))
        for p in s["peeks"]:
            self.pairs[p["by"]] |= {(w, WEREWOLF) for w in p["wolves"]}
        step = s.get("step")
        if s["phase"] == "night" and step and step["name"] == "witch":
            self.saw_victim |= set(flow.holders(s, "witch"))

    def allowed_pair(self, s: dict, seat: int, pair: tuple[int, str]) -> bool:
        if s["phase"] == "over" or pair in self.pairs[seat]:
            return True
        return any(d["seat"] == pair[0] and d["role"] == pair[1] for d in s["deaths"])


class Checker:
    def __init__(self, know: Knowledge) -> None:
        self.know = know
        self.checked = 0

    def check(self, s: dict, seat: int, data: Any, where: str, own_entry: bool = False) -> None:
        self.checked += 1
        if s["phase"] != "over":  # once over, everything is shown to everyone
            self._walk(s, seat, data, where, None, own_entry)

    def _fail(self, where: str, why: str, data: Any) -> None:
        raise AssertionError(f"{where}: {why}: {str(data)[:400]}")

    def _walk(self, s, seat, data, where, key, own_entry) -> None:
        k = self.know
        over = s["phase"] == "over"
        if isinstance(data, dict):
            if "role" in data and data["role"] in ROLE_NAMES:
                who = data.get("seat")
                if who is None and own_entry:
                    who = seat
                if not isinstance(who, int):
                    self._fail(where, "a role without its seat", data)
                if not k.allowed_pair(s, seat, (who, data["role"])):
                    self._fail(where, f"seat {seat} may not know {(who, data['role'])}", data)
            lovers = s.get("lovers") or []
            if data.get("lovers") and not over and not s["lovers_revealed"]:
                cupid = seat in flow.holders(s, "cupid", living=False)
                if seat not in lovers and not cupid:
                    self._fail(where, f"seat {seat} may not know the lovers", data)
            spares = data.get("spares")
            if isinstance(spares, list) and spares and s["original_roles"][seat] != "thief":
                self._fail(where, f"seat {seat} may not see the spares", data)
            for secret in ("victim", "wolf_votes", "potions", "heal", "poison"):
                if secret in data and data[secret] not in (None, [], False) and not over:
                    ok = {
                        "victim": s["roles"][seat] == WEREWOLF or seat in k.saw_victim,
                        "wolf_votes": s["roles"][seat] == WEREWOLF,
                        "potions": s["roles"][seat] == "witch",
                        "heal": s["roles"][seat] == "witch",
                        "poison": s["roles"][seat] == "witch",
                    }[secret]
                    if not ok:
                        self._fail(where, f"seat {seat} may not see {secret}", data)
            if data.get("type") == "wolf_vote" and s["roles"][seat] != WEREWOLF and not over:
                self._fail(where, "a werewolf vote shown to a non-werewolf", data)
            if data.get("journal") or data.get("state"):
                self._fail(where, "the full journal/state before the end", data)
            for key2, value in data.items():
                if key2 == "timers":
                    continue  # {"seer": 30, "lovers": 15...}: public settings
                if key2 in ("role", "spares", "role_set", "roles"):
                    if key2 == "roles" and isinstance(value, list) and not over:
                        # only as [{"seat", "role"}] pairs, checked when walked
                        self._walk(s, seat, value, where, key2, own_entry)
                    elif key2 == "roles" and isinstance(value, dict):
                        continue  # a role set (counts) is public
                    continue
                self._walk(s, seat, value, where, key2, own_entry)
        elif isinstance(data, list):
            for item in data:
                self._walk(s, seat, item, where, key, own_entry)
        elif (
            isinstance(data, str)
            and data in ROLE_NAMES
            and key not in STEPISH_KEYS
            and not over
            and not (own_entry and key == "type")
        ):
            self._fail(where, f"a bare role name under {key!r}", data)


class Player:
    """Plays a whole game through the TableService, checking every response on the way."""

    def __init__(
        self, service: TableService, clock: FakeClock, rng: random.Random, n: int, options: dict
    ) -> None:
        self.service, self.clock, self.rng = service, clock, rng
        self.n = n
        self.table = service.create_table(
            "werewolf", [f"p{i}" for i in range(n)], "1234", options, seed=rng.randrange(1 << 30)
        )
        self.id = self.table.id
        self.know = Knowledge(n)
        self.checker = Checker(self.know)
        self.pending_events: list[dict] = []
        service.subscribe(self.id, lambda update: self.pending_events.extend(update.events))

    @property
    def s(self) -> dict:
        return self.service.get(self.id).state

    def submit(self, action: dict, seat: int | None) -> bool:
        actor = HOST if seat is None else Actor(seat=seat)
        try:
            self.service.submit(self.id, action, actor)
        except TableError as exc:
            if seat is not None:
                rej = exc.rejection
                self.know.refresh(self.s)
                self.checker.check(
                    self.s,
                    seat,
                    {"code": rej.code, "message": rej.message, "params": rej.params},
                    f"refusal {action}",
                )
            return False
        finally:
            self.know.refresh(self.s)
        self.flush()
        return True

    def flush(self) -> None:
        s = self.s
        for ev in self.pending_events:
            for seat in ev.get("to", range(self.n)):
                self.checker.check(s, seat, ev, f"event {ev.get('type')}")
        self.pending_events.clear()

    def check_views(self, history: bool) -> None:
        s = self.s
        for seat in range(self.n):
            view = self.service.view(self.id, seat=seat)
            self.checker.check(s, seat, view, "view")
            if history:
                entries = self.service.history(self.id, seat=seat)
                # (numbered as the phone's own list: gaps in the log's numbers would count
                # the secret moves between two entries)
                assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
                # (and the view's version is that count: the table's counted them all)
                assert view["version"] == view["table"]["version"] == len(entries)
                for entry in entries:
                    body = entry["body"]
                    own = entry["actor"].get("seat") == seat and not entry["actor"].get("host")
                    if (
                        s["phase"] != "over"
                        and entry["kind"] == "action"
                        and body.get("type") in NIGHT_ACTIONS | {"ack"}
                        and not own
                    ):
                        raise AssertionError(f"seat {seat} sees a secret action: {entry}")
                    self.checker.check(s, seat, entry, "history", own_entry=own)

    # -- a plausible but random player ---------------------------------------------------
    def setup(self) -> None:
        s = self.s
        mode = s["options"]["deal"]
        if mode == "companion":
            self.submit({"type": "start"}, None)
            return
        cards = [r for r, c in s["role_set"].items() for _ in range(c)]
        self.rng.shuffle(cards)
        for seat in range(self.n):
            if mode == "players":
                self.submit({"type": "claim", "role": cards[seat]}, seat)
            else:
                self.submit({"type": "assign", "seat": seat, "role": cards[seat]}, None)
        assert self.submit({"type": "start"}, None)

    def move(self) -> None:
        s = self.s
        step = s["step"]
        rng = self.rng
        living = flow.alive(s)
        if rng.random() < 0.15 or step is None:
            self.noise()
            return
        name = step["name"]
        actors = flow.step_actors(s)
        host_mode = s["options"]["input"] == "host" and name in flow.SECRET_STEPS
        who = None if host_mode or not actors else rng.choice(actors)
        target = rng.choice(living) if living else 0
        roll = rng.random()
        if roll < 0.2 or (not actors and name not in ("debate",)):
            self.clock.advance(max(0.0, step["deadline"] - self.clock.wall()) + 0.01)
            self.submit({"type": "timeout", "step": step["id"]}, rng.choice([None, 0]))
            return
        action: dict[str, Any]
        if name == "look" or name == "lovers":
            action = {"type": "ack"}
        elif name == "thief":
            action = {"type": "thief", "take": rng.choice([0, 1, None])}
        elif name == "cupid":
            action = {"type": "cupid", "lovers": rng.sample(range(self.n), 2)}
        elif name == "seer":
            action = {"type": "seer", "target": target}
        elif name == "werewolves":
            if rng.random() < 0.2:
                girl = flow.holders(s, "little_girl")
                if girl:
                    self.submit({"type": "peek"}, girl[0])
                    return
            pack = flow.wolves(s)
            if pack and not host_mode and rng.random() < 0.7:
                agreed = rng.choice([*living, None])
                for w in pack:
                    self.submit({"type": "wolf_vote", "target": agreed}, w)
                return
            action = {"type": "wolf_vote", "target": rng.choice([target, None])}
        elif name == "witch":
            action = {
                "type": "witch",
                "heal": rng.random() < 0.3,
                "poison": rng.choice([None, None, target]),
            }
        elif name == "captain":
            action = {"type": "captain_vote", "target": target}
        elif name == "vote":
            cands = step.get("candidates") or living
            for v in living:
                if rng.random() < 0.9:
                    self.submit({"type": "vote", "target": rng.choice([*cands, None])}, v)
            return
        elif name == "hunter":
            action = {"type": "hunter_shoot", "target": rng.choice([target, None])}
        elif name == "successor":
            action = {"type": "successor", "target": target}
        else:  # debate
            self.submit({"type": "skip"}, None)
            return
        self.submit(action, who)

    def noise(self) -> None:
        """Phones poking at things they should not: each refusal is checked too."""
        rng = self.rng
        seat = rng.randrange(self.n)
        kinds = [
            "seer",
            "wolf_vote",
            "witch",
            "thief",
            "cupid",
            "peek",
            "ack",
            "vote",
            "captain_vote",
            "hunter_shoot",
            "successor",
            "timeout",
            "claim",
            "start",
            "catch_little_girl",
            "nonsense",
        ]
        action = {
            "type": rng.choice(kinds),
            "target": rng.choice([0, self.n, -1, None, "x"]),
            "take": rng.choice([0, 1, 2]),
            "lovers": [0, 1],
            "heal": True,
            "role": rng.choice(sorted(ROLE_NAMES)),
        }
        self.submit(action, seat)

    def play(self, max_moves: int = 400) -> None:
        self.check_views(history=True)
        self.setup()
        for i in range(max_moves):
            if self.s["phase"] == "over":
                break
            self.move()
            self.check_views(history=i % 15 == 0)
        if self.s["phase"] != "over":
            self.submit({"type": "end_game"}, None)
        self.check_views(history=True)


def random_options(rng: random.Random, n: int) -> dict:
    roles = suggested_roles(n)
    if rng.random() < 0.6:  # every role in play
        wolves = 2 if n < 12 else 3
        specials = ["seer", "witch", "hunter", "cupid", "little_girl", "thief"]
        roles = {
            "werewolf": wolves,
            **{r: 1 for r in specials},
            "villager": n + 2 - wolves - len(specials),
        }
    return {
        "roles": roles,
        "deal": rng.choice(["companion", "companion", "host", "players"]),
        "input": rng.choice(["phones", "phones", "host"]),
        "captain": rng.random() < 0.8,
        "captain_election": rng.choice(["day1", "before_night1"]),
        "wolves_win": rng.choice(["seed", "parity"]),
        "revote": rng.choice(["tied", "all"]),
        "revote_tie": rng.choice(["nobody", "lot"]),
        "lovers_vs_wolves": rng.choice(["wolves_win", "play_on"]),
        "announce_causes": rng.random() < 0.5,
        "starvation": rng.random() < 0.2,
        "peek_catch_chance": rng.choice([0, 0.25, 1]),
    }


@pytest.mark.parametrize("seed", range(24))
def test_whole_games_never_show_a_player_more_than_their_role_may_know(seed):
    rng = random.Random(seed)
    clock = FakeClock()
    store = Store(":memory:")
    try:
        service = TableService(store, clock)
        n = rng.randint(8, 13)
        player = Player(service, clock, rng, n, random_options(rng, n))
        player.play()
        s = player.s
        assert s["phase"] == "over"
        assert player.checker.checked > 100
        # the end: everyone sees everything
        assert len(service.history(player.id, seat=0)) == len(service.history(player.id, host=True))
        assert Counter(r["role"] for r in service.view(player.id, seat=0)["public"]["roles"])
    finally:
        store.close()


def test_the_checker_catches_a_leak():
    """The checker itself: a view that mentions another seat's role fails."""
    import copy

    from companion.games.base import Context, resolve_options
    from companion.games.werewolf import GAME

    s = GAME.setup([f"p{i}" for i in range(8)], resolve_options(GAME.options, {}), random.Random(0))
    s = GAME.apply(s, {"type": "start"}, Context(HOST, random.Random(1), 0.0)).state
    know = Knowledge(8)
    know.refresh(s)
    checker = Checker(know)
    villager = s["roles"].index("villager")
    wolf = s["roles"].index("werewolf")
    checker.check(s, villager, GAME.player_view(s, villager), "view")
    leaky = copy.deepcopy(GAME.player_view(s, villager))
    leaky["you"]["known"].append({"seat": wolf, "role": "werewolf"})
    with pytest.raises(AssertionError):
        checker.check(s, villager, leaky, "view")
    with pytest.raises(AssertionError):
        checker.check(s, villager, {"text": "werewolf"}, "stray")
    s["lovers"] = [wolf, (wolf + 1) % 8 if (wolf + 1) % 8 != villager else (wolf + 2) % 8]
    with pytest.raises(AssertionError):
        checker.check(s, villager, {"type": "x", "lovers": s["lovers"]}, "lovers")
    with pytest.raises(AssertionError):
        checker.check(s, villager, {"type": "wolf_vote", "seat": wolf, "target": 1}, "vote")


# -- the same, through the HTTP API with each player's token ------------------------------
HOST_PIN = {"X-Host-Pin": "2468"}


class HttpPlayer(Player):
    """Plays through Flask's test client: every JSON body a player's token receives (action
    answers and refusals, views, histories) and every SSE event routed to it is checked."""

    def __init__(self, client, service, clock, rng, n, options) -> None:
        from web.api import events_for

        self.client, self.service, self.clock, self.rng, self.n = client, service, clock, rng, n
        res = client.post(
            "/api/tables",
            json={
                "game": "werewolf",
                "pin": "2468",
                "players": [f"p{i}" for i in range(n)],
                "options": options,
            },
        )
        assert res.status_code == 201, res.json
        self.id = res.json["table"]["id"]
        self.tokens = []
        for seat in range(n):
            joined = client.post(f"/api/tables/{self.id}/join", json={"seat": seat})
            assert joined.status_code == 201, joined.json
            self.tokens.append({"Authorization": "Bearer " + joined.json["token"]})
        self.know = Knowledge(n)
        self.checker = Checker(self.know)
        self.pending_events = []
        # what each phone's SSE stream would send: web.stream uses events_for per seat
        service.subscribe(
            self.id,
            lambda u: self.pending_events.extend(
                (seat, e) for seat in range(n) for e in events_for(u, seat, False)
            ),
        )

    def submit(self, action: dict, seat: int | None) -> bool:
        headers = HOST_PIN if seat is None else self.tokens[seat]
        res = self.client.post(
            f"/api/tables/{self.id}/actions", json={"action": action}, headers=headers
        )
        self.know.refresh(self.s)
        if seat is not None:
            self.checker.check(self.s, seat, res.json, f"answer to {action}")
        self.flush()
        return res.status_code == 200

    def flush(self) -> None:
        s = self.s
        for seat, ev in self.pending_events:
            self.checker.check(s, seat, ev, f"sse {ev.get('type')}")
        self.pending_events.clear()

    def check_views(self, history: bool) -> None:
        s = self.s
        for seat in range(self.n):
            view = self.client.get(f"/api/tables/{self.id}", headers=self.tokens[seat]).json
            assert "host" not in view
            self.checker.check(s, seat, view, "GET view")
            if history:
                hist = self.client.get(
                    f"/api/tables/{self.id}/history", headers=self.tokens[seat]
                ).json["history"]
                assert view["version"] == len(hist)
                for entry in hist:
                    own = entry["actor"].get("seat") == seat and not entry["actor"].get("host")
                    if (
                        s["phase"] != "over"
                        and entry["body"].get("type") in NIGHT_ACTIONS | {"ack"}
                        and not own
                    ):
                        raise AssertionError(f"seat {seat} sees a secret action: {entry}")
                    self.checker.check(s, seat, entry, "GET history", own_entry=own)
        watcher = self.client.get(f"/api/tables/{self.id}").json  # no token at all
        for seat in range(self.n):
            self.checker.check(s, seat, watcher["public"], "GET as a watcher")


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_over_http_show_each_token_only_what_it_may_know(client, service, clock, seed):
    rng = random.Random(100 + seed)
    n = rng.randint(8, 11)
    options = random_options(rng, n)
    player = HttpPlayer(client, service, clock, rng, n, options)
    player.play(max_moves=250)
    assert player.s["phase"] == "over" and player.checker.checked > 100
    moderator = client.get(f"/api/tables/{player.id}", headers=HOST_PIN).json
    assert moderator["host"]["roles"]  # the host's full view needs the PIN
