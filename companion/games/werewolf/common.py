"""Shared checks and rejections. A night action refused for any reason that could tell the
sender something about the roles (not your step, not your role, dead, wrong mode) always
gets the very same ``not_now`` answer."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Rejection, reject

NOT_NOW = Rejection("not_now", N_("That can't be done now."), {})
HOST_ONLY = Rejection("host_only", N_("Only the host can do that."), {})


def bad_seat(field: str) -> Rejection:
    return reject(
        "bad_target", N_("Choose a player who is still in the game ({field})."), field=field
    )


def seat_value(s: dict[str, Any], value: Any, *, living: bool = True) -> int | None:
    """The seat ``value`` names, or None if it is not a seat (of a living player)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if not 0 <= value < len(s["players"]):
        return None
    if living and not s["alive"][value]:
        return None
    return value


def optional_seat(s: dict[str, Any], action: dict[str, Any], field: str) -> tuple[bool, Any]:
    """(ok, seat or None) for a field that may be null (missing counts as null)."""
    value = action.get(field)
    if value is None:
        return True, None
    seat = seat_value(s, value)
    return (seat is not None), seat
