"""The phone web app: ``create_app`` builds it around a :class:`TableService` (flaskr style).

The web layer only turns HTTP into table calls and pushes state by Server-Sent Events; the
rules, the log and the locking live in ``companion``.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.config import Config
from companion.table import TableService


def create_app(service: TableService, config: Config | None = None,
               test_config: dict[str, Any] | None = None) -> Flask:
    config = config or Config()
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=config.max_body_bytes,
        JSON_SORT_KEYS=False,
        COMPANION=config,
        SSE_HEARTBEAT_S=15.0,
    )
    if test_config:
        app.config.update(test_config)
    app.extensions["tables"] = service

    from web import api, camera, errors, guard, i18n, pages, players, stream

    app.extensions["streams"] = stream.Streams()  # (ended when the server stops)

    from flask import request

    from web.live import WHOLE_BODY_KEY

    # (registered first, so run last of the app's: the answer as it leaves)
    @app.after_request
    def mark_whole_body(response):
        if not response.is_streamed:
            request.environ[WHOLE_BODY_KEY] = True
        return response

    i18n.init_app(app)
    errors.init_app(app)
    guard.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(camera.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(players.bp)
    return app
