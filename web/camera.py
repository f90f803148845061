"""The camera on the phones: its status, which table it watches, the zones (dragged, or read
from printed markers), the live preview (MJPEG with the cards and zones drawn), teaching the
table's own cards, and the printable ArUco marker sheet."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify
from flask_babel import gettext

from companion.games.base import N_
from companion.table import TableError
from web.api import body, tables
from web.auth import identify

bp = Blueprint("camera", __name__)

# what is wrong with the zones sent (vision.zones.ZoneError.field) -> what the host is told
ZONE_ERRORS = {
    "name": N_("Each zone needs a name of 1 to 40 characters; names must differ."),
    "rect": N_("Each zone needs a rectangle inside the picture, at least 2 percent of it wide "
               "and tall."),
    "count": N_("Mark from 1 to 16 zones."),
}


def camera():
    runtime = current_app.extensions.get("camera")
    if runtime is None:
        raise TableError(503, "no_camera", N_("No camera is running on this companion."))
    return runtime


def _camera_game(table_id: str) -> None:
    """Refuse to teach for a table whose game does not use the camera (a score pad): its
    deck would have been taken for UNO's, and UNO's taught cards changed."""
    if not getattr(tables().get(table_id).game, "camera_deck", None):
        raise TableError(409, "no_camera_game", N_("This game does not use the camera."))


def _watching(runtime, table_id: str) -> None:
    """Teaching and setting zones from the markers read the camera's picture: while it
    watches another table, a card laid there would count at that table (only its host's
    pause stops that), so the camera is pointed at this table first."""
    if runtime.table_id is not None and runtime.table_id != table_id:
        raise TableError(409, "not_watched", N_("The camera is watching another table: "
                                                "choose this one first."))


@bp.get("/api/camera")
def status():
    return jsonify(camera().status())


@bp.post("/api/tables/<table_id>/camera")
def watch(table_id: str):
    """The host points the camera at this table (its game's deck and zones). A table whose
    game has no camera (a score pad) parks it: no table hears what it sees."""
    identify(tables(), table_id, need_host=True)
    if body().get("restart") is True:
        camera().restart(table_id)
    else:
        camera().bind(table_id)
    return jsonify(camera().status())


@bp.post("/api/tables/<table_id>/camera/pause")
def pause(table_id: str):
    """The host pauses the camera's plays at this table (``{"on": true}``: to teach a card,
    or to move the camera, in the middle of a game) or resumes them (``{"on": false}``); a
    pause ends by itself after ``camera_bridge.PAUSE_S``. The phones hear ``camera_paused``
    and ``camera_resumed``."""
    identify(tables(), table_id, need_host=True)
    on = body().get("on")
    if not isinstance(on, bool):
        raise TableError(400, "bad_pause", N_("Say whether to pause the camera or not."))
    runtime = camera()
    try:
        runtime.pause(table_id, on)
    except LookupError:
        raise TableError(409, "not_watched", N_("The camera is watching another table: "
                                                "choose this one first.")) from None
    return jsonify(runtime.status())


@bp.get("/api/tables/<table_id>/zones")
def get_zones(table_id: str):
    """The table's zones, the zone names its game reacts to (``game_zones``, in order; []:
    any zone does) and a label for people of those that have one (a seat's player)."""
    tables().get(table_id)
    runtime = camera()
    zones = runtime.zones_for(table_id)
    game_zones = runtime.game_zones(table_id)
    names = list(dict.fromkeys([*game_zones, *(z["name"] for z in zones)]))
    return jsonify({"zones": zones, "game_zones": game_zones,
                    "zone_labels": runtime.zone_labels(table_id, names, gettext)})


def _bad_zones(exc: Exception) -> TableError:
    """What the host is told of zones refused (``vision.zones.ZoneError.field``)."""
    return TableError(400, "bad_zones",
                      ZONE_ERRORS.get(getattr(exc, "field", ""), ZONE_ERRORS["rect"]))


def _saved(runtime, table_id: str, saved: list[dict]) -> dict:
    """A save's answer: the zones, and the names among them the game never reacts to (the
    page warns: a typo, or an area the host marks for itself)."""
    return {"zones": saved,
            "unused": runtime.unused_zones(table_id, [z["name"] for z in saved])}


@bp.put("/api/tables/<table_id>/zones")
def put_zones(table_id: str):
    """Zones as rectangles in fractions of the picture, dragged on a live snapshot."""
    from vision.zones import ZoneError

    identify(tables(), table_id, need_host=True)
    zones = body().get("zones")
    if not isinstance(zones, list) or not all(isinstance(z, dict) for z in zones):
        raise TableError(400, "bad_zones", N_("Zones are a list of names with rectangles."))
    runtime = camera()
    try:
        saved = runtime.set_zones(table_id, zones)
    except ZoneError as exc:
        raise _bad_zones(exc) from None
    except (ValueError, KeyError, TypeError):
        raise TableError(400, "bad_zones", N_("Each zone needs a name and a rectangle inside "
                                              "the picture; names must differ.")) from None
    return jsonify(_saved(runtime, table_id, saved))


def _frame_refused(exc: Exception) -> TableError:
    """Why no picture of the table can be used now: none yet, or the camera stopped."""
    from companion.camera import CameraStalled

    if isinstance(exc, CameraStalled):
        return TableError(409, "camera_lost", N_("The camera has stopped sending pictures: "
                                                 "check it, then try again."))
    return TableError(503, "no_frame", N_("The camera has not sent a picture yet."))


@bp.post("/api/tables/<table_id>/zones/markers")
def markers_to_zones(table_id: str):
    """The host lays the printed markers (``/camera/markers.png?table=``) at the zones'
    corners: the pairs in view set those zones, saved as if dragged."""
    from companion.camera import CameraStalled
    from vision.zones import ZoneError

    identify(tables(), table_id, need_host=True)
    runtime = camera()
    _watching(runtime, table_id)
    try:
        saved, found = runtime.zones_from_markers(table_id)
    except (LookupError, CameraStalled) as exc:
        raise _frame_refused(exc) from None
    except ZoneError as exc:
        if exc.field == "markers":
            raise TableError(422, "no_markers", N_(
                "No marker pair is in view: lay each zone's two markers at its corners, in "
                "the camera's view, and try again.")) from None
        raise _bad_zones(exc) from None
    return jsonify({**_saved(runtime, table_id, saved), "found": found})


@bp.get("/api/tables/<table_id>/camera/taught")
def taught(table_id: str):
    """The cards this table's deck was taught at the table, with how many photos each."""
    tables().get(table_id)
    return jsonify(camera().taught(table_id))


@bp.post("/api/tables/<table_id>/camera/taught")
def teach(table_id: str):
    """The host shows one card to the camera and names it: from then on every card the
    camera sees is compared with it, and named so where the match is clear (for a built-in
    deck: the table's own printing, which wins over the model)."""
    from companion.cards import DECKS, fold_taught_name, spelled
    from vision.store import MAX_NAME, BlankCard, NoCardInView

    identify(tables(), table_id, need_host=True)
    _camera_game(table_id)
    runtime = camera()
    label = body().get("label")
    deck = runtime.deck_for(table_id)
    if not isinstance(label, str) or not fold_taught_name(label) or len(label) > MAX_NAME:
        raise TableError(400, "bad_card_name", N_("Type the card's name (letters and digits)."))
    if deck in DECKS:
        label = spelled(deck, label)
        if label is None:
            raise TableError(400, "not_in_deck", N_("{card} is not a card of this deck."),
                             card=body()["label"])
    from companion.camera import CameraStalled, ModelReadsOther, QuestionGone

    _watching(runtime, table_id)
    confirmed = body().get("confirm") is True
    try:
        taught = runtime.teach(table_id, label, confirmed=confirmed)
    except ModelReadsOther as exc:
        # (nothing taught: the phone asks the host, and sends the card again confirmed)
        raise TableError(409, "model_reads_other",
                         N_("The camera reads this card as {reads} ({percent}%). Teach it "
                            "as {card} anyway?"),
                         reads=exc.reads, percent=round(100 * exc.confidence),
                         card=label) from None
    except QuestionGone:
        raise TableError(409, "question_gone",
                         N_("No card waits for that answer any more: show the card again, "
                            "then tap Teach.")) from None
    except BlankCard:
        raise TableError(422, "blank_card", N_("Nothing is printed on the card in view: show "
                                               "the camera the card's face, in good light, "
                                               "then tap Teach.")) from None
    except NoCardInView:
        raise TableError(422, "no_card", N_("No card is in view: lay the card alone in the "
                                            "camera's view, then tap Teach.")) from None
    except (LookupError, CameraStalled) as exc:
        raise _frame_refused(exc) from None
    # (the name as stored and listed: "Ataque três" is kept as ataque-tres)
    import base64

    # (and the card as the camera took it, for the phone to show)
    return jsonify({**runtime.taught(table_id), "label": spelled(deck, label) or
                    fold_taught_name(label), "photos": taught.photos,
                    "picture": "data:image/jpeg;base64," + base64.b64encode(
                        taught.jpeg).decode("ascii")})


@bp.delete("/api/tables/<table_id>/camera/taught/<label>")
def forget(table_id: str, label: str):
    """The host forgets a taught card (the built-in model reads it again, if there is one)."""
    identify(tables(), table_id, need_host=True)
    _camera_game(table_id)
    runtime = camera()
    if not runtime.forget(table_id, label):
        raise TableError(404, "not_taught", N_("That card was not taught."))
    return jsonify(runtime.taught(table_id))


@bp.get("/camera/preview.mjpg")
def preview():
    runtime = camera()
    return Response(runtime.preview(), mimetype="multipart/x-mixed-replace; boundary=frame")


@bp.get("/camera/snapshot.jpg")
def snapshot():
    jpeg = camera().snapshot()
    if jpeg is None:
        raise TableError(503, "no_frame", N_("The camera has not sent a picture yet."))
    resp = Response(jpeg, mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/camera")
def camera_page():
    """Set up the camera from a phone: the live picture, the zones to drag, the table (one
    whose game uses the camera: a score pad has nothing to show it)."""
    from flask import render_template

    service = tables()
    watched = [t for t in service.list_tables()
               if getattr(service.get(t["id"]).game, "camera_deck", None)]
    return render_template("camera.html", tables=watched)


def _sheet_zones() -> tuple[list[str] | None, dict[str, str]]:
    """The zones a marker sheet is for (``?table=<id>``: that table's, in order, and their
    labels for people); (None, {}) without a table."""
    from flask import request

    table_id = request.args.get("table")
    if not table_id:
        return None, {}
    tables().get(table_id)
    runtime = camera()
    names = [z["name"] for z in runtime.zones_for(table_id)]
    return names, runtime.zone_labels(table_id, names, gettext)


@bp.get("/camera/markers")
def markers_page():
    """The marker sheet as a page to print from the phone: each zone's two markers, 30 mm
    wide on paper, captioned in the phone's language with the zone's name as the camera
    page shows it (a seat's player, "Discard"): the PNG sheet's captions can print ASCII
    only, so a Chinese player's name, and every word in Chinese, were left out."""
    from flask import render_template
    from flask_babel import gettext

    from vision.zones import DEFAULT_NAMES

    names, labels = _sheet_zones()
    if names is None:
        names = DEFAULT_NAMES[:4]
    known = {"discard": N_("Discard"), "hand": N_("Hand"), "play-area": N_("Play area")}

    zones = [{"number": k + 1, "tl": 2 * k, "br": 2 * k + 1,
              "label": labels.get(name) or (gettext(known[name]) if name in known else name)}
             for k, name in enumerate(names)]
    return render_template("markers.html", zones=zones)


@bp.get("/camera/marker/<int:mid>.png")
def marker_png(mid: int):
    """One zone marker with its white margin (the page prints it 36 mm wide: 30 mm of
    marker)."""
    import cv2

    from vision.zones import MAX_ZONES, marker_image

    if not 0 <= mid < 2 * MAX_ZONES:
        raise TableError(404, "no_marker", N_("There is no such marker."))
    _ok, png = cv2.imencode(".png", marker_image(mid))
    resp = Response(png.tobytes(), mimetype="image/png")
    resp.headers["Cache-Control"] = "max-age=86400"
    return resp


@bp.get("/camera/markers.png")
def markers():
    """A printable sheet of ArUco markers that mark the zones on the table: with
    ``?table=<id>``, that table's zones in order, each captioned with its name (and its
    label, a seat's player, where cv2 can print it); else the default four."""
    import cv2

    from vision.zones import marker_sheet, printable

    names, labels = _sheet_zones()
    if names is not None:
        captions = []
        for name in names:
            label = printable(labels.get(name, ""))
            captions.append(f"{name} ({label})" if label else name)
        sheet = marker_sheet(len(captions), captions)
    else:
        sheet = marker_sheet()
    _ok, png = cv2.imencode(".png", sheet)
    return Response(png.tobytes(), mimetype="image/png")
