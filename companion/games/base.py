"""The game interface, in the spirit of boardgame.io.

A game is data plus pure functions:

* ``setup(players, options, rng) -> state``: the starting state. ``state`` is plain JSON
  data (dicts, lists, str, int, float, bool, None) so that it can be copied, compared,
  stored and sent as it is.
* ``apply(state, action, ctx) -> Accepted | Rejection``: a move. It never mutates ``state``;
  it returns a new state and the events the move caused (for the speaker, LEDs, buzzer and
  the phones), or a :class:`Rejection` with a stable code and a reason a player can read.
* ``public_view(state)`` and ``player_view(state, seat)``: what a watcher and what one
  player may see. Private facts (a Werewolf role, a hand) never appear in another's view.
* ``outcome(state)``: None while the game runs, else the result and the scores.

Randomness comes only from ``ctx.rng``, which the table seeds from the table's seed and the
event's position in the log, so replaying the log gives exactly the same state. The time of
an action (``ctx.now``, wall seconds) is likewise stored in the log, never read from a clock.

Nothing here or in any game may import Flask, OpenCV, gpiozero or do I/O: a test enforces it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

State = dict[str, Any]
Action = dict[str, Any]
GameEvent = dict[str, Any]


def N_(message: str) -> str:
    """Mark a message for translation without translating it here (rules stay pure).

    The web layer looks the message up in the phone's language and fills in the params.
    """
    return message


@dataclass(frozen=True)
class Actor:
    """Who submits an action: a seat (a player's phone, a button, the camera for a seat),
    the host (who may act for anyone), or nobody in particular (a watcher). ``source``: "web"
    (a phone), "host", "button" and "camera" (whose times the rules trust), "server" (a
    phone's press the server stamped on arrival)."""

    seat: int | None = None
    host: bool = False
    source: str = "web"

    def can_act_for(self, seat: int) -> bool:
        return self.host or self.seat == seat

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "host": self.host, "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Actor:
        return cls(
            seat=data.get("seat"),
            host=bool(data.get("host")),
            source=str(data.get("source", "web")),
        )


HOST = Actor(host=True, source="host")


@dataclass
class Context:
    """What an action may use besides the state: who acts, a seeded RNG, the logged time."""

    actor: Actor
    rng: random.Random
    now: float = 0.0
    seq: int = 0


class Label(str):
    """A param of a message that is itself an ``N_`` text: an option's text as the form on
    /new shows it. It is translated with the message, and quoted in it without its closing
    full stop ("“End after this many rounds (none: no limit)”: enter a whole number...").
    As data (JSON, logs) it is the English text."""

    __slots__ = ()

    def shown(self, translate=lambda s: s) -> str:
        text = translate(str(self)).strip()
        return text[:-1] if text.endswith((".", "。")) else text


@dataclass(frozen=True)
class Rejection:
    """A move the rules refuse. ``message`` is an English template marked with ``N_`` whose
    ``{name}`` fields are filled from ``params`` after translation (a :class:`Label` param
    is translated too)."""

    code: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, translate=lambda s: s) -> str:
        def filled(tr) -> dict[str, Any]:
            return {k: v.shown(tr) if isinstance(v, Label) else v for k, v in self.params.items()}

        try:
            return translate(self.message).format(**filled(translate))
        except (KeyError, IndexError, ValueError):
            return self.message.format(**filled(lambda s: s))


@dataclass(frozen=True)
class Accepted:
    state: State
    events: list[GameEvent] = field(default_factory=list)


Result = Accepted | Rejection


@dataclass(frozen=True)
class Option:
    """One table option with its default: every [DEFAULT] of a rules sheet becomes one."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    kind: type | tuple[type, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    # for people, one per choice (N_-marked: the form on /new shows them in the phone's
    # language, where the values themselves, "own_hand" or "before_night1", are ids)
    labels: tuple[str, ...] | None = None
    # a seat number (0 for the first player): the form on /new offers the players' names,
    # where a number counted from 0 read as "the second player" to everyone
    seat: bool = False


@dataclass(frozen=True)
class ActionSpec:
    """An action a game accepts, for the OpenAPI document: its fields and an example."""

    type: str
    summary: str
    example: Action
    fields: dict[str, str] = field(default_factory=dict)
    host_only: bool = False


class Game(Protocol):
    """What every game module offers (see the module docstring)."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    actions: ClassVar[tuple[ActionSpec, ...]]

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> State: ...

    def apply(self, state: State, action: Action, ctx: Context) -> Result: ...

    def public_view(self, state: State) -> dict[str, Any]: ...

    def player_view(self, state: State, seat: int) -> dict[str, Any]: ...

    def outcome(self, state: State) -> dict[str, Any] | None: ...


class OptionError(ValueError):
    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.render())
        self.rejection = rejection


MAX_OPTION_TEXT = 200  # a house rule's text (UNO's custom wild) and the like


def _number(x: float | None) -> float | int | None:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def _wanted(opt: Option) -> Rejection:
    """The refusal of a bad value for ``opt``: named as the form shows the option (its help
    text, in the phone's language; "Option target has the wrong type." named it by its id)
    and saying what it takes: "a whole number from 1 to 20"."""
    kinds = opt.kind if isinstance(opt.kind, tuple) else (opt.kind,)
    params: dict[str, Any] = {"option": Label(opt.help)}
    if opt.choices is not None:
        params["choices"] = ", ".join(map(str, opt.choices))
        return Rejection("bad_option", N_("“{option}”: choose one of {choices}."), params)
    if bool in kinds:
        return Rejection("bad_option", N_("“{option}”: answer yes or no (true or false)."), params)
    if str in kinds:
        return Rejection("bad_option", N_("“{option}”: enter a text."), params)
    if int in kinds or float in kinds:
        whole = float not in kinds
        low, high = _number(opt.minimum), _number(opt.maximum)
        params |= {"low": low, "high": high}
        if low is not None and high is not None:
            message = (N_("“{option}”: enter a whole number from {low} to {high}.") if whole
                       else N_("“{option}”: enter a number from {low} to {high}."))
        elif low is not None:
            message = (N_("“{option}”: enter a whole number of at least {low}.") if whole
                       else N_("“{option}”: enter a number of at least {low}."))
        elif high is not None:
            message = (N_("“{option}”: enter a whole number of at most {high}.") if whole
                       else N_("“{option}”: enter a number of at most {high}."))
        else:
            message = (N_("“{option}”: enter a whole number.") if whole
                       else N_("“{option}”: enter a number."))
        return Rejection("bad_option", message, params)
    return Rejection("bad_option", N_("“{option}” has the wrong type."), params)


def resolve_options(specs: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and check the given options; OptionError with a Rejection if bad.

    A refusal names the option as the form on /new shows it and says what it takes (the
    code stays ``bad_option``; an unknown name is ``unknown_option``)."""
    given = dict(given or {})
    known = {o.name: o for o in specs}
    for name in given:
        if name not in known:
            raise OptionError(
                Rejection("unknown_option", N_("Unknown option: {name}."), {"name": str(name)[:40]})
            )
    out: dict[str, Any] = {}
    for opt in specs:
        value = given.get(opt.name, opt.default)
        if opt.choices is not None and value not in opt.choices:
            raise OptionError(_wanted(opt))
        if value is None and opt.default is not None:
            # (a null option stored a table whose setup failed, and listing tables with it)
            raise OptionError(_wanted(opt))
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            raise OptionError(
                Rejection(
                    "bad_option",
                    N_("“{option}”: at most {n} characters."),
                    {"option": Label(opt.help), "n": MAX_OPTION_TEXT},
                )
            )
        if opt.kind is not None and value is not None:
            kinds = opt.kind if isinstance(opt.kind, tuple) else (opt.kind,)
            # bool is an int to Python, but True is no tie window and no score target
            is_bool_by_mistake = isinstance(value, bool) and bool not in kinds
            if is_bool_by_mistake or not isinstance(value, kinds):
                raise OptionError(_wanted(opt))
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        if numeric and (
            not math.isfinite(value)  # (NaN passes every comparison)
            or (opt.minimum is not None and value < opt.minimum)
            or (opt.maximum is not None and value > opt.maximum)
        ):
            raise OptionError(_wanted(opt))
        out[opt.name] = value
    return out


def reject(code: str, message: str, **params: Any) -> Rejection:
    """Shorthand used by the games: ``return reject("not_your_turn", N_("..."), seat=2)``."""
    return Rejection(code, message, params)


def action_type(state: State, action: Any, ctx: Context, known: Any,
                host_only: frozenset[str] = frozenset(),
                after_the_end: frozenset[str] = frozenset(),
                over: str = N_("The match is over.")) -> str | Rejection:
    """The checks every game's ``apply`` makes before its handler: an action is an object
    with a known ``type``, a host's action comes from the host, and once the game has ended
    (``state["ended"]``) only ``after_the_end`` actions are heard. The type, or the refusal."""
    if not isinstance(action, dict):
        return reject("bad_action", N_("An action needs a type."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in known:
        return reject("unknown_action", N_("Unknown action: {action}."), action=str(kind)[:40])
    if kind in host_only and not ctx.actor.host:
        return reject("host_only", N_("Only the host can do that."))
    if state.get("ended") and kind not in after_the_end:
        return reject("game_over", over)
    return kind
