"""The score pad's CSV export: headings in the phone's language, and no cell a spreadsheet
would run as a formula (a player named "=1+1"), while the scores stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

PIN = {"X-Host-Pin": "2468"}


def sheet(client, players, rounds, **headers):
    res = client.post("/api/tables", json={"game": "scorepad", "players": players,
                                           "pin": "2468"})
    assert res.status_code == 201, res.json
    tid = res.json["table"]["id"]
    for scores in rounds:
        res = client.post(f"/api/tables/{tid}/actions",
                          json={"action": {"type": "add_round", "scores": scores}}, headers=PIN)
        assert res.status_code == 200, res.json
    res = client.get(f"/api/tables/{tid}/export.csv", headers=headers)
    assert res.status_code == 200 and res.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(res.data.decode("utf-8-sig"))))


@pytest.mark.parametrize(("lang", "heads"), [
    ("en-US", ["round", "Ana", "Bruno", "total Ana", "total Bruno"]),
    ("pt-BR", ["rodada", "Ana", "Bruno", "total de Ana", "total de Bruno"]),
    ("zh-CN", ["轮次", "Ana", "Bruno", "Ana 总分", "Bruno 总分"]),
])
def test_the_headings_are_in_the_phones_language(client, lang, heads):
    rows = sheet(client, ["Ana", "Bruno"], [[10, -5]], **{"Accept-Language": lang})
    assert rows == [heads, ["1", "10", "-5", "10", "-5"]]


def test_the_language_cookie_wins_over_the_browsers(client):
    client.set_cookie("lang", "pt_BR")
    rows = sheet(client, ["Ana"], [[1]], **{"Accept-Language": "zh-CN"})
    assert rows[0] == ["rodada", "Ana", "total de Ana"]


def test_a_name_a_spreadsheet_would_run_is_written_as_text_and_scores_stay_numbers(client):
    # (a name's tabs and line breaks are stripped when the table is made)
    names = ["=1+1", "+SUM(A1)", "-2", "@cmd", "Ana-Maria", "Bo"]
    rows = sheet(client, names, [[-3, 0, 4, -1200, 5, 6]])
    assert rows[0][1:7] == ["'=1+1", "'+SUM(A1)", "'-2", "'@cmd", "Ana-Maria", "Bo"]
    assert rows[0][7] == "total =1+1"  # (starts with a letter: nothing to neutralise)
    assert rows[1] == ["1", "-3", "0", "4", "-1200", "5", "6", "-3", "0", "4", "-1200", "5", "6"]


def test_a_neutralised_heading_in_chinese_too(client):
    rows = sheet(client, ["=HYPERLINK(1)", "Bo"], [[1, 2]], **{"Accept-Language": "zh-CN"})
    assert rows[0] == ["轮次", "'=HYPERLINK(1)", "Bo", "'=HYPERLINK(1) 总分", "Bo 总分"]
