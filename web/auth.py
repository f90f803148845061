"""Who is asking: a player's phone (its seat token), the host (the PIN), or a watcher.

Tokens and the PIN travel in headers (``Authorization: Bearer <token>``, ``X-Host-Pin``);
the SSE stream, which browsers open without headers, takes them as ``?token=`` and ``?pin=``
(the host's stream carries the host's view: its version moves with every move, secret ones
too, where a player's moves only with what that player may see).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request

from companion.games.base import N_, Actor
from companion.table import TableError, TableService


@dataclass(frozen=True)
class Caller:
    seat: int | None
    host: bool

    def actor(self, as_seat: int | None = None, source: str = "web") -> Actor:
        if self.host:
            return Actor(seat=as_seat, host=True, source="host" if as_seat is None else source)
        return Actor(seat=self.seat, host=False, source=source)


def token_from_request() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip() or None
    return request.headers.get("X-Player-Token") or request.args.get("token") or None


def identify(service: TableService, table_id: str, need_host: bool = False,
             pin_in_query: bool = False) -> Caller:
    """The caller for this request; raises TableError for a bad token or a wrong PIN.
    ``pin_in_query``: the PIN may come as ``?pin=`` (the live stream)."""
    seat = service.seat_for_token(table_id, token_from_request())
    pin = request.headers.get("X-Host-Pin")
    if pin is None and pin_in_query:
        pin = request.args.get("pin")
    host = False
    if pin is None and need_host:
        raise TableError(403, "host_only", N_("Only the host can do that."))
    if pin is not None:
        service.check_pin(table_id, pin, request.remote_addr)
        host = True
    return Caller(seat, host)
