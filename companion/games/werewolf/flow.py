"""The narrator's running order: phases, timed steps, deaths and their triggers.

Everything works on a private copy of the state (``s``) and appends to an event list
(``ev``). Public events carry no ``to``; private ones carry ``to: [seats]`` and the SSE layer
sends them to those seats only.

Steps: ``thief, cupid, lovers, seer, werewolves, witch`` at night (the first three on the
first night only, each only if its card is in the role set, and called even when its holder
is dead or the card lies among the thief's spares, with the same timer), then by day the
interrupts (``hunter``, ``successor``), ``captain`` (election), ``debate`` and ``vote``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.base import Context
from companion.games.werewolf.common import (
    DEFAULT_TIMERS,
    FIRST_NIGHT_ONLY,
    NIGHT_STEPS,
    SECRET_STEPS,
    STEP_ROLE,
    Events,
    State,
    alive,
    holders,
    in_play,
    journal,
    lover_of,
    may_act,
    n_players,
    narrate,
    step_actors,
    timer,
    when,
    wolves,
)
from companion.games.werewolf.roles import CUPID, HUNTER, LITTLE_GIRL, THIEF, VILLAGE, WEREWOLF
from companion.games.werewolf.victory import check_victory, game_over, winners

# Re-exported: night.py, day.py, setup.py and views.py reach the facts through ``flow``.
__all__ = [
    "DEFAULT_TIMERS",
    "SECRET_STEPS",
    "alive",
    "check_victory",
    "game_over",
    "holders",
    "may_act",
    "step_actors",
    "when",
    "winners",
    "wolves",
]


# -- steps -------------------------------------------------------------------------------
def start_night(s: State, ctx: Context, ev: Events) -> None:
    s["phase"] = "night"
    s["night"] += 1
    s["tonight"] = {
        "wolf_votes": {},
        "victim": None,
        "chosen": None,
        "seer": None,
        "heal": False,
        "poison": None,
        "witch_done": False,
        "peeked": False,
        "caught": False,
        "thief_done": False,
        "cupid_done": False,
    }
    queue = [
        name
        for name in NIGHT_STEPS
        if (s["night"] == 1 or name not in FIRST_NIGHT_ONLY)
        and in_play(s, CUPID if name == "lovers" else STEP_ROLE[name])
    ]
    s["queue"] = queue
    narrate(ev, "night_falls", night=s["night"])
    if s["options"]["background_sound"]:
        ev.append({"type": "ambience", "sound": "night"})
    journal(s, "night_falls", night=s["night"])
    next_step(s, ctx, ev)


def next_step(s: State, ctx: Context, ev: Events) -> None:
    """Start whatever comes next: an interrupt (hunter, successor), the next queued step, or
    the next phase."""
    if s["phase"] == "over":
        s["step"] = None
        return
    if s["pending"]:
        job = s["pending"].pop(0)
        start_step(s, ctx, ev, job["kind"], seat=job["seat"])
        return
    if s["queue"]:
        start_step(s, ctx, ev, s["queue"].pop(0))
        return
    if s["phase"] == "night":
        dawn(s, ctx, ev)
    else:  # the prelude (look at your card, maybe the election) or the end of a day
        start_night(s, ctx, ev)


def steady(s: State, name: str) -> bool:
    """Whether the step runs its whole length whoever acts (option ``night_pace``: every
    night step; a step that ended when its holder acted, but ran its whole timer for a dead
    holder or a card among the thief's spares, told everyone which)."""
    return name in NIGHT_STEPS and s["options"].get("night_pace", "early") == "steady"


def step_length(s: State, ctx: Context, name: str) -> float:
    """The step's timer, and for a steady night step a short random spread (``night_spread``
    seconds at most): its length tells nothing, not even that it is the same every night."""
    length = timer(s, name)
    if steady(s, name):
        length += round(ctx.rng.uniform(0, float(s["options"].get("night_spread", 0))), 1)
    return length


def step_done(s: State) -> bool:
    """Whether the current step ends now, before its time: it is complete and its length
    may show it (not a steady night step, which waits for its deadline)."""
    step = s.get("step")
    return bool(step) and not steady(s, step["name"]) and step_complete(s)


def start_step(s: State, ctx: Context, ev: Events, name: str, seat: int | None = None) -> None:
    s["step_counter"] += 1
    step: dict[str, Any] = {
        "id": s["step_counter"],
        "name": name,
        "started": ctx.now,
        "deadline": ctx.now + step_length(s, ctx, name),
    }
    if seat is not None:
        step["seat"] = seat
    if name in SECRET_STEPS:  # (their ends by the clock or the host are kept from the log)
        s["secret_steps"] = [*s.get("secret_steps", []), step["id"]]
    if name == "vote":
        step["round"] = s.pop("next_vote_round", 1)
        step["candidates"] = s.pop("next_candidates", None)
    s["step"] = step
    s["votes"] = {}
    s["acks"] = []
    announce_step(s, ev)
    if step_done(s):  # e.g. a phone-less step with nothing to wait for
        end_step(s, ctx, ev)


def resume_step(s: State, ctx: Context, ev: Events) -> None:
    """The step an undo brought back starts again: its timer anew (it came back with its
    old deadline, often past, and the driver ended it at once: an undone captain vote after
    90 s, or a witch's choice after 30, did nothing), and its narration again (the phones
    and the speaker still had the later step's line)."""
    step = s["step"]
    step["started"] = ctx.now
    step["deadline"] = ctx.now + step_length(s, ctx, step["name"])
    announce_step(s, ev)


def announce_step(s: State, ev: Events) -> None:
    """The current step's event and its narration (and the private wake of its role)."""
    step = s["step"]
    name, seat = step["name"], step.get("seat")
    ev.append(
        {"type": "step", "id": step["id"], "name": name, "deadline": step["deadline"]}
        | ({"seat": seat} if seat is not None else {})
        | ({"round": step["round"], "candidates": step["candidates"]} if name == "vote" else {})
    )
    names = s["players"]
    if name in NIGHT_STEPS:
        narrate(ev, f"{name}_wake")
        _private_wake(s, ev, name)
    elif name == "hunter":
        narrate(ev, "hunter_wake", name=names[seat], seat=seat)
    elif name == "successor":
        narrate(ev, "successor_wake", name=names[seat], seat=seat)
    elif name == "captain":
        narrate(ev, "captain_election")
    elif name == "look":
        narrate(ev, "look_at_cards")
    elif name == "debate":
        # (whole minutes, at least one, said as one in the singular: "1 minutes" was said)
        minutes = max(1, round(timer(s, "debate") / 60))
        if minutes == 1:
            narrate(ev, "debate_start_one")
        else:
            narrate(ev, "debate_start", minutes=minutes)
    elif name == "vote":
        if step["round"] == 1:
            narrate(ev, "vote_start")
        else:
            cands = step["candidates"]
            narrate(
                ev,
                "revote_start",
                names=[names[c] for c in cands] if cands else [],
                seats=cands or [],
            )


def _private_wake(s: State, ev: Events, name: str) -> None:
    """What the woken phones are shown when their step starts (never the others)."""
    seats = step_actors(s)
    if not seats:
        return
    data: dict[str, Any] = {"type": "wake", "to": seats, "step": name}
    if name == "thief":
        data["spares"] = list(s["spares"])
    elif name == "lovers":
        data["lovers"] = list(s["lovers"] or [])
    elif name == "werewolves":
        data["wolves"] = [{"seat": w, "role": WEREWOLF} for w in wolves(s, living=False)]
    elif name == "witch":
        data["victim"] = s["tonight"]["victim"]
        data["potions"] = dict(s["potions"])
    ev.append(data)


def step_complete(s: State) -> bool:
    step = s["step"]
    if not step:
        return False
    name, t = step["name"], s.get("tonight") or {}
    if name == "thief":
        return t.get("thief_done", False)
    if name == "cupid":
        return t.get("cupid_done", False)
    if name == "lovers":
        lovers = [x for x in (s.get("lovers") or []) if s["alive"][x]]
        return bool(lovers) and all(x in s["acks"] for x in lovers)
    if name == "seer":
        return t.get("seer") is not None
    if name == "werewolves":
        if t.get("host_choice"):
            return True
        pack = wolves(s)
        votes = t.get("wolf_votes", {})
        if not pack or any(str(w) not in votes for w in pack):
            return False
        return len({votes[str(w)] for w in pack}) == 1
    if name == "witch":
        return t.get("witch_done", False)
    if name in ("captain", "vote"):
        voters = alive(s)
        return bool(voters) and all(str(v) in s["votes"] for v in voters)
    if name in ("hunter", "successor"):
        return step.get("done", False)
    if name == "look":
        return len(s["acks"]) == n_players(s)
    return False


def end_step(s: State, ctx: Context, ev: Events, timed_out: bool = False,
             by_host: bool = False) -> None:
    """Close the current step (applying its default if it timed out, or if the host ended
    it early: the story tells the two apart) and go on."""
    step = s["step"]
    name = step["name"]
    if timed_out and not (steady(s, name) and step_complete(s) and not by_host):
        # (a steady step whose holders acted ends at its time: nobody ran out of it)
        journal(s, "ended_early" if by_host else "timeout", step=name)
    if name == "thief":
        _end_thief(s, ctx, ev, timed_out)
    elif name == "werewolves":
        _end_werewolves(s, ctx, ev)
    elif name == "captain":
        _end_captain(s, ctx, ev)
    elif name == "vote":
        _end_vote(s, ctx, ev)
    elif name == "hunter" and not step.get("done"):
        narrate(ev, "hunter_holds_fire", name=s["players"][step["seat"]], seat=step["seat"])
        journal(s, "hunter_no_shot", seat=step["seat"])
    elif name == "successor" and not step.get("done"):
        living = alive(s)
        if living:
            chosen = ctx.rng.choice(living)
            set_captain(s, ev, chosen, "lot")
    if name in NIGHT_STEPS:
        narrate(ev, f"{name}_sleep")
    s["step"] = None if s["phase"] == "over" else s["step"]
    if s["phase"] != "over":
        next_step(s, ctx, ev)


def _end_thief(s: State, ctx: Context, ev: Events, timed_out: bool) -> None:
    t = s["tonight"]
    if t["thief_done"]:
        return
    thief = holders(s, THIEF)
    if thief and s["spares"] and all(r == WEREWOLF for r in s["spares"]):
        swap_thief(s, thief[0], 0, ev)  # both spares are werewolves: he must take one (WW6)
    t["thief_done"] = True


def swap_thief(s: State, seat: int, index: int, ev: Events) -> None:
    taken = s["spares"][index]
    s["spares"][index] = THIEF
    s["roles"][seat] = taken
    journal(s, "thief_took", seat=seat, role=taken)
    ev.append({"type": "your_role", "to": [seat], "seat": seat, "role": taken})
    if taken == WEREWOLF:
        pack = wolves(s, living=False)
        ev.append(
            {
                "type": "pack",
                "to": pack,
                "wolves": [{"seat": w, "role": WEREWOLF} for w in pack],
            }
        )


def _end_werewolves(s: State, ctx: Context, ev: Events) -> None:
    t = s["tonight"]
    if not t.get("host_choice"):
        votes = [t["wolf_votes"][str(w)] for w in wolves(s) if str(w) in t["wolf_votes"]]
        real = [v for v in votes if v is not None]
        chosen = None
        if real:
            counts = Counter(real)
            top = max(counts.values())
            tied = sorted(v for v, c in counts.items() if c == top)
            chosen = tied[0] if len(tied) == 1 else ctx.rng.choice(tied)
            if len(tied) > 1:
                journal(s, "wolves_drawn", seats=tied, victim=chosen)
        t["chosen"] = chosen
    t["victim"] = t["chosen"]
    if t["caught"]:
        girl = holders(s, LITTLE_GIRL)
        if girl:
            t["victim"] = girl[0]  # W3: she dies instead of the chosen victim
    journal(s, "wolves_chose", victim=t["chosen"], caught=t["caught"])
    pack = wolves(s, living=False)
    if pack:
        ev.append({"type": "wolves_done", "to": pack, "victim": t["victim"]})


def dawn(s: State, ctx: Context, ev: Events) -> None:
    t = s["tonight"]
    s["phase"] = "day"
    s["day"] += 1
    s["step"] = None
    if s["options"]["background_sound"]:
        ev.append({"type": "ambience", "sound": None})
    narrate(ev, "day_breaks", day=s["day"])
    if s["options"]["starvation"] and t["chosen"] is None and not t["caught"] and wolves(s):
        _starve(s, ev)
        return
    dead: list[int] = []
    victim = t["victim"]
    if victim is not None and not t["heal"] and s["alive"][victim]:
        dead.append(victim)
    poison = t["poison"]
    if poison is not None and s["alive"][poison] and poison not in dead:
        dead.append(poison)
    causes = {victim: "werewolves", poison: "poison"}
    if not dead:
        narrate(ev, "nobody_died")
    # The night's dead die together ("a morning can show 0, 1 or 2 dead"), then the win is
    # decided, then what each death brings (a lover, a hunter's shot, a successor), each
    # checked as it comes. (One by one, the first death's win stopped the dawn: whether
    # the werewolves' victim died depended on where people sat.)
    dying = sorted(dead)
    for seat in dying:
        cause = causes.get(seat, "night") if s["options"]["announce_causes"] else "night"
        _die(s, ev, seat, cause)
    for seat in dying:
        _after_death(s, ev, seat)
        if s["phase"] == "over":
            return
    if check_victory(s, ev):  # also when nobody died, e.g. no werewolf was dealt at all
        return
    s["queue"] = []
    if (
        s["options"]["captain"]
        and not s["captain_elected"]
        and s["options"]["captain_election"] == "day1"
    ):
        s["queue"].append("captain")
    s["queue"] += ["debate", "vote"]
    next_step(s, ctx, ev)


def _starve(s: State, ev: Events) -> None:
    """W2 (option ``starvation``): the werewolves "die of hunger and the villagers win".
    They die at dawn (their cards shown), with whoever the witch poisoned and the lovers
    they take along (W7); then the village wins, whatever else a check would say."""
    journal(s, "starved")
    named = s["options"]["announce_causes"]
    dying = wolves(s)
    poison = s["tonight"]["poison"]
    for seat in dying:
        _die(s, ev, seat, "starved" if named else "night")
    if poison is not None and s["alive"][poison]:
        _die(s, ev, poison, "poison" if named else "night")
        dying.append(poison)
    for seat in dying:
        partner = lover_of(s, seat)
        if partner is not None and s["alive"][partner]:
            s["lovers_revealed"] = True
            _die(s, ev, partner, "lover")
    game_over(s, ev, VILLAGE, "starvation")


def kill(s: State, ev: Events, seat: int, cause: str) -> None:
    """A death: the card is shown, then victory is checked at once; a lover takes the other
    (W7), a hunter gets his shot (W6) and a captain names his successor (W12), unless the
    game is already won."""
    if not s["alive"][seat]:
        return
    _die(s, ev, seat, cause)
    _after_death(s, ev, seat)


def _die(s: State, ev: Events, seat: int, cause: str) -> None:
    """The death itself: the player is out and the card is shown (no win decided yet)."""
    s["alive"][seat] = False
    role = s["roles"][seat]
    s["deaths"].append({"seat": seat, "role": role, "cause": cause, "when": when(s)})
    ev.append({"type": "death", "seat": seat, "role": role, "cause": cause})
    narrate(ev, f"died_{cause}", name=s["players"][seat], seat=seat, role=role)
    journal(s, "died", seat=seat, role=role, cause=cause)


def _after_death(s: State, ev: Events, seat: int) -> None:
    """What a death brings, once it has happened: the win checked, the lover taken along,
    the hunter's shot and the successor queued."""
    if check_victory(s, ev):
        return
    partner = lover_of(s, seat)
    if partner is not None and s["alive"][partner]:
        s["lovers_revealed"] = True
        kill(s, ev, partner, "lover")
        if s["phase"] == "over":
            return
    if s["roles"][seat] == HUNTER:
        _add_pending(s, "hunter", seat)
    if s.get("captain") == seat:
        _add_pending(s, "successor", seat)


def _add_pending(s: State, kind: str, seat: int) -> None:
    jobs = [*s["pending"], {"kind": kind, "seat": seat}]
    # Hunters shoot first, then dying captains name a successor (who must be alive).
    s["pending"] = [j for j in jobs if j["kind"] == "hunter"] + [
        j for j in jobs if j["kind"] == "successor"
    ]


def set_captain(s: State, ev: Events, seat: int, how: str) -> None:
    s["captain"] = seat
    ev.append({"type": "captain", "seat": seat, "how": how})
    narrate(ev, f"captain_{how}", name=s["players"][seat], seat=seat)
    journal(s, "captain", seat=seat, how=how)


def _end_captain(s: State, ctx: Context, ev: Events) -> None:
    living = alive(s)
    votes = [v for k, v in s["votes"].items() if s["alive"][int(k)] and v is not None]
    s["captain_elected"] = True
    if not living:
        return
    if votes:
        counts = Counter(votes)
        top = max(counts.values())
        tied = sorted(v for v, c in counts.items() if c == top)
    else:
        tied = living
    if len(tied) == 1:
        set_captain(s, ev, tied[0], "elected")
    else:
        set_captain(s, ev, ctx.rng.choice(tied), "lot")


def tally(s: State) -> dict[int, int]:
    """Day-vote totals; the captain's vote counts double (W8)."""
    out: dict[int, int] = {}
    for voter, target in s["votes"].items():
        v = int(voter)
        if target is None or not s["alive"][v]:
            continue
        out[target] = out.get(target, 0) + (2 if s.get("captain") == v else 1)
    return out


def _end_vote(s: State, ctx: Context, ev: Events) -> None:
    step = s["step"]
    totals = tally(s)
    ev.append(
        {
            "type": "vote_result",
            "round": step["round"],
            "totals": [{"seat": k, "votes": v} for k, v in sorted(totals.items())],
        }
    )
    journal(
        s,
        "vote_result",
        round=step["round"],
        totals=[{"seat": k, "votes": v} for k, v in sorted(totals.items())],
    )
    if not totals:
        narrate(ev, "no_elimination")
        return
    top = max(totals.values())
    tied = sorted(k for k, v in totals.items() if v == top)
    names = s["players"]
    if len(tied) == 1:
        return _eliminate(s, ev, tied[0])
    captain = s.get("captain")
    if captain is not None and s["alive"][captain]:
        choice = s["votes"].get(str(captain))
        if choice in tied:  # W9: the captain's vote decides among the tied
            narrate(ev, "tie_captain", name=names[choice], seat=choice)
            return _eliminate(s, ev, choice)
    if step["round"] == 1:
        s["next_vote_round"] = 2
        s["next_candidates"] = tied if s["options"]["revote"] == "tied" else None
        narrate(ev, "tie_revote", names=[names[t] for t in tied], seats=tied)
        s["queue"].insert(0, "vote")
        return
    if s["options"]["revote_tie"] == "lot":
        chosen = ctx.rng.choice(tied)
        narrate(ev, "tie_lot", name=names[chosen], seat=chosen)
        return _eliminate(s, ev, chosen)
    narrate(ev, "no_elimination")
    journal(s, "no_elimination")


def _eliminate(s: State, ev: Events, seat: int) -> None:
    kill(s, ev, seat, "vote")
