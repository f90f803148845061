"""The JSON API with Flask's test client: the happy path and every error path."""

from __future__ import annotations

import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import join

PIN = {"X-Host-Pin": "2468"}


def act(client, tid, action, headers, **extra):
    return client.post(f"/api/tables/{tid}/actions", json={"action": action, **extra},
                       headers=headers)


def test_create_join_act_and_read_views(client, scorepad):
    tid = scorepad["id"]
    assert scorepad["players"] == ["Ana", "Bruno", "Chen"] and len(scorepad["code"]) == 4
    bruno = _dealt_seat(client, tid, 1)
    res = act(client, tid, {"type": "add_round", "scores": [5, 0, -2]}, bruno, version=0)
    assert res.status_code == 200 and res.json["version"] == 1
    view = client.get(f"/api/tables/{tid}", headers=bruno).json
    assert view["public"]["totals"] == [5, 0, -2]
    assert view["you"] == {"seat": 1, "name": "Bruno", "view": view["public"]}
    assert "host" not in view
    assert view["join_url"] == f"http://table.test/join/{scorepad['code']}"
    watcher = client.get(f"/api/tables/{tid}").json
    assert "you" not in watcher and watcher["public"]["totals"] == [5, 0, -2]
    assert client.get(f"/api/tables/by-code/{scorepad['code'].lower()}").json["table"]["id"] == tid
    assert [t["id"] for t in client.get("/api/tables").json["tables"]] == [tid]


def test_the_host_acts_for_any_seat_undoes_and_reads_the_history(client, scorepad):
    tid = scorepad["id"]
    assert act(client, tid, {"type": "add_round", "scores": [1, 1, 1]}, PIN,
               as_seat=2).status_code == 200
    hist = client.get(f"/api/tables/{tid}/history").json["history"]
    assert hist[0]["actor"] == {"seat": 2, "host": True, "source": "web"}
    assert client.post(f"/api/tables/{tid}/undo", json={"version": 1}, headers=PIN).json[
        "version"] == 2
    assert client.get(f"/api/tables/{tid}").json["public"]["rounds"] == []


@pytest.mark.parametrize(("body", "code"), [
    (b"{not json", "bad_json"), (b"[1, 2]", "bad_json"), (b"\xff\xfe", "bad_json"),
    (b'"text"', "bad_json")])
def test_malformed_bodies_get_a_clear_400(client, scorepad, body, code):
    res = client.post(f"/api/tables/{scorepad['id']}/actions", data=body,
                      content_type="application/json")
    assert res.status_code == 400 and res.json["error"]["code"] == code
    assert res.json["error"]["message"]


def test_an_oversized_body_is_refused_with_413(client, scorepad):
    big = json.dumps({"action": {"type": "add_round", "scores": [1] * 100_000}})
    res = client.post(f"/api/tables/{scorepad['id']}/actions", data=big,
                      content_type="application/json")
    assert res.status_code == 413 and res.json["error"]["code"] == "too_large"


def test_unknown_table_route_and_method(client):
    assert client.get("/api/tables/nope").json["error"]["code"] == "no_table"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/api/nothing-here").json["error"]["code"] == "not_found"
    assert client.delete("/api/tables").status_code == 405
    assert client.get("/api/tables/by-code/ZZZZ").status_code == 404
    assert client.get("/t/nope").status_code == 404  # a page: HTML, still a clear message
    assert b"There is no such table" in client.get("/t/nope").data


def test_a_wrong_token_is_401_and_a_watcher_cannot_act(client, scorepad):
    tid = scorepad["id"]
    res = act(client, tid, {"type": "add_round", "scores": [1, 1, 1]},
              {"Authorization": "Bearer forged"})
    assert res.status_code == 401 and res.json["error"]["code"] == "bad_token"
    res = act(client, tid, {"type": "add_round", "scores": [1, 1, 1]}, {})
    assert res.status_code == 401 and res.json["error"]["code"] == "not_joined"


def test_a_player_cannot_act_for_another_seat_or_undo(client, scorepad):
    tid = scorepad["id"]
    ana = join(client, tid, 0)
    res = act(client, tid, {"type": "add_round", "scores": [1, 1, 1]}, ana, as_seat=1)
    assert res.status_code == 403 and res.json["error"]["code"] == "host_only"
    res = client.post(f"/api/tables/{tid}/undo", json={}, headers=ana)
    assert res.status_code == 403
    res = client.post(f"/api/tables/{tid}/undo", json={}, headers={"X-Host-Pin": "1111"})
    assert res.status_code == 403 and res.json["error"]["code"] == "bad_pin_given"


def test_a_stale_version_gets_409_and_the_state_is_unchanged(client, scorepad):
    tid = scorepad["id"]
    ana = join(client, tid, 0)
    act(client, tid, {"type": "add_round", "scores": [1, 1, 1]}, ana, version=0)
    res = act(client, tid, {"type": "add_round", "scores": [9, 9, 9]}, ana, version=0)
    assert res.status_code == 409 and res.json["error"]["code"] == "stale_version"
    assert client.get(f"/api/tables/{tid}").json["public"]["totals"] == [1, 1, 1]
    res = act(client, tid, {"type": "add_round", "scores": [9, 9, 9]}, ana, version="1")
    assert res.status_code == 400


def test_rules_rejections_are_422_and_translated(client, scorepad):
    tid = scorepad["id"]
    ana = join(client, tid, 0)
    res = client.post(f"/api/tables/{tid}/actions", json={
        "action": {"type": "add_round", "scores": [1]}}, headers={**ana,
                                                                  "Accept-Language": "pt-BR"})
    assert res.status_code == 422
    assert res.json["error"] == {"code": "bad_scores",
                                 "message": "Informe exatamente uma pontuação para cada um "
                                            "dos 3 jogadores."}
    res = client.post(f"/api/tables/{tid}/actions", json={
        "action": {"type": "add_round", "scores": [1]}}, headers={**ana,
                                                                  "Accept-Language": "zh-CN"})
    assert res.json["error"]["message"] == "请为 3 位玩家每人填写一个分数。"


def test_create_table_errors(client):
    cases = [({"players": ["A"], "pin": "12"}, "bad_pin"),
             ({"players": [], "pin": "1234"}, "player_count"),
             ({"game": "chess", "players": ["A"], "pin": "1234"}, "unknown_game"),
             ({"players": ["A"], "pin": "1234", "options": {"winner": "x"}}, "bad_option"),
             ({"players": ["A"], "pin": "1234", "options": [1]}, "bad_options"),
             ({"players": ["A"], "pin": "1234", "title": "x" * 61}, "bad_title")]
    for body, code in cases:
        res = client.post("/api/tables", json=body)
        assert res.status_code in (400, 404), body
        assert res.json["error"]["code"] == code, body


def test_exports_csv_and_json(client, scorepad):
    tid = scorepad["id"]
    for scores in ([10, -5, 0], [3, 7, -2]):
        act(client, tid, {"type": "add_round", "scores": scores}, PIN)
    csv_text = client.get(f"/api/tables/{tid}/export.csv").data.decode("utf-8-sig")
    assert csv_text.splitlines() == [
        "round,Ana,Bruno,Chen,total Ana,total Bruno,total Chen",
        "1,10,-5,0,10,-5,0", "2,3,7,-2,13,2,-2"]
    data = json.loads(client.get(f"/api/tables/{tid}/export.json").data)
    assert data["public"]["totals"] == [13, 2, -2] and len(data["history"]) == 2


def test_the_qr_code_is_an_svg(client, scorepad):
    res = client.get(f"/api/tables/{scorepad['id']}/qr.svg")
    assert res.status_code == 200 and res.mimetype == "image/svg+xml"
    assert res.data.startswith(b"<svg")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                              max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/actions", "/join", "/undo", "/host", ""]), body=json_values,
       raw=st.binary(max_size=40), use_raw=st.booleans(),
       headers=st.sampled_from([{}, PIN, {"X-Host-Pin": ""}, {"Authorization": "Bearer x"}]))
def test_no_input_causes_a_500(client, scorepad, path, body, raw, use_raw, headers):
    url = "/api/tables" + (f"/{scorepad['id']}{path}" if path else "")
    if use_raw:
        res = client.post(url, data=raw, content_type="application/json", headers=headers)
    else:
        res = client.post(url, json=body, headers=headers)
    assert res.status_code < 500, res.data
    if res.status_code >= 400:
        assert set(res.json["error"]) == {"code", "message"}


def test_a_game_with_its_own_score_sheet_exports_it(client):
    res = client.post("/api/tables", json={"game": "uno", "players": ["Ana", "Bruno"],
                                           "pin": "2468"})
    assert res.status_code == 201
    csv_text = client.get(f"/api/tables/{res.json['table']['id']}/export.csv").data.decode(
        "utf-8-sig")
    assert csv_text.splitlines()[0].startswith("round,")


def test_a_phone_slap_button_is_a_press_for_its_own_seat(client):
    res = client.post("/api/tables", json={"game": "quiz", "players": ["Ana", "Bruno"],
                                           "pin": "2468"})
    tid = res.json["table"]["id"]
    assert client.post(f"/api/tables/{tid}/slap").status_code == 401
    bruno = _dealt_seat(client, tid, 1)
    res = client.post(f"/api/tables/{tid}/slap", headers=bruno)
    assert res.status_code == 200, res.json
    hist = client.get(f"/api/tables/{tid}/history").json["history"]
    assert hist[-1]["actor"]["seat"] == 1


def test_with_the_buttons_on_a_press_the_rules_refuse_is_answered_on_the_phone(
        app, client, service, clock):
    """Under the hardware layer a phone's press joins the buttons' race (202, judged a moment
    later); one the rules would refuse anyway (the question is closed) is refused on that
    phone at once, in its language, and joins no race."""
    from companion.config import Config
    from hardware.runtime import start
    from hardware.testing import ManualTicksFactory

    hw = start(Config(button_pins=[5, 6]), service, clock, keys=False, background=False,
               factory=ManualTicksFactory(start_ns=clock.monotonic_ns(), clock=clock))
    app.config["HARDWARE"] = hw
    try:
        tid = client.post("/api/tables", json={"game": "quiz", "players": ["Ana", "Bruno"],
                                               "pin": "2468"}).json["table"]["id"]
        ana, bruno = join(client, tid, 0), join(client, tid, 1)
        res = client.post(f"/api/tables/{tid}/slap", headers=bruno)
        assert res.status_code == 202 and res.json == {"queued": True}
        clock.advance(ns=50_000_000)
        [update] = hw.router.poll()
        assert update.actor.source == "button" and service.get(tid).state["floor"] == 1
        res = client.post(f"/api/tables/{tid}/actions", headers=PIN,
                          json={"action": {"type": "mark", "right": True}})
        assert res.status_code == 200, res.json

        res = client.post(f"/api/tables/{tid}/slap",
                          headers={**ana, "Accept-Language": "pt-BR"})
        assert res.status_code == 422 and res.json["error"]["code"] == "not_open"
        assert res.json["error"]["message"] == "A pergunta não está aberta."
        assert hw.router.deadline_ns() is None  # nothing waits to be judged
    finally:
        app.config.pop("HARDWARE")
        hw.stop()


def test_a_game_without_buttons_refuses_a_slap(client, scorepad):
    ana = join(client, scorepad["id"], 0)
    res = client.post(f"/api/tables/{scorepad['id']}/slap", headers=ana)
    assert res.status_code == 422 and res.json["error"]["code"] == "no_buttons"


def test_an_illegal_card_from_a_phone_sounds_for_the_whole_table(client, service):
    res = client.post("/api/tables", json={"game": "uno", "players": ["Ana", "Bruno"],
                                           "pin": "2468"})
    tid = res.json["table"]["id"]
    for action in ({"type": "set_dealer", "dealer": 0}, {"type": "turn_up", "card": "blue-7"}):
        client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=PIN)
    heard = []
    service.add_listener(heard.append)  # as the buzzer does
    bruno = _dealt_seat(client, tid, 1)
    res = act(client, tid, {"type": "play", "card": "red-5"}, bruno)
    assert res.status_code == 422 and res.json["error"]["code"] == "illegal_card"
    refused = [e for u in heard if u.kind == "announce" for e in u.events]
    assert refused and refused[-1]["type"] == "refused" and refused[-1]["seat"] == 1
    from hardware.indicators import feedback

    assert feedback(refused) == [("tone", "wrong")]
    # a refusal that is not about the pile (a score typo) stays on the phone that asked
    heard.clear()
    res = act(client, tid, {"type": "fly"}, bruno)
    assert res.status_code == 422 and not [u for u in heard if u.kind == "announce"]


def test_json_no_parser_reads_and_nan_are_refused_and_change_nothing(client, scorepad):
    """Found by fuzzing: a body nested thousands deep was a 500 (Python's parser ran out of
    stack), and NaN or Infinity, which are no JSON, were logged as sent, so that the history
    and the export were no JSON either."""
    tid = scorepad["id"]
    for raw in ("[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000,
                '{"action": {"type": "add_round", "scores": [1, 2, 3], "card": NaN}}',
                '{"action": {"type": "add_round", "scores": [1, Infinity, 3]}}'):
        res = client.post(f"/api/tables/{tid}/actions", data=raw, headers={
            **PIN, "Content-Type": "application/json", "Accept-Language": "pt-BR"})
        assert res.status_code == 400 and res.json["error"]["code"] == "bad_json", raw[:40]
        assert res.json["error"]["message"] == "O corpo da requisição não é um JSON válido."
    assert client.get(f"/api/tables/{tid}").json["version"] == 0
    json.loads(client.get(f"/api/tables/{tid}/history").get_data(as_text=True))


def test_options_null_nan_or_too_long_are_refused_and_no_table_is_stored(client):
    """Found by fuzzing: a null option stored a table whose setup failed, after which the
    home page and the table list were a 500 for good; NaN passed every bound and made every
    view that echoes the options no JSON."""
    for game, options in (("uno", {"custom_wilds": None}), ("versus", {"gems": None}),
                          ("quiz", {"tie_window_ms": float("nan")}),
                          ("uno", {"camera_confirm_below": float("inf")}),
                          ("uno", {"custom_rule": "x" * 201})):
        raw = json.dumps({"game": game, "players": ["A", "B", "C"], "pin": "2468",
                          "options": options})
        res = client.post("/api/tables", data=raw, headers={"Content-Type": "application/json"})
        assert res.status_code == 400, (game, options)
        assert res.json["error"]["code"] in ("bad_option", "bad_json"), (game, options)
    assert client.get("/api/tables").json["tables"] == []
    assert client.get("/").status_code == 200
    # the longest text an option may have is still taken
    res = client.post("/api/tables", json={"game": "uno", "players": ["A", "B"], "pin": "2468",
                                           "options": {"custom_rule": "x" * 200}})
    assert res.status_code == 201


def test_an_action_too_large_or_pins_and_names_no_keypad_types_are_refused(client, scorepad):
    tid = scorepad["id"]
    res = act(client, tid, {"type": "add_round", "scores": [1, 2, 3], "note": "x" * 40_000},
              PIN)
    assert res.status_code == 413 and res.json["error"]["code"] == "action_too_big"
    assert client.get(f"/api/tables/{tid}").json["version"] == 0
    res = client.post("/api/tables", json={"players": ["A", "B"], "pin": "١٢٣٤"})
    assert res.status_code == 400 and res.json["error"]["code"] == "bad_pin"
    res = client.post("/api/tables", json={"players": ["A\x00", "B"], "pin": "2468"})
    assert res.status_code == 400 and res.json["error"]["code"] == "bad_name"


def test_the_language_switch_goes_back_only_to_a_page_of_this_companion(client):
    for back, to in (("/x\r\nSet-Cookie: a=b", "/"), ("//evil.example/", "/"),
                     ("https://evil.example/", "/"), ("/new", "/new")):
        res = client.post("/lang", data={"lang": "pt_BR", "next": back})
        assert res.status_code == 302 and res.headers["Location"] == to, back


def test_every_choice_of_every_option_is_offered_by_a_translated_label(client):
    """The form on /new shows each choice by its label in the phone's language: the values
    ("own_hand", "before_night1") are ids."""
    games = client.get("/api/games", headers={"Accept-Language": "pt-BR"}).json["games"]
    choices = [o for g in games for o in g["options"] if o["choices"]]
    assert len(choices) >= 15
    for o in choices:
        assert o["labels"] and len(o["labels"]) == len(o["choices"]), o["name"]
    from babel.messages.mofile import read_mo

    from web.i18n import TRANSLATIONS

    for lang in ("pt_BR", "zh_Hans"):
        with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as fh:
            catalog = read_mo(fh)
        for o in choices:
            for label in o["labels"]:
                if label.isascii() and label != "English":
                    assert catalog.get(label) and catalog.get(label).string, (lang, label)


def test_no_help_text_on_the_form_quotes_a_choices_id(client):
    """The form on /new shows the choices by their labels, so a help text that explains them
    by their ids ("at most one other player is left (seed)", "own_hand: everyone scores
    his own hand") quotes words the phone never shows. An id may appear only as a word the
    game's labels use too ("at parity", "the host"), never in brackets or before a colon."""
    import re

    from babel.messages.mofile import read_mo

    from web.i18n import TRANSLATIONS

    catalogs = {}
    for lang in ("pt_BR", "zh_Hans"):
        with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as fh:
            catalogs[lang] = read_mo(fh)
    games = client.get("/api/games").json["games"]
    checked = 0
    for g in games:
        words = " ".join(label for o in g["options"] for label in o["labels"] or []).lower()
        for o in g["options"]:
            for choice in o["choices"] or []:
                if not isinstance(choice, str):
                    continue
                idish = not choice.isalpha() or choice.lower() not in words
                texts = {"en": o["help"]}
                texts.update({lang: cat.get(o["help"]).string for lang, cat in catalogs.items()})
                for lang, text in texts.items():
                    word = re.compile(rf"(?<![\w-]){re.escape(choice)}(?![\w-])")
                    assert f"({choice})" not in text and f"（{choice}）" not in text, (lang, text)
                    assert not re.search(rf"(?<![\w-]){re.escape(choice)}\s*[:：]", text), (
                        lang, text)
                    assert not (idish and word.search(text)), (g["id"], o["name"], lang, text)
                checked += 1
    assert checked >= 30


def test_a_table_without_a_title_is_shown_under_its_games_name_in_the_phones_language(client):
    pt = {"Accept-Language": "pt-BR"}
    plain = client.post("/api/tables", json={"players": ["A", "B"], "pin": "2468"}).json
    named = client.post("/api/tables", json={"players": ["A", "B"], "pin": "2468",
                                             "title": "Score night"}).json
    home = client.get("/", headers=pt).get_data(as_text=True)
    assert "<strong>Marcador de pontos</strong>" in home and "<strong>Score night</strong>" in home
    page = client.get(plain["url"], headers=pt).get_data(as_text=True)
    assert "<h1>Marcador de pontos</h1>" in page
    assert "<h1>Score night</h1>" in client.get(named["url"], headers=pt).get_data(as_text=True)
    assert "<h1>Score pad</h1>" in client.get(plain["url"]).get_data(as_text=True)


def test_a_seat_hears_an_event_addressed_to_it_as_to_itself_alone():
    """An event's audience is itself a secret: the Werewolf lovers' news went to both lovers
    and to Cupid, and its ``to`` named Cupid's seat to the lovers. A seat hears it as
    ``[seat]``; a seat it is not for hears nothing of it; the host hears it whole."""
    from companion.table import Update
    from web.api import events_for

    lovers = {"type": "lovers", "to": [1, 6, 7], "lovers": [1, 6]}
    update = Update("t", 5, "action", [lovers, {"type": "night"}], None)
    assert events_for(update, 1, False) == [{**lovers, "to": [1]}, {"type": "night"}]
    assert events_for(update, 2, False) == [{"type": "night"}]
    assert events_for(update, None, False) == [{"type": "night"}]
    assert events_for(update, None, True) == [lovers, {"type": "night"}]
    assert lovers["to"] == [1, 6, 7]  # (the update itself is not changed)


def test_a_phone_that_opens_the_table_is_handed_the_latest_narration_line(app, client,
                                                                          scorepad):
    """A reloaded phone showed no narration card until the next line, unlike its
    neighbours'. The latest line announced comes with the stream's first message, marked
    ``again`` (a host's narrator log does not list it twice when the stream comes back)."""

    def first() -> dict:
        res = client.get(f"/api/tables/{scorepad['id']}/stream")
        chunks = iter(res.response)
        try:
            while True:
                chunk = next(chunks)
                chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
                if chunk.startswith("event: state"):
                    return json.loads(chunk.split("data: ", 1)[1])
        finally:
            res.close()

    assert first()["events"] == []
    line = {"type": "narration", "key": "night_falls", "text": "Night falls.", "lang": "en",
            "texts": {"en": "Night falls.", "pt_BR": "A noite cai."}}
    app.extensions["tables"].announce(scorepad["id"], [line, {"type": "speak", "text": "x"}])
    assert first()["events"] == [{**line, "again": True}]


def _stream_chunks(client, tid: str, headers=None):
    """The stream's chunks as the phone reads them (the response, and an iterator of str)."""
    res = client.get(f"/api/tables/{tid}/stream", headers=headers or {})
    return res, (c.decode() if isinstance(c, bytes) else c for c in res.response)


def _next_message(chunks) -> dict | None:
    """The stream's next ``state`` message, or None where the next thing said is a ping."""
    for chunk in chunks:
        if chunk.startswith(": ping"):
            return None
        if chunk.startswith("event: state"):
            return json.loads(chunk.split("data: ", 1)[1])
    raise AssertionError("the stream ended")


def _dealt_seat(client, tid: str, seat: int) -> dict[str, str]:
    """A seat of a Werewolf table whose cards are dealt, given to a phone by the host (no
    phone held it at the deal: only the host's PIN gives it now)."""
    res = client.post(f"/api/tables/{tid}/join", json={"seat": seat, "pin": "2468"})
    assert res.status_code == 201, res.json
    return {"Authorization": "Bearer " + res.json["token"]}


def _werewolf_at(client, service, clock, step_name: str) -> str:
    """A Werewolf table of 8 (Ana and Bruno the wolves, Carla the seer), played by the host's
    timeouts to the first ``step_name``; its id."""
    players = ["Ana", "Bruno", "Carla", "Davi", "Eva", "Fabio", "Gil", "Hugo"]
    tid = client.post("/api/tables", json={"game": "werewolf", "players": players,
                                           "pin": "2468", "options": {"deal": "host"}}
                      ).json["table"]["id"]
    roles = ["werewolf", "werewolf", "seer"] + ["villager"] * 5
    for action in ({"type": "set_roles", "roles": {"werewolf": 2, "seer": 1, "villager": 5}},
                   {"type": "assign", "roles": roles}, {"type": "start", "empty_seats": True},
                   {"type": "skip"}):
        assert act(client, tid, action, PIN).status_code == 200, action
    while (step := service.get(tid).state["step"])["name"] != step_name:
        clock.advance(max(0.0, step["deadline"] - clock.wall()) + 0.01)
        assert act(client, tid, {"type": "timeout", "step": step["id"]}, PIN).status_code == 200
    return tid


def test_a_secret_move_changes_no_other_phones_view_version_or_stream(app, client, service,
                                                                     clock):
    """A wolf's first vote of the night changes nothing a villager may see. The table's
    version went up by one on every phone and each phone's stream sent a message, so a
    villager's developer tools counted and timed the wolves' votes (and the witch's choice,
    the seer's look). Now a player's version counts its own history's entries, and its
    stream says nothing where its view did not change; the host's (with the PIN) hears all."""
    app.config["SSE_HEARTBEAT_S"] = 0.01  # (an idle stream says ": ping" at once)
    tid = _werewolf_at(client, service, clock, "werewolves")
    ana, bruno, davi = (_dealt_seat(client, tid, seat) for seat in (0, 1, 3))
    seen = client.get(f"/api/tables/{tid}", headers=davi).json["version"]
    assert seen == len(client.get(f"/api/tables/{tid}/history", headers=davi).json["history"])

    host_res, host_chunks = _stream_chunks(client, tid, PIN)
    try:
        host_before = _next_message(host_chunks)["view"]
        assert host_before["version"] == service.get(tid).version and "host" in host_before
        voted = act(client, tid, {"type": "wolf_vote", "target": 3}, ana)
        assert voted.status_code == 200
        assert voted.json["version"] == len(
            client.get(f"/api/tables/{tid}/history", headers=ana).json["history"])
        assert _next_message(host_chunks)["view"]["version"] == host_before["version"] + 1
    finally:
        host_res.close()

    res, chunks = _stream_chunks(client, tid, davi)
    try:
        before = _next_message(chunks)["view"]
        assert before["version"] == seen and "host" not in before
        assert act(client, tid, {"type": "wolf_vote", "target": 4}, bruno).status_code == 200
        assert service.get(tid).state["step"]["name"] == "werewolves"  # (the pack disagrees)
        assert _next_message(chunks) is None  # nothing came: a ping
    finally:
        res.close()
    after = client.get(f"/api/tables/{tid}", headers=davi).json
    assert after["version"] == after["table"]["version"] == seen
    assert {k: v for k, v in after.items() if k != "join_url"} == {
        k: v for k, v in before.items() if k != "join_url"}
    # a wrong PIN on the stream is refused like any other; the list of tables gives no
    # version for a game with secrets (the table's own counts the secret moves too)
    assert client.get(f"/api/tables/{tid}/stream",
                      headers={"X-Host-Pin": "0000"}).status_code == 403
    assert "version" not in client.get("/api/tables").json["tables"][0]


def test_the_stream_s_pings_keep_their_beat_through_a_move_the_phone_may_not_see(
        app, client, service, clock):
    """A villager's stream pinged 15 s after a wolf's vote, where it would have pinged on
    its beat: the ping's time told when the secret move was made."""
    now = [1000.0]
    app.config["SSE_CLOCK"] = lambda: now[0]
    app.config["SSE_HEARTBEAT_S"] = 3600.0
    tid = _werewolf_at(client, service, clock, "werewolves")
    ana, davi = _dealt_seat(client, tid, 0), _dealt_seat(client, tid, 3)
    res, chunks = _stream_chunks(client, tid, davi)
    said: list[str] = []
    try:
        _next_message(chunks)  # (the first message; the beat starts at 1000)
        assert act(client, tid, {"type": "wolf_vote", "target": 3}, ana).status_code == 200
        now[0] = 1000.0 + 3600.0  # the beat: the ping is due now, not an hour after the vote
        reader = threading.Thread(target=lambda: said.append(next(chunks)), daemon=True)
        reader.start()
        reader.join(10)  # (a guard: the old stream waited a whole beat after the vote)
        assert said == [": ping\n\n"]
    finally:
        res.close()


def test_an_undone_wolf_vote_leaves_the_step_as_it_was(client, service, clock):
    """The host took back a wolf's vote: the step started again on every phone (a new
    deadline, "Werewolves, wake up" said again), which told them all that a secret move had
    been undone. Only a step the undo brought back starts again."""
    tid = _werewolf_at(client, service, clock, "werewolves")
    ana = _dealt_seat(client, tid, 0)
    step = service.get(tid).state["step"]
    clock.advance(5)
    assert act(client, tid, {"type": "wolf_vote", "target": 3}, ana).status_code == 200
    undone = client.post(f"/api/tables/{tid}/undo", json={}, headers=PIN)
    assert undone.status_code == 200
    assert [e["type"] for e in undone.json["events"]] == ["undone"]
    assert service.get(tid).state["step"] == step
    assert service.get(tid).log[-1].body == {"undo": service.get(tid).log[-2].seq}
    # a wolf vote that ends the step, taken back, brings the step back: that starts again
    bruno = _dealt_seat(client, tid, 1)
    for wolf in (ana, bruno):
        assert act(client, tid, {"type": "wolf_vote", "target": 3}, wolf).status_code == 200
    assert service.get(tid).state["step"]["name"] != "werewolves"
    clock.advance(5)
    undone = client.post(f"/api/tables/{tid}/undo", json={}, headers=PIN)
    again = service.get(tid).state["step"]
    assert again["name"] == "werewolves" and again["deadline"] > step["deadline"]
    assert "step" in [e["type"] for e in undone.json["events"]]


def test_every_living_player_votes_for_the_captain_at_once(client, service, clock):
    """At dawn every phone taps its captain vote at the same moment, each with the version
    it was shown; the night's hidden moves had carried the table on since the last entry a
    villager could see, and 7 of 8 taps were refused as stale."""
    tid = _werewolf_at(client, service, clock, "werewolves")
    phones = [_dealt_seat(client, tid, seat) for seat in range(8)]
    for wolf in phones[:2]:
        assert act(client, tid, {"type": "wolf_vote", "target": 3}, wolf).status_code == 200
    while (step := service.get(tid).state["step"])["name"] != "captain":
        clock.advance(max(0.0, step["deadline"] - clock.wall()) + 0.01)
        assert act(client, tid, {"type": "timeout", "step": step["id"]}, PIN).status_code == 200
    alive = [s for s in range(8) if service.get(tid).state["alive"][s]]
    seen = {s: client.get(f"/api/tables/{tid}", headers=phones[s]).json["version"]
            for s in alive}
    for s in alive:  # (each with the version it was shown at dawn, before any vote)
        res = act(client, tid, {"type": "captain_vote", "target": 4}, phones[s], version=seen[s])
        assert res.status_code == 200, (s, res.json)


def test_the_host_panel_offers_a_csv_only_where_the_game_keeps_scores(client, scorepad):
    """Versus's and the quiz's host panels linked to "Export CSV", which opened a JSON 404."""
    versus = client.post("/api/tables", json={"game": "versus", "pin": "2468",
                                              "players": ["Ana", "Bruno", "Chen"]}
                         ).json["table"]["id"]
    assert client.get(f"/api/tables/{versus}/export.csv").status_code == 404
    assert b"export.csv" not in client.get(f"/t/{versus}").data
    assert b"export.csv" in client.get(f"/t/{scorepad['id']}").data
    assert b"export.json" in client.get(f"/t/{versus}").data  # (the log, for any game)
    # the quiz keeps scores: its CSV is a row a player, headed in the phone's language
    quiz = client.post("/api/tables", json={"game": "quiz", "players": ["Ana", "Bruno"],
                                            "pin": "2468"}).json["table"]["id"]
    assert b"export.csv" in client.get(f"/t/{quiz}").data
    rows = client.get(f"/api/tables/{quiz}/export.csv",
                      headers={"Accept-Language": "pt-BR"}).data.decode("utf-8-sig")
    assert rows.splitlines() == ["jogador,pontos", "Ana,0", "Bruno,0"]
