"""The OpenAPI 3.1 document of the JSON API, with an example for every action of every game."""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.games.registry import all_games

ERROR = {"$ref": "#/components/schemas/Error"}


def _err(desc: str) -> dict[str, Any]:
    return {"description": desc, "content": {"application/json": {"schema": ERROR}}}


def _json(schema: dict[str, Any], example: Any = None, desc: str = "OK") -> dict[str, Any]:
    content: dict[str, Any] = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"description": desc, "content": {"application/json": content}}


def _action_examples() -> dict[str, Any]:
    examples = {}
    for gid, game in all_games().items():
        for spec in game.actions:
            examples[f"{gid}.{spec.type}"] = {
                "summary": f"{gid}: {spec.summary}" + (" (host PIN)" if spec.host_only else ""),
                "value": {"action": spec.example, "version": 3},
            }
    return examples


def build_openapi() -> dict[str, Any]:
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
    auth = [{}, {"player": []}, {"host": []}]
    errors = {"400": _err("Malformed request"), "401": _err("Bad player token"),
              "403": _err("Not allowed (host PIN needed, or not your seat)"),
              "404": _err("No such table"), "409": _err("Stale version or seat taken"),
              "413": _err("Body too large"), "422": _err("The rules refuse the action"),
              "429": _err("Too many wrong PINs")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table Companion API", "version": __version__,
                 "description": "Tables of physical games on an event log. Players act with "
                                "the token they get on joining; the host with the PIN."},
        "components": {
            "securitySchemes": {
                "player": {"type": "http", "scheme": "bearer"},
                "host": {"type": "apiKey", "in": "header", "name": "X-Host-Pin"},
            },
            "schemas": {
                "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                    "type": "object", "required": ["code", "message"],
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
                "Action": {"type": "object", "required": ["type"],
                           "properties": {"type": {"type": "string"}},
                           "additionalProperties": True},
            },
        },
        "paths": {
            "/api/games": {"get": {"summary": "The games, their options and actions",
                                   "responses": {"200": _json({"type": "object"})}}},
            "/api/tables": {
                "get": {"summary": "List the tables", "responses": {"200": _json(
                    {"type": "object"})}},
                "post": {
                    "summary": "Create a table (the caller becomes its host)",
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": {"type": "object", "required": ["players", "pin"],
                                   "properties": {"game": {"type": "string"},
                                                  "title": {"type": "string"},
                                                  "players": {"type": "array",
                                                              "items": {"type": "string"}},
                                                  "pin": {"type": "string",
                                                          "pattern": "^[0-9]{4,8}$"},
                                                  "options": {"type": "object"}}},
                        "example": {"game": "scorepad", "title": "Friday",
                                    "players": ["Ana", "Bruno", "Chen"], "pin": "2468",
                                    "options": {"target": 500}}}}},
                    "responses": {"201": _json({"type": "object"}), **errors}}},
            "/api/tables/by-code/{code}": {"get": {
                "summary": "Find a table by its short code",
                "parameters": [{"name": "code", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}": {"get": {
                "summary": "The public view, the caller's own view and (host) the full state",
                "parameters": [table_id], "security": auth,
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/join": {"post": {
                "summary": "Take a seat; returns the token this phone acts with",
                "parameters": [table_id],
                "requestBody": {"content": {"application/json": {
                    "schema": {"type": "object", "required": ["seat"],
                               "properties": {"seat": {"type": "integer"},
                                              "pin": {"type": "string"}}},
                    "example": {"seat": 1}}}},
                "responses": {"201": _json({"type": "object"},
                                           {"token": "…", "seat": 1}), **errors}}},
            "/api/tables/{table_id}/host": {"post": {
                "summary": "Check the host PIN", "parameters": [table_id],
                "security": [{"host": []}],
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/actions": {"post": {
                "summary": "Submit an action for your seat (or, host, for any seat)",
                "parameters": [table_id], "security": auth,
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"type": "object", "required": ["action"], "properties": {
                        "action": {"$ref": "#/components/schemas/Action"},
                        "version": {"type": "integer",
                                    "description": "the version your phone saw; refused "
                                                   "with 409 if the table moved on"},
                        "as_seat": {"type": "integer", "description": "host only"}}},
                    "examples": _action_examples()}}},
                "responses": {"200": _json({"type": "object"}, {"version": 4, "events": []}),
                              **errors}}},
            "/api/tables/{table_id}/undo": {"post": {
                "summary": "Undo the last action still in force (host)",
                "parameters": [table_id], "security": [{"host": []}],
                "requestBody": {"content": {"application/json": {"example": {"version": 4}}}},
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/history": {"get": {
                "summary": "The log, as far as the caller may read it",
                "parameters": [table_id], "security": auth,
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/stream": {"get": {
                "summary": "Server-Sent Events: the caller's view after every change it "
                           "may see (a browser: ?ticket= from stream-ticket; other "
                           "clients: the usual headers)",
                "parameters": [table_id, {"name": "ticket", "in": "query",
                                          "schema": {"type": "string"}}],
                "security": auth,
                "responses": {"200": {"description": "text/event-stream"}, **errors}}},
            "/api/tables/{table_id}/stream-ticket": {"post": {
                "summary": "A single-use ticket, valid 60 s, to open one stream as the "
                           "caller (EventSource sends no headers; no secret goes in an "
                           "address)",
                "parameters": [table_id], "security": auth,
                "responses": {"201": _json({"type": "object"}, {"ticket": "…",
                                                                "expires_s": 60}),
                              **errors}}},
            "/api/tables/{table_id}/export.csv": {"get": {
                "summary": "Rounds and totals as CSV", "parameters": [table_id],
                "responses": {"200": {"description": "text/csv"}, **errors}}},
            "/api/tables/{table_id}/export.json": {"get": {
                "summary": "The table, its view and its history as JSON",
                "parameters": [table_id], "responses": {"200": _json({"type": "object"}),
                                                        **errors}}},
            "/api/tables/{table_id}/slap": {"post": {
                "summary": "A phone's on-screen slap/buzz button, for its own seat; judged in "
                           "the same race as the GPIO buttons (202 queued); a press the rules "
                           "refuse anyway is refused at once (409 no_race, or their reason)",
                "parameters": [table_id], "security": [{"player": []}],
                "responses": {"200": _json({"type": "object"}),
                              "202": _json({"type": "object"}, {"queued": True}), **errors}}},
            "/api/tables/{table_id}/camera": {"post": {
                "summary": "Point the camera at this table (host); restart: open it again",
                "parameters": [table_id], "security": [{"host": []}],
                "requestBody": {"content": {"application/json": {"example": {"restart": False}}}},
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/zones": {
                "get": {"summary": "The zones the camera watches for this table; game_zones: "
                                   "the zone names its game reacts to, in order ([]: any); "
                                   "zone_labels: a label for people where there is one (a "
                                   "seat's player)",
                        "parameters": [table_id],
                        "responses": {"200": _json({"type": "object"}, {
                            "zones": [{"name": "discard-0", "rect": [0.01, 0.15, 0.323, 0.85]}],
                            "game_zones": ["discard-0", "discard-1", "discard-2"],
                            "zone_labels": {"discard-0": "Ana", "discard-1": "Bruno",
                                            "discard-2": "Chen"}}), **errors}},
                "put": {"summary": "Set the zones (host): 1 to 16, each a name (1-40 characters, "
                                   "distinct) and a rectangle [x0, y0, x1, y1] in fractions of "
                                   "the picture (0..1, each side at least 0.02); 400 bad_zones "
                                   "saves nothing; unused: names the game never reacts to",
                        "parameters": [table_id], "security": [{"host": []}],
                        "requestBody": {"required": True, "content": {"application/json": {
                            "example": {"zones": [{"name": "discard",
                                                   "rect": [0.3, 0.25, 0.7, 0.75]}]}}}},
                        "responses": {"200": _json({"type": "object"}, {
                            "zones": [{"name": "discard", "rect": [0.3, 0.25, 0.7, 0.75]},
                                      {"name": "bank", "rect": [0.8, 0.1, 0.95, 0.4]}],
                            "unused": ["bank"]}), **errors}}},
            "/api/tables/{table_id}/zones/markers": {"post": {
                "summary": "Set the zones from the printed markers in view (host): pair k marks "
                           "the table's k-th zone, as /camera/markers.png?table= prints them; "
                           "zones whose pair is not in view keep their rectangle. 409 "
                           "camera_lost, 503 no_frame, 422 no_markers (no complete pair)",
                "parameters": [table_id], "security": [{"host": []}],
                "responses": {"200": _json({"type": "object"}, {
                    "zones": [{"name": "discard", "rect": [0.3, 0.25, 0.7, 0.75]}],
                    "unused": [], "found": 1}),
                    **errors, "409": _err("The camera stopped sending pictures (camera_lost)"),
                    "422": _err("No complete marker pair in view (no_markers)"),
                    "503": _err("No camera, or no picture yet")}}},
            "/api/tables/{table_id}/camera/taught": {
                "get": {"summary": "The cards taught at the table for this table's deck",
                        "parameters": [table_id],
                        "responses": {"200": _json({"type": "object"}, {
                            "deck": "uno", "cards": {"red-7": 2}}), **errors}},
                "post": {"summary": "Teach a card (host): the largest card the camera sees now "
                                    "(409 camera_lost: its latest picture is too old; 503 "
                                    "no_frame: none yet)",
                         "parameters": [table_id], "security": [{"host": []}],
                         "requestBody": {"required": True, "content": {"application/json": {
                             "example": {"label": "red-7"}}}},
                         "responses": {"200": _json({"type": "object"}), **errors,
                                       "409": _err("The camera stopped sending pictures"),
                                       "503": _err("No camera, or no picture yet")}}},
            "/api/tables/{table_id}/camera/taught/{label}": {"delete": {
                "summary": "Forget a taught card (host)",
                "parameters": [table_id, {"name": "label", "in": "path", "required": True,
                                          "schema": {"type": "string"}}],
                "security": [{"host": []}],
                "responses": {"200": _json({"type": "object"}), **errors}}},
            "/api/tables/{table_id}/camera/pause": {"post": {
                "summary": "Pause (on: true) or resume (on: false) the camera's plays at the "
                           "table it watches (host): while paused, at most 5 minutes, the cards "
                           "it sees reach no game (a card held up to be taught mid-game); the "
                           "phones hear camera_paused and camera_resumed. 409 not_watched: it "
                           "watches another table",
                "parameters": [table_id], "security": [{"host": []}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "example": {"on": True}}}},
                "responses": {"200": _json({"type": "object"}, {"paused_s": 300.0}), **errors,
                              "409": _err("The camera watches another table (not_watched)")}}},
            "/api/camera": {"get": {
                "summary": "The camera: source, kind (picamera2, webcam, video, replay), "
                           "wanted (the camera asked for), fallback (the sample replay stands "
                           "in for it), table, zones, top card per zone, staleness, lost (no "
                           "frame for the watcher's 2 s), the last frame error, whether it "
                           "shows no colour, what to fix in the picture (view: dark, bright, "
                           "blurred, small)",
                "responses": {"200": _json({"type": "object"}, {
                    "running": True, "source": "ReplaySource", "kind": "replay",
                    "wanted": "opencv:/dev/video9", "fallback": True, "error": None,
                    "table": "t1", "zones": [], "top_cards": {"discard": "red-7"},
                    "stale_ms": 40.0, "lost": False, "frame_error": None, "read_error": None,
                    "colourless": False, "view": []}), "503": _err("No camera")}}},
            "/camera/markers.png": {"get": {
                "summary": "A printable A4 sheet of ArUco markers: with ?table=, that table's "
                           "zones in order, captioned with their names (and a seat's player)",
                "parameters": [{"name": "table", "in": "query", "required": False,
                                "schema": {"type": "string"}}],
                "responses": {"200": {"description": "image/png"}, **errors}}},
            "/api/tables/{table_id}/qr.svg": {"get": {
                "summary": "QR code of the join URL", "parameters": [table_id],
                "responses": {"200": {"description": "image/svg+xml"}, **errors}}},
        },
    }
