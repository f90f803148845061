"""The phone pages: home (tables, create, join by code), a table, the join link of a QR code.

Pages are thin shells; the scripts in static/ draw the game from the JSON API and the SSE
stream, so one code path serves every phone.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from companion.games.base import N_
from companion.table import TableService
from web.i18n import COOKIE, LANGUAGES

bp = Blueprint("pages", __name__)


def tables() -> TableService:
    return current_app.extensions["tables"]


@bp.get("/")
def home():
    """The tables played today first (the latest first), then the earlier ones; those the
    host archived apart, folded."""
    import time

    now = time.localtime()
    midnight = time.mktime((now.tm_year, now.tm_mon, now.tm_mday, 0, 0, 0, 0, 0, -1))
    listed = tables().list_tables()
    kept = [t for t in listed if not t.get("archived")]
    return render_template("home.html", tables=listed,
                           today=[t for t in kept if t.get("active", 0) >= midnight],
                           earlier=[t for t in kept if t.get("active", 0) < midnight],
                           archived=[t for t in listed if t.get("archived")])


@bp.get("/new")
def new_table():
    from companion.table import MAX_NAME

    return render_template("new.html", max_name=MAX_NAME)


@bp.get("/t/<table_id>")
def table_page(table_id: str):
    live = tables().get(table_id)
    return render_template("table.html", table=live.summary(),
                           script=game_asset(live.record.game, "js") or "games/generic.js",
                           style=game_asset(live.record.game, "css"),
                           # (no camera on this companion: the page does not ask about one)
                           camera="camera" in current_app.extensions,
                           # the host's tools lead to the camera's page for its game
                           camera_game="camera" in current_app.extensions and bool(
                               getattr(live.game, "camera_deck", None)),
                           # (a game that keeps no score sheet: its CSV link opened a 404)
                           score_sheet=getattr(live.game, "export", None) is not None,
                           # where a narrated game's voice comes from (the host's page
                           # says so): "espeak" (the table's speaker), "browser" (the
                           # host's phone), "silent"; "" where nothing narrates
                           speech=speech_backend(),
                           archived=live.id in tables().store.archived())


def speech_backend() -> str:
    narrator = current_app.extensions.get("narrator")
    return str(getattr(getattr(narrator, "backend", None), "name", "") or "")


def game_asset(game_id: str, kind: str) -> str | None:
    """The game's own phone script or style sheet, if it has one (without a script the
    generic UI, built from the game's actions, stands in)."""
    name = f"games/{game_id}.{kind}"
    return name if (Path(current_app.static_folder or "") / name).is_file() else None


def player_stats() -> list[dict]:
    """Players who last (web/players.py: the results read from the tables, the colours
    kept)."""
    from web.players import player_stats as stats

    return stats()


@bp.get("/players")
def players_page():
    """The leaderboard: each player's finished games and wins, across games and tables."""
    return render_template("players.html", players=player_stats(),
                           # (an import asks the host's PIN once a table is played here)
                           pin_asked=bool(tables().store.list_tables()))


@bp.get("/players/<path:key>")
def player_page(key: str):
    """A player's page: every table they sat at, and how it went."""
    from companion.table import TableError

    wanted = " ".join(key.split()).casefold()
    found = next((p for p in player_stats() if p["key"] == wanted), None)
    if found is None:
        raise TableError(404, "no_player", N_("Nobody of that name has played here."))
    from flask_babel import gettext

    from companion.games.registry import all_games
    from web.players import PALETTE

    # (the games' and Werewolf's cards' names in the phone's language: the same words as
    # the game pages use)
    roles = {"werewolf": gettext("werewolf"), "villager": gettext("villager"),
             "seer": gettext("seer"), "hunter": gettext("hunter"), "cupid": gettext("Cupid"),
             "witch": gettext("witch"), "thief": gettext("thief"),
             "little_girl": gettext("little girl")}
    return render_template("player.html", player=found, palette=PALETTE, role_names=roles,
                           game_names={g: gettext(game.name) for g, game in all_games().items()})


@bp.get("/api/players")
def players_json():
    """The leaderboard and each player's tables as one JSON file (to keep, or to compare)."""
    import json

    resp = current_app.response_class(
        json.dumps({"players": player_stats()}, ensure_ascii=False, indent=2),
        mimetype="application/json")
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = 'attachment; filename="players.json"'
    return resp


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app's manifest: the phone installs the companion to its home screen and opens
    it like an app (its own window, its icon), at the tables."""
    import json

    from flask_babel import gettext

    icons = [{"src": url_for("static", filename=f"icons/icon-{n}.png"), "sizes": f"{n}x{n}",
              "type": "image/png", "purpose": "any maskable"} for n in (192, 512)]
    icons.append({"src": url_for("static", filename="icon.svg"), "sizes": "any",
                  "type": "image/svg+xml"})
    data = {"name": gettext("Table Companion"), "short_name": gettext("Companion"),
            "start_url": url_for("pages.home"), "scope": "/", "display": "standalone",
            "background_color": "#14161b", "theme_color": "#14161b", "icons": icons}
    return current_app.response_class(json.dumps(data, ensure_ascii=False),
                                      mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker():
    """The offline shell (static/sw.js), served at the root so that it may answer for every
    page: network first, the last copy when the companion cannot be reached."""
    resp = current_app.send_static_file("sw.js")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/offline")
def offline():
    """What an installed companion shows when it cannot reach the companion."""
    return render_template("offline.html")


@bp.get("/join/<code>")
def join_code(code: str):
    live = tables().by_code(code)
    return redirect(url_for("pages.table_page", table_id=live.id, join=1))


@bp.get("/join")
def join_form():
    code = request.args.get("code", "")
    if code:
        return join_code(code)
    return redirect(url_for("pages.home"))


@bp.post("/lang")
def set_language():
    lang = request.form.get("lang", "en")
    back = request.form.get("next") or url_for("pages.home")
    # (a path on this companion only: not another host's, and no line break, which made
    # the redirect's header a 500)
    if not back.startswith("/") or back.startswith("//") or not back.isprintable():
        back = url_for("pages.home")
    resp = redirect(back)
    if lang in LANGUAGES:
        resp.set_cookie(COOKIE, lang, max_age=3600 * 24 * 365, samesite="Lax")
    return resp
