"""The phones' server: one asyncio event loop holds every connection; the Flask app answers
on a pool of worker threads, and the live streams wait on the loop, not on a thread each.

Why: waitress served every request, streams included, on its 48 threads: 48 phones holding
streams left none for a plain request (a page load timed out), a stream the phone had
dropped kept its thread until the next ping's write failed (15-45 s), and idle keep-alive
connections counted for an hour against its 100. Here a connection costs a few kilobytes,
a stream a subscription and no thread, a closed connection frees its stream at once
(``http.disconnect``), and an idle keep-alive connection is closed after a few seconds.

``CompanionASGI`` is an ASGI application (served by uvicorn, pure Python with h11: it runs
on the Pi's Python as it is): each request's body is read on the loop, the WSGI app runs on a
worker thread, and its answer is sent. A stream's view (web/stream.py) answers with a
:class:`web.live.LiveStream` named in the request's environ; its steps run on a small pool
of their own, and its waits are the loop's.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from web.live import WHOLE_BODY_KEY, LiveStream

SPOOL_BYTES = 1 << 20  # a request's body beyond this goes to a temporary file


class CompanionASGI:
    """The WSGI app ``wsgi`` served on an event loop (see the module's doc)."""

    def __init__(self, wsgi: Any, threads: int = 16, stream_threads: int = 4) -> None:
        self.wsgi = wsgi
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="web")
        # (the streams' steps apart: a burst of pushes does not queue the page loads)
        self.steps = ThreadPoolExecutor(stream_threads, thread_name_prefix="stream")

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.steps.shutdown(wait=False, cancel_futures=True)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            environ = wsgi_environ(scope, body)
            loop = asyncio.get_running_loop()
            # (the app's call and its body's chunks in one context, whatever thread runs
            # them: a body made under ``stream_with_context`` reads the request's context)
            context = contextvars.copy_context()
            status, headers, body_iter, live = await loop.run_in_executor(
                self.pool, context.run, self._call, environ)
            # (the request's body stays open while its answer is made)
            await send({"type": "http.response.start", "status": status,
                        "headers": headers})
            if live is not None:
                await self._drive(live, receive, send)
            else:
                await self._body(body_iter, receive, send, context)

    async def _body(self, out: Any, receive: Any, send: Any,
                    context: contextvars.Context) -> None:
        """A WSGI body, chunk by chunk as the app makes them (a page: one chunk; a body that
        streams, each as it comes, on a worker thread), until the phone goes."""
        if isinstance(out, Whole):
            with contextlib.suppress(OSError):  # (the phone went as it was written to)
                await send({"type": "http.response.body", "body": out.data,
                            "more_body": False})
            return
        loop = asyncio.get_running_loop()
        gone = asyncio.ensure_future(_disconnected(receive))
        chunks = iter(out)
        try:
            while not gone.done():
                chunk = await loop.run_in_executor(self.pool, context.run, next, chunks, None)
                if chunk is None:
                    await send({"type": "http.response.body", "body": b"",
                                "more_body": False})
                    break
                if chunk:
                    await send({"type": "http.response.body", "body": chunk,
                                "more_body": True})
        except OSError:
            pass  # (the phone went as it was written to)
        finally:
            gone.cancel()
            close = getattr(out, "close", None)
            if close is not None:
                await loop.run_in_executor(self.pool, context.run, close)

    def _call(self, environ: dict) -> tuple[int, list, Any, LiveStream | None]:
        """The WSGI app's status, headers and body (on a worker thread); a live stream's
        body is closed at once, and the stream left for the loop to drive."""
        said: dict[str, Any] = {}
        written: list[bytes] = []

        def start_response(status: str, headers: list, exc_info: Any = None):
            if exc_info is not None and said:
                raise exc_info[1].with_traceback(exc_info[2])
            said["status"], said["headers"] = status, headers
            return written.append

        out = self.wsgi(environ, start_response)
        live = environ.get(LiveStream.ENVIRON_KEY)
        if live is not None:
            live.taken = True
            close = getattr(out, "close", None)
            if close is not None:
                close()
            out = []
        elif written:  # (the old write() callable: what it wrote comes first)
            out = _Chained(written, out)
        if live is None and environ.get(WHOLE_BODY_KEY):
            # (a whole body read here, in this turn: each chunk was a turn of the pool, and
            # each turn a wait for a thread and for the loop, 4 a JSON answer: under 200
            # phones' streams an action's answer took 75 ms, 1.2 ms of it the app's)
            body = out
            try:
                out = Whole(b"".join(body))
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1"))
                   for k, v in said["headers"]]
        return int(said["status"].split(" ", 1)[0]), headers, out, live

    async def _drive(self, live: LiveStream, receive: Any, send: Any) -> None:
        """Run a stream until it ends, the phone goes (its connection closed: freed at
        once) or the server stops it (web/stream.end_streams puts an end in its inbox)."""
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()
        live.inbox.on_put(lambda: loop.call_soon_threadsafe(woken.set))
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while not gone.done():
                said, wait = await loop.run_in_executor(self.steps, live.step)
                if said and not gone.done():
                    await send({"type": "http.response.body",
                                "body": "".join(said).encode(), "more_body": True})
                if wait is None:
                    break
                await _wait(live, woken, gone, wait.seconds)
            if not gone.done():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # (the phone went as it was written to)
        finally:
            live.inbox.on_put(None)
            gone.cancel()
            await loop.run_in_executor(self.steps, live.end)


class Whole:
    """A body read whole on the worker thread (``WHOLE_BODY_KEY``): sent as it is."""

    def __init__(self, data: bytes) -> None:
        self.data = data


class _Chained:
    """What the app wrote, then its body (closed as its body)."""

    def __init__(self, first: list[bytes], out: Any) -> None:
        self.first, self.out = first, out

    def __iter__(self):
        yield from self.first
        yield from self.out

    def close(self) -> None:
        close = getattr(self.out, "close", None)
        if close is not None:
            close()


async def _wait(live: LiveStream, woken: asyncio.Event, gone: asyncio.Future,
                seconds: float) -> None:
    """Until the inbox has something, the phone went, or ``seconds`` passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not live.inbox.ready() and not gone.done():
        left = deadline - loop.time()
        if left <= 0:
            return
        woken.clear()
        if live.inbox.ready():
            return
        waiter = asyncio.ensure_future(woken.wait())
        try:
            await asyncio.wait({waiter, gone}, timeout=left,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def wsgi_environ(scope: dict, body: Any) -> dict[str, Any]:
    """PEP 3333's environ for an ASGI HTTP request."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode().decode("latin-1"),
        "PATH_INFO": scope["path"].encode().decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "SERVER_PROTOCOL": "HTTP/" + scope.get("http_version", "1.1"),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        key = name if name in ("CONTENT_TYPE", "CONTENT_LENGTH") else "HTTP_" + name
        environ[key] = environ[key] + "," + value if key in environ else value
    return environ
