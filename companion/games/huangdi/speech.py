"""What the table's speaker says, in each language (like Werewolf's narration lines: the
speaker talks to the whole table, in words short enough to hear once): a wrong play, a wall
completed (someone shuffles it into the draw pile), the win.

``refusal_lines(state, code, params, seat)`` gives ``{language: sentence}`` for a refusal the
whole table must hear (the game's ``buzz_codes``), or None for any other; ``narrate(key,
**params)`` the ``narrate`` event of a line, its words in every language with it.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "pt_BR", "zh_Hans")

LINES: dict[str, dict[str, str]] = {
    "en": {
        "wrong_card": "{name}, take it back: wall {wall} needs a {need}, not a {card}.",
        "wrong_partner": "{name}, take it back: with an Invert, wall {wall} needs a {need}, "
                         "not a {card}.",
        "cannot_invert": "{name}, take it back: wall {wall} cannot be inverted with {top} on "
                         "top.",
        "invert_alone": "{name}, take it back: an Invert is never played alone.",
        "joker_not_invert": "{name}, take it back: a joker never stands for an Invert.",
        "invert_needs_wall": "{name}, take it back: wall {wall} is empty, there is nothing to "
                             "invert.",
    },
    "pt_BR": {
        "wrong_card": "{name}, volte a carta: a muralha {wall} precisa de um {need}, não de um "
                      "{card}.",
        "wrong_partner": "{name}, volte a carta: com o Inverte, a muralha {wall} precisa de um "
                         "{need}, não de um {card}.",
        "cannot_invert": "{name}, volte a carta: a muralha {wall} não pode ser invertida com "
                         "{top} no topo.",
        "invert_alone": "{name}, volte a carta: o Inverte nunca é jogado sozinho.",
        "joker_not_invert": "{name}, volte a carta: o coringa nunca substitui o Inverte.",
        "invert_needs_wall": "{name}, volte a carta: a muralha {wall} está vazia, não há o que "
                             "inverter.",
    },
    "zh_Hans": {
        "wrong_card": "{name}，请收回：第{wall}道城墙需要{need}，不是{card}。",
        "wrong_partner": "{name}，请收回：加上反转牌，第{wall}道城墙需要{need}，不是{card}。",
        "cannot_invert": "{name}，请收回：第{wall}道城墙顶上是{top}，不能反转。",
        "invert_alone": "{name}，请收回：反转牌不能单独打出。",
        "joker_not_invert": "{name}，请收回：百搭牌不能代替反转牌。",
        "invert_needs_wall": "{name}，请收回：第{wall}道城墙是空的，没有方向可以反转。",
    },
}
EVENTS: dict[str, dict[str, str]] = {
    "en": {"wall_completed": "Wall {wall} is complete. Shuffle it into the draw pile.",
           "won": "{name} has played the last stock card and wins!"},
    "pt_BR": {"wall_completed": "A muralha {wall} está completa. Embaralhe-a na pilha de "
                                "compra.",
              "won": "{name} jogou a última carta do estoque e venceu!"},
    "zh_Hans": {"wall_completed": "第{wall}道城墙完成了，把它洗回摸牌堆。",
                "won": "{name}打出了储备牌堆的最后一张牌，获胜！"},
}
CARD_WORDS = {
    "en": {"joker": "joker", "invert": "Invert"},
    "pt_BR": {"joker": "coringa", "invert": "Inverte"},
    "zh_Hans": {"joker": "百搭牌", "invert": "反转牌"},
}


def refusal_lines(state: dict[str, Any], code: str, params: dict[str, Any],
                  seat: int | None) -> dict[str, str] | None:
    """The sentence for each language, or None for a refusal the speaker does not say."""
    if code not in LINES["en"]:
        return None
    players = state.get("players") or []
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        seat = state.get("current")
    name = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ""
    out = {}
    for lang in LANGUAGES:
        values = {k: v for k, v in params.items() if isinstance(v, (str, int))}
        card = str(params.get("card", ""))
        values["card"] = CARD_WORDS[lang].get(card.lower(), card)
        values["name"] = name
        try:
            out[lang] = LINES[lang][code].format(**values)
        except (KeyError, IndexError, ValueError):
            out[lang] = LINES[lang][code]
    return out


def narrate(key: str, **params: Any) -> dict[str, Any]:
    """The ``narrate`` event of one of ``EVENTS``, with its words in every language
    (``texts``): the narrator says it in the table's, the host's screen shows it."""
    return {"type": "narrate", "key": f"huangdi_{key}", "params": params,
            "texts": {lang: EVENTS[lang][key].format(**params) for lang in LANGUAGES}}
