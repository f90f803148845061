"""Versus refereed through a real ``companion serve`` camera: a replay video of three discard
piles of picture cards nobody taught the software (drawn like tests/system/
test_versus_camera.py), the phones show the piles the camera saw, and a phone's slap on the
pair the camera saw is right.

The server's camera starts with the video; it is parked on a score pad until the Versus
table has its zones, then restarted on it, so the video plays from its start for the table.
"""

from __future__ import annotations

import cv2
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import camera_table
from tests.system.test_versus_camera import SIZE, ZONES, render

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PIN = {"X-Host-Pin": "2468"}
FPS = 10
# (seconds, seat, picture): Ana and Chen show the same picture from 4 s on
FLIPS = [(2, 0, 0), (3, 1, 1), (4, 2, 0)]


def write_video(path) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    tops = [None, None, None]
    for i in range(FPS * 40):  # the piles then stay as they are (the replay loops)
        for n, (at, seat, picture) in enumerate(FLIPS):
            if i == at * FPS:
                tops[seat] = (picture, n + 1)
        writer.write(render(i * 100, tops))
    writer.release()


def test_the_camera_sees_the_piles_and_a_slap_on_its_pair_is_right(server_factory, phone,
                                                                   tmp_path):
    video = tmp_path / "versus.avi"
    write_video(video)
    server = server_factory(camera=f"replay:{video}")
    tid = camera_table(server, "versus", ["Ana", "Bruno", "Chen"], ZONES)

    bruno = phone("en-US")
    # (each live stream the page opens asks the camera's status once it is heard; both
    # answers, the watcher's and Bruno's, are in before the camera turns to this table, as
    # the box below is open for a camera that watched another table when Bruno joined)
    def camera_asked(r):
        return r.url.endswith("/api/camera")
    with bruno.expect_response(camera_asked):
        bruno.goto(f"{server.url}/t/{tid}?join=1")
    with bruno.expect_response(camera_asked):
        bruno.locator("#seats button", has_text="Bruno").click()
    expect(bruno.locator("#whoami")).to_have_text("You are Bruno")

    status, cam = server.request("POST", f"/api/tables/{tid}/camera", {"restart": True}, PIN)
    assert status == 200 and cam["table"] == tid

    # the camera names the unknown pictures by cluster: Ana's and Chen's are one picture
    top = '.vs-seat[data-seat="{}"] .vs-top b'
    expect(bruno.locator(top.format(2))).to_have_text("picture 1", timeout=20000)
    expect(bruno.locator(top.format(0))).to_have_text("picture 1")
    expect(bruno.locator(top.format(1))).to_have_text("picture 2")

    bruno.locator("#vs-slap").tap()
    expect(bruno.locator("#vs-head")).to_have_text("You win the slap!")

    # the box to report a pile by hand was open when Bruno joined (the camera watched
    # another table then); opened now that the camera watches this one, it is closed, and
    # it stays as Bruno leaves it
    report = bruno.locator("#vs-report")
    expect(report).to_have_attribute("open", "")
    bruno.reload()
    expect(bruno.locator("#whoami")).to_have_text("You are Bruno")
    expect(report).to_be_visible()
    expect(report).not_to_have_attribute("open", "")
    report.locator("summary").click()
    expect(report).to_have_attribute("open", "")
    # (the browser fires "toggle", which keeps the choice, in a task of its own: a reload
    # at once could come first, where no player's hand is that quick; an arrow function,
    # which Playwright evaluates once: a bare expression is evaluated again at each poll,
    # in the page, and the page's CSP refuses that)
    bruno.wait_for_function("() => localStorage.getItem('tc.versus.report-open') === 'true'")
    bruno.reload()
    expect(report).to_be_visible()
    expect(bruno.locator("#vs-palette button").first).to_be_visible()
    expect(report).to_have_attribute("open", "")

    _, hist = server.request("GET", f"/api/tables/{tid}/history")
    seen = [e["body"] for e in hist["history"] if e["actor"]["source"] == "camera"]
    assert [m["seat"] for m in seen[:3]] == [0, 1, 2]
    assert all(m["card"] is None and len(m["signature"]) > 100 for m in seen[:3])
    assert bruno.js_errors == []
