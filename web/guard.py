"""The API's edge: what every request must be before any table hears it.

Text that is not valid Unicode (a lone UTF-16 surrogate, ``"\\ud800"``, which JSON allows)
is refused here, in whatever field it comes: stored, it cannot be encoded as UTF-8, and a
player's name, a score pad's note or an UNO custom rule holding one broke every phone's live
updates, the table's export or its page for good (an undo did not mend the export).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import N_
from companion.table import TableError

BAD_TEXT = N_("The request holds text that is not valid Unicode (a broken character): "
              "type it again.")


def _valid(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # (a lone surrogate: the only str UTF-8 cannot hold)
        return False
    return True


def check_text(data: Any) -> None:
    """Raise a 400 ``bad_text`` where any string in ``data`` (a key or a value, at any
    depth) is not valid Unicode. Iterative: a body nested thousands deep is already refused
    by the parser, but this walk should never be the one to run out of stack."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if not _valid(item):
                raise TableError(400, "bad_text", BAD_TEXT)
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)


def _check_body() -> None:
    """Every JSON body under /api is read and checked here, before the route runs: a route
    that asks something else first (the camera's, "no camera running") would otherwise
    answer before the text was judged."""
    from flask import request

    from web.api import body

    if request.path.startswith("/api/") and request.get_data(cache=True):
        body()


# Every answer's: the pages run only the companion's own scripts and styles (no inline
# script, handler or style attribute: app.js sets styles through the CSSOM), load nothing
# from elsewhere, and are framed by no other site (a page framed by a hostile one could be
# tapped through: clickjacking). The camera page shows its pictures as data: and blob: URLs.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; "
       "img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # (a table's address names it: it is not told to any site a page links to)
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # (frame-ancestors for browsers older than CSP 2)
}


def _security_headers(resp):
    for name, value in SECURITY_HEADERS.items():
        resp.headers.setdefault(name, value)
    return resp


def init_app(app) -> None:
    app.before_request(_check_body)
    app.after_request(_security_headers)
