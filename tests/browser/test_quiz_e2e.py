"""The quiz buzzers at a table of three phones and the host, in real headless Chromium.

A phone buzzes (pointerdown on its BUZZ button, through ``POST .../slap``, stamped on arrival
by the hardware layer of ``companion serve``) and takes the floor; the other phones are
locked out and show who has it; the host marks the answer wrong, the question reopens for
the rest, another phone buzzes, the host marks it right, and every phone shows the scores.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import open_as_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "1357"
PLAYERS = ["Ana", "Bruno", "Chen"]


def test_the_first_buzz_takes_the_floor_on_every_phone(server_factory, phone):
    server = server_factory()
    status, created = server.request(
        "POST",
        "/api/tables",
        {"game": "quiz", "players": PLAYERS, "pin": PIN, "title": "Quiz night"},
    )
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]

    host = phone("en-US")
    open_as_host(host, url, table_id, PIN)
    expect(host.locator("#qz-host")).to_be_visible()
    expect(host.locator("#qz-buzz-box")).to_be_hidden()  # the host only watches

    phones = []
    for name in PLAYERS:
        p = phone("en-US")
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=name).click()
        expect(p.locator("#whoami")).to_have_text(f"You are {name}")
        expect(p.locator("#qz-buzz")).to_be_enabled()
        phones.append(p)
    ana, bruno, chen = phones
    everyone = [host, *phones]
    expect(host.locator("#qz-head")).to_have_text("Open: buzz when you know!")

    # Ana buzzes first: she has the floor, Bruno and Chen are locked out
    ana.locator("#qz-buzz").tap()
    expect(ana.locator("#qz-head")).to_have_text("You have the floor: answer!")
    expect(ana.locator("#qz-buzz-word")).to_have_text("Your answer!")
    for p in (bruno, chen):
        expect(p.locator("#qz-buzz")).to_be_disabled()
        expect(p.locator("#qz-buzz-sub")).to_have_text("Ana has the floor")
        expect(p.locator("#qz-head")).to_have_text("Ana has the floor")
    expect(host.locator(".qz-host-who")).to_have_text("Ana answers:")

    # wrong: the question reopens for the others, Ana stays locked out
    host.locator("#qz-wrong").click()
    expect(ana.locator("#qz-buzz")).to_be_disabled()
    expect(ana.locator("#qz-buzz-word")).to_have_text("Locked out")
    for p in (bruno, chen):
        expect(p.locator("#qz-buzz")).to_be_enabled()
        expect(p.locator("#qz-head")).to_have_text("Wrong! Open again for the rest: buzz!")

    # Bruno buzzes next and is right
    bruno.locator("#qz-buzz").tap()
    expect(chen.locator("#qz-buzz-sub")).to_have_text("Bruno has the floor")
    expect(chen.locator("#qz-buzz")).to_be_disabled()
    expect(host.locator(".qz-host-who")).to_have_text("Bruno answers:")
    host.locator("#qz-right").click()
    for p in everyone:
        expect(p.locator('.qz-score[data-seat="1"]')).to_have_text("1")
        expect(p.locator('.qz-score[data-seat="0"]')).to_have_text("0")
        expect(p.locator('.qz-score[data-seat="2"]')).to_have_text("0")
        expect(p.locator("#qz-head")).to_have_text("Question closed.")
        expect(p.locator("#qz-order li")).to_have_count(2)
        # (Bruno buzzed in the race the wrong answer reopened: no gap "over" Ana is told
        # across it, issue 37: "Bruno by 35.70 s over Ana" meant nothing)
        expect(p.locator("#qz-order .qz-sentence")).to_have_count(0)
        expect(p.locator('#qz-order li[data-seat="1"] .qz-gap')).to_have_text(
            "after a wrong answer")

    # the next question opens the buzzers for everyone again
    host.locator("#qz-next").click()
    for p in phones:
        expect(p.locator("#qz-buzz")).to_be_enabled()
        expect(p.locator(".qz-q")).to_have_text("Question 2")
    # (the closed question was already in the host's history: first see the next question)
    expect(host.locator(".qz-q")).to_have_text("Question 2")
    expect(host.locator("#qz-history details")).to_have_count(1)

    host.locator("#history-box summary").click()
    expect(host.locator("#history li").first).to_contain_text("opened the next question")
    expect(host.locator("#history li", has_text="marked the answer wrong")).to_have_count(1)

    for p in everyone:
        assert p.js_errors == []


def test_the_hosts_second_tap_does_not_mark_the_next_player(server_factory, phone):
    """Ana has the floor; the host taps Wrong; Bruno buzzes; the host's second tap, on the
    Wrong button his screen still showed for Ana, lands after Bruno took the floor: it is
    refused (it names Ana), not counted against Bruno. And presses 4 µs apart read
    "+4.0 µs", not "+0.00 ms"."""
    server = server_factory()
    status, created = server.request("POST", "/api/tables", {
        "game": "quiz", "players": PLAYERS, "pin": PIN, "options": {"points_wrong": -1}})
    assert status == 201, created
    table_id, url = created["table"]["id"], server.url + created["url"]
    host = phone("en-US")
    open_as_host(host, url, table_id, PIN)
    expect(host.locator("#qz-host")).to_be_visible()
    ana, bruno = phone("en-US"), phone("en-US")
    for p, name in ((ana, "Ana"), (bruno, "Bruno")):
        p.goto(url + "?join=1")
        p.locator("#seats button", has_text=name).click()
        expect(p.locator("#qz-buzz")).to_be_enabled()

    ana.locator("#qz-buzz").tap()
    expect(host.locator(".qz-host-who")).to_have_text("Ana answers:")
    wrong_for_ana = host.locator("#qz-wrong").element_handle()
    # (tapped by the locator: a live update may draw the buttons again after the handle was
    # taken; the handle, even detached, is still the button drawn for Ana)
    host.locator("#qz-wrong").click()
    expect(bruno.locator("#qz-buzz")).to_be_enabled()
    bruno.locator("#qz-buzz").tap()
    expect(host.locator(".qz-host-who")).to_have_text("Bruno answers:")
    wrong_for_ana.evaluate("b => b.click()")  # (the second tap, on the button Ana's was)
    expect(host.locator("#toast")).to_have_text(
        "Ana does not have the floor: the mark was not counted.")
    for p in (host, ana, bruno):
        expect(p.locator('.qz-score[data-seat="0"]')).to_have_text("-1")
        expect(p.locator('.qz-score[data-seat="1"]')).to_have_text("0")
    expect(bruno.locator("#qz-head")).to_have_text("You have the floor: answer!")
    host.locator("#qz-right").click()
    expect(ana.locator('.qz-score[data-seat="1"]')).to_have_text("1")

    host.locator("#qz-next").click()
    expect(ana.locator(".qz-q")).to_have_text("Question 2")
    status, body = server.request(
        "POST", f"/api/tables/{table_id}/actions",
        {"action": {"type": "buzz", "presses": [{"seat": 0, "t_ns": 10**12},
                                                {"seat": 2, "t_ns": 10**12 + 4_000}]}},
        headers={"X-Host-Pin": PIN})
    assert status == 200, body
    expect(ana.locator('#qz-order li[data-seat="2"] .qz-gap')).to_have_text("+4.0 µs")
    for p in (host, ana, bruno):
        assert p.js_errors == []
