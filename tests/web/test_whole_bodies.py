"""An answer whose body is whole (a page, a JSON answer) is read on the worker thread that
made it, in the same turn (web/asgi.py, ``WHOLE_BODY_KEY``): each chunk of a body was a turn
of the pool and of the loop, four for a JSON answer, and under 200 phones' streams an
action's answer took 75 ms, 1.2 ms of it the app's. A body that streams (the camera's
preview, endless) is still sent as it comes. And every viewer of one version shares its
public view and its patch, made once (a table's 20 watchers made them 20 times)."""

from __future__ import annotations

import asyncio
import threading

from tests.conftest import join
from web.asgi import CompanionASGI
from web.live import WHOLE_BODY_KEY
from web.stream import SharedDiffs, diff, patch

SCOPE = {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": b"",
         "headers": [], "server": ("table.test", 80), "client": ("127.0.0.1", 5000),
         "scheme": "http", "http_version": "1.1", "root_path": ""}


def serve_once(wsgi) -> list[dict]:
    """What the server sends for one request to the WSGI app ``wsgi``."""
    sent: list[dict] = []

    async def main() -> None:
        app = CompanionASGI(wsgi, threads=2, stream_threads=1)
        asked = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict:
            if asked:
                return asked.pop()
            await asyncio.Event().wait()  # (the phone stays)

        async def send(message: dict) -> None:
            sent.append(message)

        try:
            await app(dict(SCOPE), receive, send)
        finally:
            app.close()

    run_apart(main)
    return sent


def run_apart(main) -> None:
    """Run the coroutine function ``main`` to its end on a loop in a thread of its own
    (after the browser tests, Playwright's loop runs in this one); what it raised is raised
    here."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # (told to the test's thread)
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and not failed, failed


class Body:
    """A body in three chunks that says whether it was closed."""

    def __init__(self) -> None:
        self.closed = False

    def __iter__(self):
        yield from (b"a", b"b", b"c")

    def close(self) -> None:
        self.closed = True


def app_with(body: Body, whole: bool):
    def wsgi(environ, start_response):
        if whole:
            environ[WHOLE_BODY_KEY] = True
        start_response("200 OK", [("Content-Type", "text/plain")])
        return body
    return wsgi


def test_a_whole_body_goes_in_one_message_and_is_closed():
    body = Body()
    sent = serve_once(app_with(body, whole=True))
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[1]["body"] == b"abc" and sent[1]["more_body"] is False
    assert body.closed


def test_a_body_not_marked_whole_is_still_sent_as_it_comes():
    body = Body()
    sent = serve_once(app_with(body, whole=False))
    assert [m.get("body") for m in sent[1:]] == [b"a", b"b", b"c", b""]
    assert body.closed


def test_the_app_marks_its_answers_whole_but_the_camera_preview(service):
    from flask import Response

    from companion.config import Config
    from web import create_app

    app = create_app(service, Config(public_url="http://table.test"), {"TESTING": True})
    client = app.test_client()
    tid = service.create_table("scorepad", ["Ana", "Bruno"], "2468").record.id
    seen: list[dict] = []
    inner = app.wsgi_app

    def wsgi(environ, start_response):  # (the environ the server reads after the app)
        seen.append(environ)
        return inner(environ, start_response)

    app.wsgi_app = wsgi

    @app.get("/endless")
    def endless():  # (as the camera's preview: its parts come as the camera makes them)
        return Response(iter([b"part"]), mimetype="multipart/x-mixed-replace; boundary=f")

    assert client.get(f"/api/tables/{tid}").status_code == 200
    assert client.get("/").status_code == 200
    assert client.get("/api/tables/nope").status_code == 404  # (an error's answer too)
    client.get("/endless")
    assert [e.get(WHOLE_BODY_KEY) for e in seen] == [True, True, True, None]


def test_every_viewer_of_a_version_shares_its_public_view_made_once(client, scorepad,
                                                                    service, monkeypatch):
    tid = scorepad["id"]
    game = service.get(tid).game
    made = []
    real = game.public_view
    monkeypatch.setattr(game, "public_view", lambda state: made.append(1) or real(state))
    views = [service.view(tid) for _ in range(20)]
    assert len(made) == 1 and all(v["public"] is views[0]["public"] for v in views)
    assert service.view(tid, seat=1)["public"] is views[0]["public"]
    res = client.post(f"/api/tables/{tid}/actions", headers=join(client, tid, 0),
                      json={"action": {"type": "add_round", "scores": [3, 2, 1]}})
    assert res.status_code == 200
    after = service.view(tid)
    assert after["public"]["rounds"] == [[3, 2, 1]] and after["public"] is not views[0]["public"]
    undo = client.post(f"/api/tables/{tid}/undo", headers={"X-Host-Pin": "2468"}, json={})
    assert undo.status_code == 200, undo.json
    assert service.view(tid)["public"]["rounds"] == []  # (a new version: made again)


def test_a_shared_public_part_s_patch_is_made_once_and_is_the_same_patch():
    shared = SharedDiffs()
    old_public = {"rounds": [[1, 2]], "totals": [1, 2]}
    new_public = {"rounds": [[1, 2], [3, 4]], "totals": [4, 6]}
    phones = [({"version": 1, "you": {"seat": s}, "public": old_public},
               {"version": 2, "you": {"seat": s, "new": True}, "public": new_public})
              for s in range(3)]
    patches = [shared.view_diff(old, new) for old, new in phones]
    for (old, new), p in zip(phones, patches, strict=True):
        assert patch(old, p) == new and p == diff(old, new)
    publics = [p["~"]["public"] for p in patches]
    assert publics[1] is publics[0] and publics[2] is publics[0]
    # a view whose public part did not change: nothing of it in the patch
    same = shared.view_diff({"version": 2, "public": new_public},
                            {"version": 3, "public": new_public})
    assert same == {"~": {"version": {"=": 3}}}


def test_a_refusal_on_a_stream_is_told_in_the_phones_language(app, service, scorepad):
    """A stream's steps run outside any request (a context made for each was a third of a
    step's time); the one thing that needs the phone's request, a refusal the table
    announces (a card the camera saw that the rules refuse), is told in its language."""
    tid = scorepad["id"]
    refused = {"type": "refused", "code": "bad_scores",
               "message": "Give exactly one score for each of the {n} players.",
               "params": {"n": 3}}
    said: list[bytes] = []

    async def main() -> None:
        server = CompanionASGI(app, threads=2, stream_threads=1)
        two = asyncio.Event()
        asked = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict:
            if asked:
                return asked.pop()
            await two.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            if b"event: " in message.get("body", b""):
                said.append(message["body"])
                if len(said) == 1:
                    service.announce(tid, [refused])
                else:
                    two.set()

        path = f"/api/tables/{tid}/stream"
        scope = {**SCOPE, "path": path, "raw_path": path.encode(),
                 "headers": [(b"host", b"table.test"), (b"accept-language", b"zh-CN")]}
        try:
            await server(scope, receive, send)
        finally:
            server.close()

    run_apart(main)
    assert "请为 3 位玩家每人填写一个分数。" in said[1].decode(), said
