"""Live updates by Server-Sent Events: each phone holds one stream per table.

A listener on the table drops every committed update into the stream's queue the moment it
is committed; the stream sends that viewer's own view (never anyone else's secrets) and the
game events addressed to it. Several updates queued together are sent as one view.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, stream_with_context

from companion.table import TableService, Update
from web.api import events_for
from web.auth import identify

bp = Blueprint("stream", __name__, url_prefix="/api")


def _sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@bp.get("/tables/<table_id>/stream")
def stream(table_id: str):
    service: TableService = current_app.extensions["tables"]
    caller = identify(service, table_id)
    seat = caller.seat
    heartbeat = current_app.config["SSE_HEARTBEAT_S"]
    inbox: queue.Queue[Update] = queue.Queue()
    unsubscribe = service.subscribe(table_id, inbox.put)

    def generate() -> Iterator[str]:
        try:
            yield "retry: 1000\n\n"
            yield _sse("state", {"view": service.view(table_id, seat=seat), "events": []})
            while True:
                try:
                    update = inbox.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": ping\n\n"  # finds closed connections, keeps proxies open
                    continue
                updates = [update]
                while True:
                    try:
                        updates.append(inbox.get_nowait())
                    except queue.Empty:
                        break
                events = [e for u in updates for e in events_for(u, seat, False)]
                yield _sse("state", {"view": service.view(table_id, seat=seat),
                                     "events": events})
        finally:
            unsubscribe()

    resp = Response(stream_with_context(generate()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
