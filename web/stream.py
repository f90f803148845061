"""Live updates by Server-Sent Events: each phone holds one stream per table.

A listener on the table drops every committed update into the stream's queue the moment it
is committed; the stream sends that viewer's own view (never anyone else's secrets) and the
game events addressed to it, and nothing where neither changed: a secret move (a Werewolf
night's) reaches no other phone, not even as a message. Several updates queued together are
sent as one view. The host's stream carries the host's view. A browser opens its stream
with a single-use ticket (``?ticket=``, from ``POST .../stream-ticket``: web/auth.py), so no
pass nor PIN is ever in an address; other clients may send the usual headers.

The phone's pass is checked again before every view: when the host moves the seat to another
phone (a phone lost or swapped), a stream the old phone still holds stops getting the seat's
secrets at once. It goes on as a watcher's, told ``seat_revoked``.

A stream holds no thread while it waits (web/live.py): served by ``companion serve``
(web/asgi.py) its waits are the event loop's, and a phone's closed connection ends it at
once (its subscription released); only the step that reads the view runs on a thread.

A server shutting down ends every stream at once (:func:`end_streams`), so that it has no
connection left to wait for. The phones reconnect after ``retry`` and get the whole view
again; nothing acknowledged is lost (every action is in the SQLite log before its answer).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.games.base import Rejection
from companion.table import TableError, TableService, Update
from web.api import events_for, join_url
from web.auth import TICKET_S, Caller, Tickets, identify, token_from_request
from web.i18n import translate_rejection
from web.live import Inbox, LiveStream, Wait

bp = Blueprint("stream", __name__, url_prefix="/api")

_END = object()  # put in a stream's inbox: the server is stopping, end the stream


class Streams:
    """The streams open now, so that a server stopping can end them (``app.extensions
    ["streams"]``, made by ``web.create_app``)."""

    def __init__(self) -> None:
        # re-entrant: ``end`` runs in a signal handler, and a second signal (Ctrl-C pressed
        # twice) runs it again in the same thread while the first still holds the lock
        self._lock = threading.RLock()
        self._inboxes: set[Inbox | queue.Queue] = set()
        self.ended = threading.Event()

    def add(self, inbox: Inbox | queue.Queue) -> None:
        with self._lock:
            self._inboxes.add(inbox)
        if self.ended.is_set():  # (opened as the server was stopping)
            inbox.put(_END)

    def discard(self, inbox: Inbox | queue.Queue) -> None:
        with self._lock:
            self._inboxes.discard(inbox)

    def end(self) -> None:
        """End every stream now, and any opened from now on (their generators return at
        once, whatever they were waiting for)."""
        self.ended.set()
        with self._lock:
            inboxes = list(self._inboxes)
        for inbox in inboxes:
            inbox.put(_END)


def end_streams(app) -> None:
    """The server is stopping: end the app's open streams (``companion serve`` on SIGTERM
    and Ctrl-C), so that the server has no connection of theirs to wait for."""
    streams = app.extensions.get("streams")
    if streams is not None:
        streams.end()


def _in_words(event: dict) -> bool:
    """Whether an event is told in the phone's language (by :func:`localise`)."""
    return event.get("type") == "refused" and isinstance(event.get("message"), str)


def localise(event: dict) -> dict:
    """A refusal announced to the table (a card the camera saw that the rules refuse) is
    told in this phone's language."""
    if _in_words(event):
        rejection = Rejection(str(event.get("code")), event["message"],
                              event.get("params") or {})
        return {**event, "message": translate_rejection(rejection)}
    return event


def diff(old: Any, new: Any) -> dict[str, Any] | None:
    """A patch that turns ``old`` into ``new`` (None where they are equal), so that a stream
    sends what changed, not the whole view again: a score pad's view holds every round (and
    its running totals, twice with the player's own view), 60 kB a message at 580 rounds.

    A patch is one object: ``{"=": value}`` (replaced whole); for an object
    ``{"~": {key: patch}, "-": [keys gone]}``; for a list ``{"+": [items appended]}``,
    ``{"len": n}`` (cut to its first n) or ``{"@": {"index": patch}}`` (items changed in
    place, the length kept). ``app.js`` (``TC.patch``) and :func:`patch` apply it."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {}
        for key, value in new.items():
            p = diff(old[key], value) if key in old else {"=": value}
            if p is not None:
                changed[key] = p
        gone = [key for key in old if key not in new]
        return {**({"~": changed} if changed else {}), **({"-": gone} if gone else {})}
    if isinstance(old, list) and isinstance(new, list):
        n = min(len(old), len(new))
        if old[:n] == new[:n]:
            return {"+": new[n:]} if len(new) > n else {"len": n}
        if len(old) == len(new):
            return {"@": {str(i): diff(a, b)
                          for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}}
    return {"=": new}


class SharedDiffs:
    """The patches of the views' shared parts, each made once: the public view of a version
    is one object for every viewer (``TableService.view``), so its patch from the one
    before is the same for a table's every phone (20 watchers made it 20 times). Held by
    the objects themselves (their ids are not reused while held); the latest few kept."""

    KEPT = 32

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[tuple[int, int], tuple[Any, Any, Any]] = {}

    def diff(self, old: Any, new: Any) -> dict[str, Any] | None:
        key = (id(old), id(new))
        with self._lock:
            known = self._made.get(key)
        if known is not None and known[0] is old and known[1] is new:
            return known[2]
        made = diff(old, new)
        with self._lock:
            self._made[key] = (old, new, made)
            while len(self._made) > self.KEPT:
                del self._made[next(iter(self._made))]
        return made

    def view_diff(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
        """:func:`diff` of two views, their ``public`` part through this memory."""
        if "public" not in old or "public" not in new:
            return diff(old, new)
        rest = diff({k: v for k, v in old.items() if k != "public"},
                    {k: v for k, v in new.items() if k != "public"})
        public = None if old["public"] is new["public"] else self.diff(old["public"],
                                                                        new["public"])
        if public is None:
            return rest
        rest = rest or {}
        return {**rest, "~": {**rest.get("~", {}), "public": public}}


def patch(old: Any, p: dict[str, Any]) -> Any:
    """``old`` with the patch ``p`` (:func:`diff`'s) applied; ``old`` is left as it was."""
    if "=" in p:
        return p["="]
    if "+" in p:
        return [*old, *p["+"]]
    if "len" in p:
        return old[:p["len"]]
    if "@" in p:
        out = list(old)
        for i, q in p["@"].items():
            out[int(i)] = patch(out[int(i)], q)
        return out
    out = dict(old)
    for key, q in p.get("~", {}).items():
        out[key] = patch(out.get(key), q)
    for key in p.get("-", []):
        out.pop(key, None)
    return out


def _sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def tickets() -> Tickets:
    return current_app.extensions.setdefault("stream_tickets", Tickets())


@bp.post("/tables/<table_id>/stream-ticket")
def stream_ticket(table_id: str):
    """A ticket for one stream of this caller's (its seat's token, the host's PIN, in the
    headers): a browser's EventSource sends no headers, and a pass or a PIN in the stream's
    address was kept in logs and the history."""
    service: TableService = current_app.extensions["tables"]
    caller = identify(service, table_id)
    ticket = tickets().issue(table_id, token_from_request() if caller.seat is not None
                             else None, caller.host)
    return jsonify({"ticket": ticket, "expires_s": TICKET_S}), 201


@bp.get("/tables/<table_id>/stream")
def stream(table_id: str):
    service: TableService = current_app.extensions["tables"]
    ticket = request.args.get("ticket")
    if ticket is not None:
        held = tickets().take(table_id, ticket)
        token = held.token
        caller = Caller(service.seat_for_token(table_id, token), held.host)
    else:
        caller = identify(service, table_id)
        token = token_from_request()
    seat, host = caller.seat, caller.host
    # (``?diff=1``: after the first whole view, each message is a ``patch`` of the last one
    # sent, ``diff``'s: the phones' pages ask for it; other clients get whole views)
    patches = request.args.get("diff") == "1"

    def still(seat: int | None) -> int | None:
        """The seat, while this phone's pass still holds it (None once it was moved). A host
        who plays is that seat with the PIN alone, as ``identify`` has it: their stream
        carried that seat's view but none of its events (a Werewolf host's own card)."""
        if host and (mine := service.host_seat(table_id)) is not None:
            return mine
        if seat is None:
            return None
        try:
            return seat if service.seat_for_token(table_id, token) == seat else None
        except TableError:
            return None

    heartbeat = current_app.config["SSE_HEARTBEAT_S"]
    # (the pings' clock: tests give their own)
    monotonic = current_app.config.get("SSE_CLOCK") or time.monotonic
    live = service.get(table_id)
    streams: Streams = current_app.extensions["streams"]
    shared: SharedDiffs = current_app.extensions.setdefault("shared_diffs", SharedDiffs())
    inbox = Inbox()
    unsubscribe = service.subscribe(table_id, inbox.put)
    link = join_url(service.get(table_id).record.code)

    def view(seat: int | None) -> dict:
        """The viewer's view, with the link to join (as ``GET /tables/<id>`` gives it: the
        phone shows it under the QR code, and a view without it had blanked it)."""
        return {**service.view(table_id, seat=seat, host=host), "join_url": link}

    app, environ = current_app._get_current_object(), dict(request.environ)

    def generate() -> Iterator[str]:
        me = still(seat)
        streams.add(inbox)
        try:
            yield "retry: 1000\n\n"
            # (the narration card's line, said before this phone opened the table or came
            # back: marked ``again``, so a host's narrator log does not list it twice)
            last = service.get(table_id).last_line
            shown = view(me)
            # The pings keep one beat, whatever comes between: a beat started again after
            # each update told, by the next ping's time, when a move this phone may not see
            # was made (a Werewolf night's wolf vote: the ping came 15 s after it).
            beat = monotonic() + heartbeat
            # (``now``: the server's wall clock as it speaks, which a step's deadline is
            # on: a phone counts down with it, not with its own clock, which an offline Pi's
            # need not match)
            yield _sse("state", {"view": shown,
                                 "events": [] if last is None else [{**last, "again": True}],
                                 "now": service.clock.wall()})
            while True:
                if not inbox.ready():  # (the loop's wait, or this thread's: web/live.py)
                    yield Wait(max(0.0, beat - monotonic()))
                try:
                    update: Update = inbox.get_nowait()
                except queue.Empty:
                    yield ": ping\n\n"  # finds closed connections, keeps proxies open
                    beat = max(beat + heartbeat, monotonic())
                    continue
                # Under the table's lock, under which every update is put in the inbox: the
                # updates taken and the view read are of one moment. (A move between them put
                # its state in the view without its events, and a message with no events
                # told that a secret move had come just before the next step.)
                with live.lock:
                    updates = [update]
                    while True:
                        try:
                            updates.append(inbox.get_nowait())
                        except queue.Empty:
                            break
                    if any(u is _END for u in updates):
                        return  # (the server is stopping: the phone reconnects after retry)
                    revoked = me is not None and still(me) is None
                    if revoked:
                        me = None
                    events = [e for u in updates for e in events_for(u, me, False)]
                    if any(_in_words(e) for e in events):
                        # (in this phone's language: the one step that needs the request)
                        with app.request_context(environ):
                            events = [localise(e) for e in events]
                    if revoked:
                        events.append({"type": "seat_revoked"})
                    now = view(me)
                if not events and now == shown:
                    # (a move this phone may not see: a message would tell it one was made)
                    continue
                if patches:
                    yield _sse("patch", {"patch": shared.view_diff(shown, now) or {},
                                         "events": events, "now": service.clock.wall()})
                else:
                    yield _sse("state", {"view": now, "events": events,
                                         "now": service.clock.wall()})
                shown = now
        finally:
            streams.discard(inbox)
            unsubscribe()

    # (a step runs outside any request: a context made and pushed for each one was a third
    # of its time, 200 phones' steps after every table's move. The refusals it tells are
    # translated in one made from this request's, for the phone's language.)
    live_stream = LiveStream(generate(), inbox)
    request.environ[LiveStream.ENVIRON_KEY] = live_stream
    resp = Response(live_stream, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
