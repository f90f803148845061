"""The camera on the phones: its status, which table it watches, the zones, the live preview
(MJPEG with the cards and zones drawn), teaching the table's own cards, and the printable
ArUco marker sheet."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from companion.games.base import N_
from companion.table import TableError
from web.api import body, tables
from web.auth import identify

bp = Blueprint("camera", __name__)


def camera():
    runtime = current_app.extensions.get("camera")
    if runtime is None:
        raise TableError(503, "no_camera", N_("No camera is running on this companion."))
    return runtime


@bp.get("/api/camera")
def status():
    return jsonify(camera().status())


@bp.post("/api/tables/<table_id>/camera")
def watch(table_id: str):
    """The host points the camera at this table (its game's deck and zones)."""
    identify(tables(), table_id, need_host=True)
    if body().get("restart") is True:
        camera().restart(table_id)
    else:
        camera().bind(table_id)
    return jsonify(camera().status())


@bp.get("/api/tables/<table_id>/zones")
def get_zones(table_id: str):
    tables().get(table_id)
    return jsonify({"zones": camera().zones_for(table_id)})


@bp.put("/api/tables/<table_id>/zones")
def put_zones(table_id: str):
    """Zones as rectangles in fractions of the picture, dragged on a live snapshot."""
    identify(tables(), table_id, need_host=True)
    zones = body().get("zones")
    if not isinstance(zones, list) or not all(isinstance(z, dict) for z in zones):
        raise TableError(400, "bad_zones", N_("Zones are a list of names with rectangles."))
    try:
        saved = camera().set_zones(table_id, zones)
    except (ValueError, KeyError, TypeError):
        raise TableError(400, "bad_zones", N_("Each zone needs a name and a rectangle inside "
                                              "the picture; names must differ.")) from None
    return jsonify({"zones": saved})


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

    identify(tables(), table_id, need_host=True)
    runtime = camera()
    label = body().get("label")
    deck = runtime.deck_for(table_id)
    if not isinstance(label, str) or not fold_taught_name(label) or len(label) > 40:
        raise TableError(400, "bad_card_name", N_("Type the card's name (letters and digits)."))
    if deck in DECKS:
        label = spelled(deck, label)
        if label is None:
            raise TableError(400, "not_in_deck", N_("{card} is not a card of this deck."),
                             card=body()["label"])
    try:
        photos = runtime.teach(table_id, label)
    except LookupError:
        raise TableError(503, "no_frame", N_("The camera has not sent a picture yet.")) from None
    return jsonify({**runtime.taught(table_id), "label": label, "photos": photos})


@bp.delete("/api/tables/<table_id>/camera/taught/<label>")
def forget(table_id: str, label: str):
    """The host forgets a taught card (the built-in model reads it again, if there is one)."""
    identify(tables(), table_id, need_host=True)
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
    """Set up the camera from a phone: the live picture, the zones to drag, the table."""
    from flask import render_template

    return render_template("camera.html", tables=tables().list_tables())


@bp.get("/camera/markers.png")
def markers():
    """A printable sheet of ArUco markers that mark the zones on the table."""
    import cv2

    from vision.zones import marker_sheet

    _ok, png = cv2.imencode(".png", marker_sheet())
    return Response(png.tobytes(), mimetype="image/png")
