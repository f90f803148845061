"""The API's edge (web/guard.py, web/errors.py): text that is not valid Unicode is refused
in every field of every endpoint and action, before anything is stored; errors keep their
HTTP headers and their JSON where the API documents JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.registry import all_games
from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}
BAD = "x\ud800y"  # a lone UTF-16 surrogate: JSON allows it ("\\ud800"), UTF-8 cannot hold it
NAMES = ["Ana", "Bruno", "Chen", "Davi", "Eva", "Fabio", "Gil", "Hugo", "Ines", "Jo"]


def post(client, path: str, data: Any, headers=None, method: str = "POST"):
    # (json.dumps escapes the surrogate as \ud800: the bytes a phone or a script sends)
    return client.open(path, method=method, data=json.dumps(data),
                       content_type="application/json", headers=headers or {})


def spoiled(value: Any) -> list[Any]:
    """``value`` once for each of its leaves replaced by the broken text, and once for each
    of its objects given a broken key: every field, known to the rules or not."""
    out: list[Any] = []
    if isinstance(value, dict):
        out.append({**value, BAD: 1})
        for k, v in value.items():
            out.extend({**value, k: s} for s in spoiled(v))
    elif isinstance(value, list):
        out.append([*value, BAD])
        for i, v in enumerate(value):
            out.extend([*value[:i], s, *value[i + 1:]] for s in spoiled(v))
    else:
        out.append(BAD)
    return out


def _table(client, gid: str) -> str:
    game = all_games()[gid]
    res = post(client, "/api/tables", {"game": gid, "players": NAMES[:game.min_players],
                                       "pin": "2468"})
    assert res.status_code == 201, res.json
    return res.json["table"]["id"]


def _refused(res) -> None:
    assert res.status_code == 400, (res.status_code, res.get_data(as_text=True)[:300])
    assert res.json["error"]["code"] == "bad_text"
    assert res.json["error"]["message"]


@pytest.mark.parametrize("gid", sorted(all_games()))
def test_every_text_field_of_every_action_refuses_broken_unicode(client, service, gid):
    """A lone surrogate in a Versus pile_top's card killed every phone's stream; in a score
    pad's note it broke export.json for good (even after an undo). Every leaf and key of
    every action the game documents, and the request's own fields, are refused now, and
    the table is as it was."""
    tid = _table(client, gid)
    seat = join(client, tid, 0)
    for spec in all_games()[gid].actions:
        for action in spoiled({**spec.example, "note": "n"}):
            for body in ({"action": action}, {"action": action, "as_seat": 0}):
                _refused(post(client, f"/api/tables/{tid}/actions", body, PIN))
            _refused(post(client, f"/api/tables/{tid}/actions", {"action": action}, seat))
    for body in spoiled({"action": {"type": "end_game"}, "version": 0, "as_seat": 0}):
        _refused(post(client, f"/api/tables/{tid}/actions", body, PIN))
    assert service.get(tid).version == 0 and service.get(tid).log == []
    export = client.get(f"/api/tables/{tid}/export.json")
    assert export.status_code == 200 and json.loads(export.data)["history"] == []


@pytest.mark.parametrize("gid", sorted(all_games()))
def test_creating_a_table_refuses_broken_unicode_in_any_field(client, gid):
    """A table title with a surrogate answered 500; an UNO custom_rule killed its stream and
    export for good. Every option the game has, the title, the names, the PIN."""
    game = all_games()[gid]
    options = {o.name: "text" for o in game.options}
    body = {"game": gid, "players": NAMES[:game.min_players], "pin": "2468",
            "title": "Friday", "options": options}
    for spoilt in spoiled(body):
        _refused(post(client, "/api/tables", spoilt))
    assert client.get("/api/tables").json["tables"] == []


def test_every_other_endpoint_refuses_broken_unicode(client, scorepad):
    """Joining, the host's check, undo, slaps and the camera's routes (refused at the edge,
    before a route could answer "no camera" or "no such table")."""
    tid = scorepad["id"]
    seat = join(client, tid, 0)
    routes = [("POST", f"/api/tables/{tid}/join", {"seat": 1, "pin": "2468"}, {}),
              ("POST", f"/api/tables/{tid}/host", {}, PIN),
              ("POST", f"/api/tables/{tid}/undo", {"version": 0}, PIN),
              ("POST", f"/api/tables/{tid}/slap", {}, seat),
              ("POST", f"/api/tables/{tid}/camera", {"restart": True}, PIN),
              ("POST", f"/api/tables/{tid}/camera/pause", {"on": True}, PIN),
              ("PUT", f"/api/tables/{tid}/zones", {"zones": [
                  {"name": "discard", "rect": [0.1, 0.1, 0.5, 0.5]}]}, PIN),
              ("POST", f"/api/tables/{tid}/zones/markers", {}, PIN),
              ("POST", f"/api/tables/{tid}/camera/taught", {"label": "red-5",
                                                            "confirm": True}, PIN),
              ("POST", "/api/tables/nope/actions", {"action": {"type": "x"}}, PIN)]
    for method, path, body, headers in routes:
        for spoilt in spoiled(body):
            _refused(post(client, path, spoilt, headers, method=method))
    assert client.get(f"/api/tables/{tid}").json["table"]["seats_taken"] == [0]


def test_broken_unicode_is_refused_with_a_translated_message(app, client, scorepad):
    """The phone's language (the message is a catalogue entry: tests/web/test_i18n.py holds
    every entry translated)."""
    from flask_babel import gettext

    from web.guard import BAD_TEXT

    res = post(client, f"/api/tables/{scorepad['id']}/actions",
               {"action": {"type": "add_round", "scores": [1, 2, 3], "note": BAD}},
               {**PIN, "Accept-Language": "pt-BR"})
    _refused(res)
    with app.test_request_context(headers={"Accept-Language": "pt-BR"}):
        assert res.json["error"]["message"] == gettext(BAD_TEXT)


def test_a_405_names_the_methods_allowed(client, scorepad):
    res = client.delete("/api/tables")
    assert res.status_code == 405 and res.json["error"]["code"] == "method_not_allowed"
    assert set(res.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    page = client.post("/")
    assert page.status_code == 405 and "GET" in page.headers["Allow"]


def test_the_marker_sheet_answers_json_errors_as_the_api_documents(client):
    """/camera/markers.png is in the OpenAPI document: its 404 (and its 503, no camera) were
    an HTML page."""
    res = client.get("/camera/markers.png?table=nope")
    assert res.status_code == 404 and res.is_json
    assert res.json["error"]["code"] == "no_table"
    assert client.get("/camera/snapshot.jpg").is_json
    assert not client.get("/camera/nothing").is_json  # (a page's path: a page)


def test_json_is_taken_only_as_application_json(client):
    """A page of any site could create tables here: JSON sent as text/plain is a request a
    browser sends cross-site without asking first."""
    body = json.dumps({"game": "scorepad", "players": ["Ana"], "pin": "2468"})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        res = client.post("/api/tables", data=body, content_type=kind)
        assert res.status_code == 415 and res.json["error"]["code"] == "bad_content_type"
    assert client.get("/api/tables").json["tables"] == []
    assert client.post("/api/tables", data=body,
                       content_type="application/json; charset=utf-8").status_code == 201


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"}, {"Origin": "null"},
    {"Origin": "http://localhost:8001"}, {"Sec-Fetch-Site": "cross-site"}])
def test_a_page_of_another_site_cannot_act_here(client, scorepad, headers):
    tid = scorepad["id"]
    for method, path, body in (("POST", "/api/tables", {"game": "scorepad",
                                                        "players": ["Ana"], "pin": "2468"}),
                               ("POST", f"/api/tables/{tid}/join", {"seat": 0}),
                               ("POST", f"/api/tables/{tid}/undo", {})):
        res = post(client, path, body, {**PIN, **headers}, method=method)
        assert res.status_code == 403 and res.json["error"]["code"] == "cross_origin"
    res = client.post("/lang", data={"lang": "pt_BR"}, headers=headers)
    assert res.status_code == 403 and "Set-Cookie" not in res.headers
    assert len(client.get("/api/tables").json["tables"]) == 1
    assert client.get("/api/tables", headers=headers).status_code == 200  # (reading: fine)


def test_the_companion_s_own_pages_and_clients_without_origin_act(client, scorepad):
    """The phones' pages (same origin), and a script or curl (no Origin at all)."""
    tid = scorepad["id"]
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert post(client, f"/api/tables/{tid}/join", {"seat": 0}, own).status_code == 201
    assert post(client, f"/api/tables/{tid}/join", {"seat": 1}).status_code == 201
    assert post(client, f"/api/tables/{tid}/join", {"seat": 2},
                {"Origin": "http://192.168.1.20:8000"},
                ).status_code == 403  # (the page's origin is not the Host it asked)
    res = client.post(f"/api/tables/{tid}/join", data=json.dumps({"seat": 2}),
                      content_type="application/json",
                      headers={"Origin": "http://192.168.1.20:8000", "Host": "192.168.1.20:8000"})
    assert res.status_code == 201


def test_only_the_companion_s_own_names_are_served(app, client):
    """DNS rebinding: a hostile site's name, rebound to the companion's address, made the
    table list readable by that site's pages. Any IP address is served (the phones open
    the Pi by its LAN address; no attacker's DNS answers for an address), so are localhost,
    the machine's own name and .local name, public_url's host and the configured names."""
    import socket

    name = socket.gethostname().lower()
    for host in ("127.0.0.1:8000", "192.168.1.20:8000", "[::1]:8000", "[fe80::1]", "10.0.0.5",
                 "localhost:8000", f"{name}.local:8000", name, "table.test"):
        assert client.get("/api/tables", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                 "companion.local.evil.example"):
        res = client.get("/api/tables", headers={"Host": host})
        assert res.status_code == 400 and res.json["error"]["code"] == "bad_host", host
        assert client.get("/", headers={"Host": host}).status_code == 400
    app.config["COMPANION"].allowed_hosts = "games.home, other.lan"
    assert client.get("/api/tables", headers={"Host": "games.home:8000"}).status_code == 200
    assert client.get("/api/tables", headers={"Host": "evil.example"}).status_code == 400
    app.config["COMPANION"].allowed_hosts = "*"
    assert client.get("/api/tables", headers={"Host": "evil.example"}).status_code == 200


def test_allowed_hosts_is_a_setting(tmp_path):
    from companion.config import load_config

    cfg = load_config(env={"COMPANION_CONFIG": str(tmp_path / "none.toml"),
                           "COMPANION_ALLOWED_HOSTS": "games.home"})
    assert cfg.allowed_hosts == "games.home"
