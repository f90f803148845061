"""Real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright.

Never ``playwright install``: the browser is the system's. In CI a missing browser fails the
run; on a developer's machine without it the browser tests are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright gives the browser a fresh, temporary profile of its own.
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(browser):
    """A new phone (browser context) per call: ``phone(locale="pt-BR")``."""
    contexts = []

    def make(locale: str = "en-US", width: int | None = None, scheme: str | None = None):
        """``width``: a smaller phone (740 px tall); ``scheme``: "dark" or "light"."""
        opts = dict(PHONE)
        if width is not None:
            opts["viewport"] = {"width": width, "height": 740}
        if scheme is not None:
            opts["color_scheme"] = scheme
        ctx = browser.new_context(locale=locale, **opts)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors
        return page

    yield make
    for c in contexts:
        c.close()


def open_as_host(page, url: str, table_id: str, pin: str = "2468") -> None:
    """The table's page on the host's phone: the PIN kept on it (as the phone that created
    the table keeps it), watching rather than holding a seat."""
    page.goto(url)
    page.evaluate(f"localStorage.setItem('tc.pin.{table_id}', JSON.stringify('{pin}'))")
    page.reload()
    page.get_by_text("Just watch").click()


def camera_table(server, game: str, players: list[str], zones: list[dict],
                 options: dict | None = None, pin: str = "2468") -> str:
    """A table of ``game`` whose zones the server's camera watches, the camera parked on a
    score pad until then (it runs from the start; the caller restarts it on the table, so a
    replayed video plays from its start for the table). Returns the table's id."""
    host = {"X-Host-Pin": pin}
    _, pad = server.request("POST", "/api/tables", {"players": ["x"], "pin": pin})
    assert server.request("POST", f"/api/tables/{pad['table']['id']}/camera", {}, host)[0] == 200
    body = {"game": game, "players": players, "pin": pin}
    if options is not None:
        body["options"] = options
    _, created = server.request("POST", "/api/tables", body)
    tid = created["table"]["id"]
    assert server.request("PUT", f"/api/tables/{tid}/zones", {"zones": zones}, host)[0] == 200
    return tid
