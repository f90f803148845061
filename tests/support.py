"""Real ``companion serve`` processes on loopback, for the tests that need the real server."""

from __future__ import annotations

import http.client
import json
import os
import selectors
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A ``companion serve`` child process; ``start`` returns once it accepts connections."""

    def __init__(self, data_dir: Path, camera: str = "off", speech: str = "silent") -> None:
        self.data_dir = data_dir
        self.camera = camera
        self.speech = speech
        self.port = self._picked = free_port()
        self.proc: subprocess.Popen | None = None
        self.startup = ""

    def start(self, timeout: float = 20.0) -> Server:
        """Start it; a port of ours taken meanwhile is chosen again (``free_port`` lets the
        port go before the child binds it: another test's connection or server, on a
        machine running several suites, may take it in between)."""
        for _ in range(3):
            try:
                return self._start(timeout)
            except RuntimeError as exc:
                if self.port != self._picked or "the address is in use" not in str(exc):
                    raise  # (a port the test chose, or another failure)
                self.port = self._picked = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> Server:
        env = {**os.environ, "COMPANION_DATA_DIR": str(self.data_dir),
               "GPIOZERO_PIN_FACTORY": "mock", "COMPANION_SPEECH": self.speech,
               "COMPANION_CONFIG": str(self.data_dir / "none.toml"),
               "COMPANION_CAMERA": self.camera}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-keys", "--no-qr"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        # (the pipe read as it comes, not by readline: a buffered readline may take several
        # lines out of the pipe at once, and select then waits for data already read)
        fd = self.proc.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        said = b""
        while time.monotonic() < deadline:
            if not sel.select(timeout=deadline - time.monotonic()):
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            said += chunk
            if b"Serving on" in said:
                self.startup = said.decode(errors="replace")  # for tests that read it
                return self
        self.stop()
        raise RuntimeError("server did not start:\n" + said.decode(errors="replace"))

    def conn(self, timeout: float = 10.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers=None):
        c = self.conn()
        try:
            c.request(method, path, body=None if body is None else json.dumps(body),
                      headers={"Content-Type": "application/json", **(headers or {})})
            r = c.getresponse()
            return r.status, json.loads(r.read() or b"null")
        finally:
            c.close()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
