"""The API's edge: what every request must be before any table hears it.

Text that is not valid Unicode (a lone UTF-16 surrogate, ``"\\ud800"``, which JSON allows)
is refused here, in whatever field it comes: stored, it cannot be encoded as UTF-8, and a
player's name, a score pad's note or an UNO custom rule holding one broke every phone's live
updates, the table's export or its page for good (an undo did not mend the export).
"""

from __future__ import annotations

import ipaddress
import socket
from functools import cache
from typing import Any
from urllib.parse import urlsplit

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


BAD_HOST = N_("This companion does not answer to that name: open it by its address.")
CROSS_ORIGIN = N_("Only the companion's own pages may do that.")
NOT_JSON = N_("Send the request body as JSON.")
UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


@cache
def _own_names() -> frozenset[str]:
    """This machine's names: the phones open it by its address, localhost or its mDNS name."""
    name = socket.gethostname().lower()
    # (not getfqdn: on a Pi with no DNS it waits for a lookup to time out)
    return frozenset({"localhost", name, name + ".local", name.split(".")[0] + ".local"})


def _hostname(host: str) -> str:
    """The name in a Host header (or an Origin's netloc), without its port or brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def host_allowed(host: str, config) -> bool:
    """Whether the companion answers to this Host. Any IP address (DNS rebinding needs a
    name that an attacker's DNS answers: an address is no such name), localhost, this
    machine's own names, public_url's host, and the configured ``allowed_hosts``."""
    name = _hostname(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name in _own_names() or name.endswith(".localhost"):
        return True
    extra = {h.strip().lower() for h in str(config.allowed_hosts or "").replace(",", " ")
             .split()}
    if "*" in extra or name in {_hostname(h) for h in extra}:
        return True
    public = urlsplit(config.public_url or "").hostname
    return bool(public) and name == public.lower()


def _check_request() -> None:
    """Who may ask: a page of another site must not act here.

    * The Host must be one of the companion's names (``host_allowed``): a hostile page whose
      name was rebound to the companion's address read the table list as its own origin.
    * A state-changing request from a browser must come from a page of this origin (its
      ``Origin``, or ``Sec-Fetch-Site``): any web page a phone visited could create tables,
      with JSON sent as text/plain. A request without either (curl, a script, the tests'
      client) is no browser's: it is heard.
    * A body under /api is JSON only as ``application/json`` (which a page of another site
      cannot send without the browser asking first, and no CORS answer is ever given)."""
    from flask import current_app, request

    if not host_allowed(request.host, current_app.config["COMPANION"]):
        raise TableError(400, "bad_host", BAD_HOST)
    if request.method in UNSAFE:
        origin = request.headers.get("Origin")
        if origin is not None:
            if urlsplit(origin).netloc.lower() != request.host.lower():  # (and "null")
                raise TableError(403, "cross_origin", CROSS_ORIGIN)
        elif request.headers.get("Sec-Fetch-Site") in ("cross-site", "same-site"):
            raise TableError(403, "cross_origin", CROSS_ORIGIN)
    if request.path.startswith("/api/") and request.get_data(cache=True) and \
            request.mimetype != "application/json":
        raise TableError(415, "bad_content_type", NOT_JSON)


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
    # (a table's address names it: it is told to no other site; "no-referrer" made Chrome
    # send "Origin: null" with the page's own forms, which the origin check refuses)
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # (frame-ancestors for browsers older than CSP 2)
}


def _security_headers(resp):
    for name, value in SECURITY_HEADERS.items():
        resp.headers.setdefault(name, value)
    return resp


def init_app(app) -> None:
    app.before_request(_check_request)
    app.before_request(_check_body)
    app.after_request(_security_headers)
