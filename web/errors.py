"""Every error is a clear, translated answer: JSON ``{"error": {code, message}}`` under /api,
a small page elsewhere. Nothing a phone sends may produce a 500 with a traceback."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from companion.games.base import N_, Rejection
from companion.table import TableError
from web.i18n import translate_rejection

log = logging.getLogger(__name__)

HTTP_MESSAGES = {
    400: ("bad_request", N_("The request could not be understood.")),
    404: ("not_found", N_("There is nothing here.")),
    405: ("method_not_allowed", N_("That method is not allowed here.")),
    413: ("too_large", N_("The request is too large.")),
    415: ("bad_json", N_("Send the request body as JSON.")),
    500: ("internal", N_("Something went wrong on the companion. Nothing was changed.")),
}


# the paths outside /api that answer data, not a page (the API documents their errors as
# JSON: /camera/markers.png; a phone's script reads them)
DATA_PATHS = ("/camera/markers.png", "/camera/marker/", "/camera/snapshot.jpg",
              "/camera/preview.mjpg")


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.startswith(DATA_PATHS)


def error_response(status: int, rejection: Rejection):
    body = {"error": {"code": rejection.code, "message": translate_rejection(rejection)}}
    if wants_json():
        return jsonify(body), status
    return render_template("error.html", status=status, error=body["error"]), status


def init_app(app: Flask) -> None:
    @app.errorhandler(TableError)
    def table_error(exc: TableError):
        return error_response(exc.status, exc.rejection)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        status = exc.code or 500
        code, message = HTTP_MESSAGES.get(status, ("http_error", N_("The request failed.")))
        resp, status = error_response(status, Rejection(code, message))
        resp = app.make_response((resp, status))
        # (a 405 names the methods the path takes, as HTTP asks: they were dropped)
        for name, value in exc.get_headers():
            if name.lower() != "content-type":
                resp.headers[name] = value
        return resp

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # pragma: no cover - a bug; logged, never shown raw
        log.exception("unexpected error on %s", request.path)
        code, message = HTTP_MESSAGES[500]
        return error_response(500, Rejection(code, message))
