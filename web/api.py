"""The JSON API under /api: tables, joining, actions, views, undo, history, export.

Documented as OpenAPI at /api/openapi.json (see openapi.py). Every refusal is
``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from companion.games.base import N_
from companion.games.registry import all_games
from companion.table import TableError, TableService, Update
from web.auth import identify

bp = Blueprint("api", __name__, url_prefix="/api")


def tables() -> TableService:
    return current_app.extensions["tables"]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def body() -> dict[str, Any]:
    """The request's JSON object; a clear 400 for anything else."""
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        # (NaN and Infinity are no JSON: logged, they made the history no JSON either; a
        # nesting thousands deep ran Python's parser out of stack)
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TableError(400, "bad_json", N_("The request body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise TableError(400, "bad_json", N_("The request body must be a JSON object."))
    from web.guard import check_text

    check_text(data)
    return data


def events_for(update: Update, seat: int | None, host: bool) -> list[dict[str, Any]]:
    """Game events this viewer may hear: public ones, and those addressed to its seat. An
    event's ``to`` is always its audience, a list of seats (a gift's recipient is named
    otherwise: Versus's ``receiver``); a seat hears its own only as ``[seat]``: the whole
    list is itself a secret (the Werewolf lovers' news went to Cupid's seat too, and named
    it to them). An event marked ``watchers`` (an undo of an entry anyone may read) reaches
    the phones without a seat too, as ``to: []``. ``host``: the moderator's (every event;
    ``TableService.moderates``)."""
    if host:
        return list(update.events)
    return [e if "to" not in e else {**e, "to": [] if seat is None else [seat]}
            for e in update.events
            if "to" not in e or (seat is not None and seat in e["to"])
            or (seat is None and e.get("watchers"))]


def join_url(code: str) -> str:
    base = current_app.config["COMPANION"].public_url.rstrip("/")
    path = url_for("pages.join_code", code=code)
    return base + path if base else url_for("pages.join_code", code=code, _external=True)


def _kind_name(kind: Any) -> str | None:
    """An option's type for a form: "int", "number" (int or float), "text", "bool", "dict"
    (set on the game's own page, not in a form), None (a choice)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds:
        return "number"
    return {int: "int", str: "text", bool: "bool", dict: "dict"}.get(kinds[0])


@bp.get("/games")
def list_games():
    out = []
    for gid, game in all_games().items():
        out.append({
            "id": gid, "name": game.name, "min_players": game.min_players,
            "max_players": game.max_players,
            "options": [{"name": o.name, "default": o.default, "help": o.help,
                         "choices": list(o.choices) if o.choices else None,
                         "labels": list(o.labels) if o.labels else None,
                         "kind": _kind_name(o.kind),
                         "minimum": o.minimum, "maximum": o.maximum, "seat": o.seat}
                        for o in game.options],
            "actions": [{"type": a.type, "summary": a.summary, "example": a.example,
                         "host_only": a.host_only} for a in game.actions],
        })
    return jsonify({"games": out})


@bp.get("/tables")
def list_tables():
    return jsonify({"tables": tables().list_tables()})


@bp.post("/tables")
def create_table():
    data = body()
    live = tables().create_table(
        game_id=data.get("game", "scorepad"), players=data.get("players"),
        pin=data.get("pin"), options=_dict(data.get("options")), title=data.get("title"),
    )
    out = {"table": live.summary(tables().viewer_version(live.id, host=True)),
           "join_url": join_url(live.record.code),
           "url": url_for("pages.table_page", table_id=live.id)}
    return jsonify(out), 201


@bp.patch("/tables/<table_id>")
def tidy(table_id: str):
    """The host tidies the list of tables: ``{"title"}`` renames, ``{"archived": bool}``
    files the table under "Archived" on the home page (or back)."""
    identify(tables(), table_id, need_host=True)
    data = body()
    if "title" in data:
        tables().rename(table_id, data["title"])
    if "archived" in data:
        tables().set_archived(table_id, data["archived"])
    live = tables().get(table_id)
    return jsonify({"table": live.summary(tables().viewer_version(live.id, host=True)),
                    "archived": table_id in tables().store.archived()})


@bp.delete("/tables/<table_id>")
def delete_table(table_id: str):
    """The host deletes the table and its log for good (its phones are told, and go home)."""
    identify(tables(), table_id, need_host=True)
    tables().delete(table_id)
    return jsonify({"deleted": table_id})


@bp.post("/tables/<table_id>/rematch")
def rematch(table_id: str):
    """One tap of the host's: a new table of the same game, players, options, title and PIN
    (the next UNO match, another Werewolf village). The old table's phones hear a
    ``rematch`` event with the new table, and follow it, each to its own seat."""
    identify(tables(), table_id, need_host=True)
    old = tables().get(table_id).record
    live = tables().create_table(game_id=old.game, players=list(old.players),
                                 pin=request.headers.get("X-Host-Pin"),
                                 options=dict(old.options or {}), title=old.title or None)
    url = url_for("pages.table_page", table_id=live.id)
    tables().announce(table_id, [{"type": "rematch", "table": live.id, "url": url}])
    out = {"table": live.summary(tables().viewer_version(live.id, host=True)),
           "join_url": join_url(live.record.code), "url": url}
    return jsonify(out), 201


def _dict(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TableError(400, "bad_options", N_("Options must be a JSON object."))
    return value


@bp.get("/tables/by-code/<code>")
def by_code(code: str):
    live = tables().by_code(code)
    return jsonify({"table": live.summary(), "url": url_for("pages.table_page",
                                                            table_id=live.id)})


@bp.get("/tables/<table_id>")
def view(table_id: str):
    caller = identify(tables(), table_id)
    out = tables().view(table_id, seat=caller.seat, host=caller.host)
    out["join_url"] = join_url(out["table"]["code"])
    return jsonify(out)


@bp.post("/tables/<table_id>/join")
def join(table_id: str):
    data = body()
    # (the PIN in the headers: the host's own phone takes a seat, the one the host plays
    # in; the PIN in the body: typed to move a seat to this phone)
    caller = identify(tables(), table_id)
    token = tables().join(table_id, data.get("seat"), pin=data.get("pin"),
                          client=request.remote_addr, host=caller.host)
    return jsonify({"token": token, "seat": data["seat"]}), 201


@bp.post("/tables/<table_id>/host")
def check_host(table_id: str):
    """Let the host's phone check its PIN before it shows the host's controls."""
    identify(tables(), table_id, need_host=True)
    return jsonify({"host": True})


@bp.post("/tables/<table_id>/actions")
def act(table_id: str):
    data = body()
    caller = identify(tables(), table_id)
    as_seat = data.get("as_seat")
    if as_seat is not None:
        players = tables().get(table_id).record.players
        if isinstance(as_seat, bool) or not isinstance(as_seat, int) or not (
            0 <= as_seat < len(players)
        ):
            raise TableError(400, "bad_seat", N_("There is no such seat."))
        if not caller.host:
            raise TableError(403, "host_only", N_("Only the host can do that."))
    if caller.seat is None and not caller.host:
        raise TableError(401, "not_joined", N_("Join the table first, or watch."))
    if caller.host and as_seat is None and tables().host_seat(table_id) is not None:
        as_seat = caller.seat  # (a host who plays taps for that seat, as its phone would)
    action = data.get("action")
    actor = caller.actor(as_seat)
    try:
        # (Werewolf's deal with a seat no phone holds: the host is asked first)
        tables().ask_empty_seats(table_id, action, actor)
        update = tables().submit(table_id, action, actor, expected_version=data.get("version"),
                                 viewer=(caller.seat, caller.host))
    except TableError as exc:
        announce_refusal(table_id, exc, action, actor.seat)
        raise
    return jsonify({"version": tables().viewer_version(table_id, caller.seat, caller.host),
                    "events": events_for(update, caller.seat, tables().moderates(
                        table_id, caller.seat, caller.host))})


def announce_refusal(table_id: str, exc: TableError, action: Any, seat: int | None) -> None:
    """A refusal the table should hear (the game's ``buzz_codes``: UNO's illegal card)
    sounds the buzzer; the refusal itself is told to the phone that asked only (its answer).
    A tapped card is in that player's hand: the event carries neither the card nor the
    message, and is addressed to no phone (``to: []``), so no other phone's stream has it
    (the others read "Blue 8 cannot go on Wild Draw Four", a card of someone's hand)."""
    live = tables().get(table_id)
    game = live.game
    rej = exc.rejection
    if rej.code in getattr(game, "buzz_codes", ()) and getattr(game, "refusals_public", False):
        # (Huang Di: the card lies face up on a wall, so every phone reads why it may not go
        # there, and the speaker says it)
        from companion.narration import refusal_speech

        card = action.get("card") if isinstance(action, dict) else None
        tables().announce(table_id, [{"type": "refused", "code": rej.code,
                                      "message": rej.message, "params": rej.params,
                                      "seat": seat, "source": "web",
                                      "card": card if isinstance(card, str) else None,
                                      **refusal_speech(game, live.state, rej, seat)}])
    elif rej.code in getattr(game, "buzz_codes", ()):
        tables().announce(table_id, [{"type": "refused", "code": rej.code, "seat": seat,
                                      "source": "web", "to": []}])


@bp.post("/tables/<table_id>/slap")
def slap(table_id: str):
    """A phone's on-screen slap (or buzzer) button, for its own seat. With the hardware layer
    running, the press is stamped on arrival and judged in the same race as the GPIO
    buttons (a press the rules would refuse on its own is refused here at once, so the phone
    hears why); without it, it is submitted as the game's own ``slap`` action."""
    caller = identify(tables(), table_id)
    if caller.seat is None:
        raise TableError(401, "not_joined", N_("Join the table first, or watch."))
    live = tables().get(table_id)
    if getattr(live.game, "on_presses", None) is None:
        raise TableError(422, "no_buttons", N_("This game has no slap buttons."))
    # The press is stamped here, on the table's timeline (``stamp``: after a reboot too),
    # by the server: the rules trust no time a phone gives (a player could have chosen the
    # nanosecond after the pair turned up).
    t_ns = tables().stamp(table_id, tables().clock.monotonic_ns())
    actor = caller.actor(source="server")
    with live.lock:
        action = live.game.on_presses(live.state, [{"seat": caller.seat, "t_ns": t_ns}])
    if action is None:
        raise TableError(409, "no_race", N_("That press does not count now."))
    hardware = current_app.config.get("HARDWARE")
    if hardware is not None:
        # judged a moment later in a race with the buttons; a press the rules refuse
        # anyway (a player who is out, a game over) is answered on this phone now
        tables().check(table_id, action, actor)
        hardware.press(table_id, caller.seat)
        return jsonify({"queued": True}), 202
    update = tables().submit(table_id, action, actor)
    return jsonify({"version": tables().viewer_version(table_id, caller.seat, caller.host),
                    "events": events_for(update, caller.seat, tables().moderates(
                        table_id, caller.seat, caller.host))})


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    data = body()
    caller = identify(tables(), table_id, need_host=True)
    update = tables().undo(table_id, caller.actor(), expected_version=data.get("version"),
                           viewer=(caller.seat, caller.host))
    return jsonify({"version": tables().viewer_version(table_id, caller.seat, True),
                    "events": events_for(update, caller.seat, tables().moderates(
                        table_id, caller.seat, True))})


@bp.get("/tables/<table_id>/history")
def history(table_id: str):
    caller = identify(tables(), table_id)
    return jsonify({"history": tables().history(table_id, caller.seat, caller.host)})


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id: str):
    caller = identify(tables(), table_id)
    v = tables().view(table_id, seat=caller.seat, host=caller.host)
    data = {"table": v["table"], "public": v["public"],
            "score_sheet": tables().score_sheet(table_id),
            "history": tables().history(table_id, caller.seat, caller.host)}
    resp = Response(json.dumps(data, ensure_ascii=False, indent=2),
                    mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="table-{table_id}.json"'
    return resp


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str):
    """The game's score sheet, a row a round: opens in any spreadsheet (UTF-8 with BOM).

    The headings are in the phone's language where the game gives them as templates (its
    sheet's ``header``), else its ``columns`` as they are. A text cell that a spreadsheet
    would run as a formula (a player named ``=1+1``, or ``@SUM(...)``) is written with an
    apostrophe before it; numbers, negative ones too, stay numbers."""
    from flask_babel import gettext

    sheet = tables().score_sheet(table_id)
    if sheet is None:
        raise TableError(404, "no_scores", N_("This table keeps no score sheet."))

    def heading(h: Any) -> Any:
        if isinstance(h, (list, tuple)) and len(h) == 2 and isinstance(h[0], str):
            template, params = h
            return gettext(template).format(**(params or {}))
        return h

    def cell(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(("=", "+", "-", "@", "\t", "\r")):
            return "'" + value
        return value

    header = sheet.get("header") or sheet["columns"]
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([cell(heading(h)) for h in header])
    w.writerows([cell(v) for v in row] for row in sheet["rows"])
    resp = Response("\ufeff" + buf.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="table-{table_id}.csv"'
    return resp


@bp.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    import segno

    live = tables().get(table_id)
    link = join_url(live.record.code)
    # While the Pi is its own hotspot (companion/hotspot.py): the Wi-Fi's QR code first, then
    # the page's at the hotspot's address: a phone joins and opens the table with two scans.
    hotspot = current_app.extensions.get("hotspot")
    invite = hotspot.invite() if hotspot is not None else None
    if invite is not None:
        from urllib.parse import urlsplit

        from companion.hotspot import invite_svg

        wifi, address = invite
        if address:
            port = urlsplit(link).port
            link = f"http://{address}{f':{port}' if port else ''}" + urlsplit(link).path
        state = hotspot.state()
        return Response(invite_svg(wifi, link, state.get("ssid", ""), state.get("password", "")),
                        mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
    out = io.BytesIO()
    segno.make(link, error="m").save(
        out, kind="svg", scale=8, border=2, dark="#000", light="#fff", xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")


@bp.get("/openapi.json")
def openapi():
    from web.openapi import build_openapi

    return jsonify(build_openapi())


@bp.get("/i18n/<lang>.json")
def i18n_catalog(lang: str):
    from web.i18n import js_catalog

    return jsonify(js_catalog(lang))




# A line for the host to check the table hears the narrator (in the table's language).
TEST_LINES = {
    "en": "This is the narrator. Can everyone at the table hear me?",
    "pt_BR": "Aqui é o narrador. Todos na mesa me ouvem?",
    "zh_Hans": "我是旁白。桌边的每个人都能听到我吗？",
}


@bp.post("/tables/<table_id>/speech")
def speech(table_id: str):
    """The host's sound check: ``{"say": "test"}`` says a test line, ``{"say": "again"}``
    says the narrator's last line again, through the table's voice (the speaker, or the
    host's phone with the browser backend: a ``speak`` event). Narration went silent
    unnoticed, with no way to hear a line missed."""
    identify(tables(), table_id, need_host=True)
    say = body().get("say")
    if say not in ("test", "again"):
        raise TableError(400, "bad_say", N_("Say \"test\" or \"again\"."))
    narrator = current_app.extensions.get("narrator")
    if narrator is None:
        raise TableError(409, "no_narrator", N_("Nothing narrates on this companion."))
    if say == "again":
        last = tables().get(table_id).last_line
        if not last or not isinstance(last.get("text"), str):
            raise TableError(409, "nothing_said", N_("The narrator has said nothing yet."))
        text, lang = last["text"], str(last.get("lang") or "en")
    else:
        lang = narrator._lang(table_id)
        text = TEST_LINES.get(lang, TEST_LINES["en"])
    narrator.backend.say(text, lang, key="again" if say == "again" else "test",
                         table_id=table_id)
    return jsonify({"said": text, "speech": getattr(narrator.backend, "name", "")})
