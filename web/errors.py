"""Every error is a clear, translated answer: JSON ``{"error": {code, message}}`` under /api,
a small page elsewhere. Nothing a phone sends may produce a 500 with a traceback."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

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


# The storage failing (the SD card full, the file system remounted read-only): nothing was
# committed, so nothing is lost, and the companion recovers by itself once it is mended. The
# phone is told what is wrong, in its language, and the log gets one line, not a traceback
# for every request (a full card filled the journal with them).
STORAGE = {
    sqlite3.SQLITE_FULL: ("storage_full", N_(
        "The companion's storage is full: nothing was saved. Free some space on it, then "
        "try again.")),
    sqlite3.SQLITE_READONLY: ("storage_read_only", N_(
        "The companion cannot write to its storage (it is read-only): nothing was saved. "
        "Check its storage, then try again.")),
}
STORAGE_OTHER = ("storage_error", N_(
    "The companion could not save to its storage: nothing was saved. Try again in a moment."))
LOG_EVERY_S = 60.0  # (one line a minute per kind of failure, while it lasts)
_logged: dict[str, float] = {}
_log_lock = threading.Lock()


def storage_problem(exc: BaseException) -> tuple[str, str] | None:
    """(code, message) where ``exc`` is the storage failing, else None (a bug)."""
    import errno

    if isinstance(exc, sqlite3.Error) and not isinstance(
            exc, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return STORAGE.get(code & 0xFF, STORAGE_OTHER)
        text = str(exc).lower()
        if "full" in text:
            return STORAGE[sqlite3.SQLITE_FULL]
        if "readonly" in text or "read-only" in text:
            return STORAGE[sqlite3.SQLITE_READONLY]
        return STORAGE_OTHER
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return STORAGE[sqlite3.SQLITE_FULL]
    if isinstance(exc, OSError) and exc.errno == errno.EROFS:
        return STORAGE[sqlite3.SQLITE_READONLY]
    return None


def _log_once(code: str, exc: BaseException, clock=time.monotonic) -> None:
    now = clock()
    with _log_lock:
        if now - _logged.get(code, -LOG_EVERY_S) < LOG_EVERY_S:
            return
        _logged[code] = now
    log.error("storage failing (%s): %s; nothing was saved (on %s %s)", code, exc,
              request.method, request.path)


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
    def unexpected(exc: Exception):
        problem = storage_problem(exc)
        if problem is not None:
            _log_once(problem[0], exc, app.config.get("STORAGE_LOG_CLOCK") or time.monotonic)
            resp = app.make_response(error_response(503, Rejection(*problem)))
            resp.headers["Retry-After"] = "10"
            return resp
        # a bug; logged, never shown raw
        log.exception("unexpected error on %s", request.path)  # pragma: no cover
        code, message = HTTP_MESSAGES[500]
        return error_response(500, Rejection(code, message))
