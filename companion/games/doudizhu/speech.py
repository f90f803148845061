"""What the table's speaker says of a refused play, in each language (as Huang Di's: the
speaker talks to the whole table, in words short enough to hear once). Every play lies face
up in the middle, so its verdict is the table's: "Bea, take it back: a pair of 8s cannot beat
a pair of 9s."

``refusal_lines(state, code, params, seat)`` gives ``{language: sentence}`` for the refusals
in ``SPOKEN``, None for any other.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "pt_BR", "zh_Hans")

LINES: dict[str, dict[str, str]] = {
    "en": {
        "seq_short": "{name}, take it back: a sequence needs at least five cards.",
        "pair_seq_short": "{name}, take it back: a sequence of pairs needs three pairs.",
        "seq_twos": "{name}, take it back: no 2s or jokers in a sequence.",
        "seq_gap": "{name}, take it back: a sequence must have no gaps.",
        "attach_same": "{name}, take it back: the attached cards must all differ.",
        "attach_mixed": "{name}, take it back: singles and pairs cannot be mixed.",
        "attach_jokers": "{name}, take it back: both jokers cannot be attached.",
        "attach_count": "{name}, take it back: one attached card or pair per triplet.",
        "quad_attach": "{name}, take it back: four of a kind takes two different singles.",
        "jokers": "{name}, take it back: the two jokers are the rocket, not a pair.",
        "not_combo": "{name}, take it back: {cards} is no combination.",
        "rocket_top": "{name}, take it back: nothing beats the rocket.",
        "bomb_lower": "{name}, take it back: {cards} cannot beat the bomb {last}.",
        "other_kind": "{name}, take it back: play the same kind ({last_kind}, {size} cards), "
                      "or a bomb.",
        "not_higher": "{name}, take it back: {cards} cannot beat {last}.",
        "not_in_pack": "{name}, take it back: there are only {n} of rank {rank}.",
    },
    "pt_BR": {
        "seq_short": "{name}, volte as cartas: uma sequência precisa de pelo menos cinco "
                     "cartas.",
        "pair_seq_short": "{name}, volte as cartas: uma sequência de pares precisa de três "
                          "pares.",
        "seq_twos": "{name}, volte as cartas: sequências não têm 2 nem coringas.",
        "seq_gap": "{name}, volte as cartas: a sequência não pode ter buracos.",
        "attach_same": "{name}, volte as cartas: as cartas anexadas devem ser todas "
                       "diferentes.",
        "attach_mixed": "{name}, volte as cartas: não se misturam cartas soltas e pares.",
        "attach_jokers": "{name}, volte as cartas: os dois coringas não podem ir anexados.",
        "attach_count": "{name}, volte as cartas: uma carta ou um par anexado por trinca.",
        "quad_attach": "{name}, volte as cartas: a quadra leva duas cartas soltas "
                       "diferentes.",
        "jokers": "{name}, volte as cartas: os dois coringas são o foguete, não um par.",
        "not_combo": "{name}, volte as cartas: {cards} não é uma combinação.",
        "rocket_top": "{name}, volte as cartas: nada vence o foguete.",
        "bomb_lower": "{name}, volte as cartas: {cards} não vence a bomba {last}.",
        "other_kind": "{name}, volte as cartas: jogue o mesmo tipo ({last_kind}, {size} "
                      "cartas) ou uma bomba.",
        "not_higher": "{name}, volte as cartas: {cards} não vence {last}.",
        "not_in_pack": "{name}, volte as cartas: só existem {n} cartas {rank}.",
    },
    "zh_Hans": {
        "seq_short": "{name}，请收回：顺子至少要五张。",
        "pair_seq_short": "{name}，请收回：连对至少要三对。",
        "seq_twos": "{name}，请收回：顺子里不能有2和王。",
        "seq_gap": "{name}，请收回：顺子必须连续。",
        "attach_same": "{name}，请收回：带的牌必须各不相同。",
        "attach_mixed": "{name}，请收回：不能同时带单张和对子。",
        "attach_jokers": "{name}，请收回：不能同时带两张王。",
        "attach_count": "{name}，请收回：每个三张带一张或一对。",
        "quad_attach": "{name}，请收回：四带二要带两张不同的单牌。",
        "jokers": "{name}，请收回：两张王是王炸，不是对子。",
        "not_combo": "{name}，请收回：{cards}不是合法的牌型。",
        "rocket_top": "{name}，请收回：王炸最大。",
        "bomb_lower": "{name}，请收回：{cards}管不上炸弹{last}。",
        "other_kind": "{name}，请收回：要出{size}张的{last_kind}，或者炸弹。",
        "not_higher": "{name}，请收回：{cards}管不上{last}。",
        "not_in_pack": "{name}，请收回：{rank}一共只有{n}张。",
    },
}
SPOKEN = frozenset(LINES["en"])

KIND_WORDS: dict[str, dict[str, str]] = {
    "en": {"single": "single", "pair": "pair", "triplet": "triplet",
           "triplet_single": "triplet with a single", "triplet_pair": "triplet with a pair",
           "sequence": "sequence", "pair_sequence": "sequence of pairs",
           "airplane": "sequence of triplets",
           "airplane_singles": "sequence of triplets with singles",
           "airplane_pairs": "sequence of triplets with pairs", "bomb": "bomb",
           "rocket": "rocket", "quadplex": "four with two singles",
           "quad_pairs": "four with two pairs"},
    "pt_BR": {"single": "carta solta", "pair": "par", "triplet": "trinca",
              "triplet_single": "trinca com uma carta", "triplet_pair": "trinca com um par",
              "sequence": "sequência", "pair_sequence": "sequência de pares",
              "airplane": "sequência de trincas",
              "airplane_singles": "sequência de trincas com cartas soltas",
              "airplane_pairs": "sequência de trincas com pares", "bomb": "bomba",
              "rocket": "foguete", "quadplex": "quadra com duas cartas",
              "quad_pairs": "quadra com dois pares"},
    "zh_Hans": {"single": "单张", "pair": "对子", "triplet": "三张", "triplet_single": "三带一",
                "triplet_pair": "三带二", "sequence": "顺子", "pair_sequence": "连对",
                "airplane": "飞机", "airplane_singles": "飞机带单", "airplane_pairs": "飞机带对",
                "bomb": "炸弹", "rocket": "王炸", "quadplex": "四带二",
                "quad_pairs": "四带两对"},
}
# the jokers said aloud (the ranks are said as written: "9-9", "K")
JOKER_WORDS = {
    "en": {"BJ": "black joker", "RJ": "red joker"},
    "pt_BR": {"BJ": "coringa preto", "RJ": "coringa vermelho"},
    "zh_Hans": {"BJ": "小王", "RJ": "大王"},
}


def _said(cards: str, lang: str) -> str:
    words = JOKER_WORDS[lang]
    sep = "、" if lang == "zh_Hans" else ", "
    return sep.join(words.get(c, c) for c in cards.split("-")) if cards else ""


def refusal_lines(state: dict[str, Any], code: str, params: dict[str, Any],
                  seat: int | None) -> dict[str, str] | None:
    """The sentence for each language, or None for a refusal the speaker does not say."""
    if code not in SPOKEN:
        return None
    players = state.get("players") or []
    hand = state.get("hand") or {}
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        seat = hand.get("current")
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ""
    last = hand.get("last") or {}
    out = {}
    for lang in LANGUAGES:
        values: dict[str, Any] = {"name": name, "n": params.get("n", ""),
                                  "rank": JOKER_WORDS[lang].get(str(params.get("rank", "")),
                                                                params.get("rank", "")),
                                  "cards": _said(str(params.get("cards", "")), lang),
                                  "last": _said(str(params.get("last", "")), lang),
                                  "last_kind": KIND_WORDS[lang].get(str(last.get("kind")), ""),
                                  "size": last.get("size", "")}
        out[lang] = LINES[lang][code].format(**values)
    return out
