"""Three languages from the first page: the phone's choice, translated errors, complete
catalogues."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from web.i18n import match_language

ROOT = Path(__file__).resolve().parents[2]


def load_tool():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize(("tags", "lang"), [
    (["pt-BR", "en"], "pt_BR"), (["pt"], "pt_BR"), (["pt-PT"], "pt_BR"),
    (["zh-CN"], "zh_Hans"), (["zh-Hans-CN"], "zh_Hans"), (["zh"], "zh_Hans"),
    (["fr-FR", "en-GB"], "en"), (["de"], "en"), ([], "en"), (["fr", "pt-BR"], "pt_BR")])
def test_accept_language_maps_to_our_three_languages(tags, lang):
    assert match_language(tags) == lang


def test_every_message_is_translated_and_compiled():
    assert load_tool().problems() == []


def test_the_page_follows_the_phone_and_the_picker_is_remembered(client):
    page = client.get("/", headers={"Accept-Language": "pt-BR,pt;q=0.9"})
    assert b'<html lang="pt-BR">' in page.data and b"Mesas" in page.data
    res = client.post("/lang", data={"lang": "zh_Hans", "next": "/"})
    assert res.status_code == 302 and "lang=zh_Hans" in res.headers["Set-Cookie"]
    page = client.get("/", headers={"Accept-Language": "pt-BR"})  # the cookie wins
    assert b'<html lang="zh-Hans">' in page.data


def test_the_picker_does_not_redirect_off_site(client):
    res = client.post("/lang", data={"lang": "en", "next": "//evil.example/"})
    assert res.headers["Location"] == "/"


def test_the_scripts_get_their_catalogue(client):
    pt = client.get("/api/i18n/pt_BR.json").json
    assert pt["Save the round"] == "Salvar a rodada"
    assert client.get("/api/i18n/en.json").json == {}
    assert client.get("/api/i18n/xx.json").json == {}


def test_rejections_keep_their_placeholders_in_every_language():
    import re

    from babel.messages.pofile import read_po

    for lang in ("pt_BR", "zh_Hans"):
        path = ROOT / "web" / "translations" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as fh:
            for msg in read_po(fh):
                if msg.id and msg.string:
                    assert set(re.findall(r"\{(\w+)\}", msg.id)) == set(
                        re.findall(r"\{(\w+)\}", msg.string)), (lang, msg.id)


def test_werewolf_roles_in_a_refusal_are_named_in_the_phones_language(app):
    from companion.games.base import Rejection
    from web.i18n import translate_rejection

    rej = Rejection("roles_mismatch", "More cards were entered than the role set has: {roles}.",
                    {"roles": "seer, werewolf", "role_ids": ["seer", "werewolf"]})
    said = {}
    for lang in ("en", "pt-BR", "zh-CN"):
        with app.test_request_context("/", headers={"Accept-Language": lang}):
            said[lang] = translate_rejection(rej)
    assert said["en"].endswith(": seer, werewolf.")
    assert "vidente, lobisomem" in said["pt-BR"]
    assert "预言家、狼人" in said["zh-CN"] and "seer" not in said["zh-CN"]


def test_a_refusal_announced_by_the_camera_is_told_in_each_phones_language(app):
    from web.stream import localise

    event = {"type": "refused", "code": "bad_scores",
             "message": "Give exactly one score for each of the {n} players.", "params": {"n": 3}}
    with app.test_request_context("/", headers={"Accept-Language": "zh-CN"}):
        assert localise(event)["message"] == "请为 3 位玩家每人填写一个分数。"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert localise(event)["message"] == "Give exactly one score for each of the 3 players."
    assert localise({"type": "x"}) == {"type": "x"}


def test_card_names_in_a_refusal_are_in_the_phones_language(client):
    res = client.post("/api/tables", json={"game": "uno", "players": ["Ana", "Bruno"],
                                           "pin": "2468"})
    tid = res.json["table"]["id"]
    pin = {"X-Host-Pin": "2468"}
    for action in ({"type": "set_dealer", "dealer": 0}, {"type": "turn_up", "card": "blue-7"}):
        assert client.post(f"/api/tables/{tid}/actions", json={"action": action},
                           headers=pin).status_code == 200
    play = {"action": {"type": "play", "card": "red-5"}, "as_seat": 1}
    for lang, expected in (("en", "Red 5"), ("pt-BR", "5 vermelho"), ("zh-CN", "红")):
        res = client.post(f"/api/tables/{tid}/actions", json=play,
                          headers={**pin, "Accept-Language": lang})
        assert res.status_code == 422
        message = res.json["error"]["message"]
        assert expected in message and "red-5" not in message, message


def _po(lang: str):
    from babel.messages.pofile import read_po

    with (ROOT / "web" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh)


def test_a_line_about_several_names_agrees_with_them_in_portuguese():
    """"{names} bateu errado" was said of two players: a line about one name and a line
    about several are two messages, and a line for any number of names is worded so that it
    fits both ("vitória de {names}"), never a singular verb next to {names}."""
    cat = _po("pt_BR")
    assert cat.get("{name} slapped wrong").string == "{name} bateu errado"
    assert cat.get("{names} slapped wrong").string == "{names} bateram errado"
    import re

    singular = re.compile(r"\{names\}\s+\w+(ou|eu|iu)\b|\b\w+(ou|eu|iu):\s*\{names\}")
    bad = [(m.id, m.string) for m in cat if m.id and singular.search(m.string or "")]
    assert bad == []
    js = (ROOT / "web" / "static" / "games" / "versus.js").read_text()
    assert 't("{name} slapped wrong"' in js and 't("{names} slapped wrong"' in js


def test_chinese_lists_names_with_the_enumeration_comma_and_no_stray_spaces(client):
    """Chinese separates the names of a list with "、", not ", ", and puts no space around
    its full-width punctuation: "牌：狼人", not "牌： 狼人"."""
    import re

    for m in _po("zh_Hans"):
        if m.id and m.string:
            assert not re.search(r" [：，。、！？；）]|[：，。、！？；（] ", m.string), m.id
    assert _po("zh_Hans").get("{name}: {role}").string == "{name}：{role}"
    scripts = [ROOT / "web" / "static" / "app.js", ROOT / "web" / "static" / "camera.js",
               *sorted((ROOT / "web" / "static" / "games").glob("*.js"))]
    for path in scripts:
        js = path.read_text()
        # lists go through TC.list / TC.clauses, a label and what follows through TC.spaced
        assert '.join(", ")' not in js, path.name
        assert not re.search(r't\("[^"]*:"[^)]*\)\s*\+\s*" "', js), path.name
        assert not re.search(r'" " \+ t\("\(', js), path.name
        # a sentence and what follows it through TC.spaced ("…了。身份", not "…了。 身份"),
        # brackets through TC.brackets ("Fay（狼人）", not "Fay (狼人)")
        assert not re.search(r'Line\([^)]*\)\)?\s*\+\s*" "', js), path.name
        assert '" (", roleTag' not in js, path.name
    app = (ROOT / "web" / "static" / "app.js").read_text()
    assert 'TC.list = (items) => items.join(TC.listSep)' in app
    assert 'TC.listSep = zh ? "、" : ", "' in app
    assert 'TC.brackets = zh ? ["（", "）"] : [" (", ")"]' in app
    client.post("/api/tables", json={"players": ["Ana", "Bruno", "Chen"], "pin": "2468"})
    home = client.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "Ana、Bruno、Chen" in home
    assert "Ana, Bruno, Chen" in client.get("/").get_data(as_text=True)


def test_one_word_for_the_host_and_for_a_slap():
    """zh: the host is 房主 (主持人 is Werewolf's moderator, someone else); pt: a slap is a
    "batida", the rules' own word (the Versus seed says "bater"), never "tapa"."""
    import re

    for m in _po("zh_Hans"):
        if m.id and m.string and "host" in m.id.lower() and "moderator" not in m.id.lower():
            assert "主持人" not in m.string, m.id
    for m in _po("pt_BR"):
        if m.id and m.string:
            assert not re.search(r"\btapas?\b", m.string.lower()), m.id


def test_no_message_cites_a_rule_sheet_number():
    """The rule sheets' numbers ("R13", "U1") are the developers' (docs/games/*.md); the
    players never see those sheets, so a help text or a refusal that cites one points them at
    nothing: it says the rule instead."""
    import re

    code = re.compile(r"\b[RU]\d+\b")
    for lang in ("pt_BR", "zh_Hans"):
        for m in _po(lang):
            if m.id:
                assert not code.search(m.id), m.id
                assert not code.search(m.string or ""), (lang, m.id)


def test_versus_penalties_are_named_in_the_phones_language():
    """The penalty cards print Portuguese names; a phone names them in its own language
    (an English phone showed "Olho fechado" where a Chinese one showed 闭上一只眼)."""
    from companion.games.versus.rules import PENALTY_TITLES
    from web.i18n import js_catalog

    english = set(PENALTY_TITLES.values())
    assert english == {"Hand behind your back", "One eye closed", "Cards for everyone",
                       "Play two in a row"}
    assert [js_catalog("pt_BR")[m] for m in sorted(english)] == [
        "Cartas para todos", "Mão para trás", "Olho fechado", "Jogue duas seguidas"]
    assert all(js_catalog("zh_Hans")[m] for m in english)


def test_a_mo_is_stale_only_when_what_it_says_differs(tmp_path):
    """A .mo is compared by its messages, not its bytes: another Babel release writes the same
    messages as other bytes (2.19 made every .mo "stale"), and only a changed translation is."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    tool = load_tool()
    data = tool.mo_bytes("pt_BR")
    same = tool.mo_messages(data)
    assert same and same == tool.mo_messages(data)
    # the same messages written in another order and with another header: other bytes
    cat = Catalog(locale="pt_BR", project="other")
    for msgid, text in reversed(list(same.items())):
        cat.add(msgid, text)
    buf = io.BytesIO()
    write_mo(buf, cat)
    assert buf.getvalue() != data
    assert tool.mo_messages(buf.getvalue()) == same
    # one translation changed: stale
    msgid = next(iter(same))
    cat[msgid].string = same[msgid] + "!"
    buf = io.BytesIO()
    write_mo(buf, cat)
    assert tool.mo_messages(buf.getvalue()) != same


def test_phone_script_keyword_t_is_not_read_in_python():
    """``t(...)`` marks the phone scripts' messages only: in Python the Werewolf rules' night
    dict ``t["chosen"]`` was read as a message by Babel 2.19, joined to the next docstring."""
    ids = {m.id for m in load_tool().extract() if m.id}
    assert "chosen" not in ids and "wolf_votes" not in ids
    assert not any(str(i).startswith("chosenThe little girl") for i in ids)
