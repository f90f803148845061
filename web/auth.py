"""Who is asking: a player's phone (its seat token), the host (the PIN), or a watcher.

Tokens and the PIN travel in headers only (``Authorization: Bearer <token>``,
``X-Host-Pin``), never in an address: addresses land in logs and the browser's history. The
SSE stream, which a browser opens without headers, takes a ticket instead
(``POST /api/tables/<id>/stream-ticket`` with the headers, then ``?ticket=``): it opens one
stream, once, within ``TICKET_S`` (the host's stream carries the host's view: its version
moves with every move, secret ones too, where a player's moves only with what that player
may see).
"""

from __future__ import annotations

import secrets
import threading
import time
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
    return request.headers.get("X-Player-Token") or None


TICKET_S = 60.0


@dataclass(frozen=True)
class Ticket:
    table_id: str
    token: str | None  # the seat's pass, checked again by the stream as it runs
    host: bool
    expires: float


class Tickets:
    """Single-use passes for one stream each (``app.extensions["stream_tickets"]``): a
    ticket in an address that a log or the history keeps opens nothing once used or past
    ``TICKET_S``."""

    def __init__(self, clock=time.monotonic) -> None:
        self._lock = threading.Lock()
        self._tickets: dict[str, Ticket] = {}
        self.clock = clock

    def issue(self, table_id: str, token: str | None, host: bool) -> str:
        now = self.clock()
        ticket = secrets.token_urlsafe(18)
        with self._lock:
            self._tickets = {k: t for k, t in self._tickets.items() if t.expires > now}
            self._tickets[ticket] = Ticket(table_id, token, host, now + TICKET_S)
        return ticket

    def take(self, table_id: str, ticket: str) -> Ticket:
        with self._lock:
            held = self._tickets.pop(ticket, None)
        if held is None or held.table_id != table_id or held.expires <= self.clock():
            raise TableError(401, "bad_ticket", N_("This phone's pass for the live updates "
                                                   "has expired: reload the page."))
        return held


def identify(service: TableService, table_id: str, need_host: bool = False) -> Caller:
    """The caller for this request; raises TableError for a bad token or a wrong PIN."""
    seat = service.seat_for_token(table_id, token_from_request())
    pin = request.headers.get("X-Host-Pin")
    host = False
    if pin is None and need_host:
        raise TableError(403, "host_only", N_("Only the host can do that."))
    if pin is not None:
        service.check_pin(table_id, pin, request.remote_addr)
        host = True
        # a host who plays (the game knows the host's seat) is that seat, whatever pass
        # the phone sends or none (the PIN alone read the moderator view: every card)
        seat = service.host_seat(table_id) if service.host_seat(table_id) is not None else seat
    return Caller(seat, host)
