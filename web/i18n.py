"""Languages: English, Brazilian Portuguese and Simplified Chinese (Flask-Babel).

The phone's choice (a cookie set by the language picker) wins over its Accept-Language.
Rules engines hand over English templates marked with ``N_``; they are translated here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.support import Translations
from flask import Flask, current_app, request
from flask_babel import Babel, get_locale, gettext

from companion.games.base import N_, Rejection

LANGUAGES = {"en": "English", "pt_BR": "Português", "zh_Hans": "简体中文"}
HTML_LANG = {"en": "en", "pt_BR": "pt-BR", "zh_Hans": "zh-Hans"}
COOKIE = "lang"
TRANSLATIONS = Path(__file__).parent / "translations"


def match_language(header_langs: list[str]) -> str:
    """The best of our languages for a list of BCP 47 tags in preference order."""
    for tag in header_langs:
        t = tag.strip().lower().replace("_", "-")
        if t.startswith("pt"):
            return "pt_BR"
        if t.startswith("zh"):
            return "zh_Hans"
        if t.startswith("en"):
            return "en"
    return "en"


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE) or request.args.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return match_language([lang for lang, _q in request.accept_languages])


def current_language() -> str:
    return str(get_locale() or "en")


_COLOURS = {"red": ("Red", "red"), "yellow": ("Yellow", "yellow"),
            "green": ("Green", "green"), "blue": ("Blue", "blue")}
_VALUES = {"skip": "Skip", "reverse": "Reverse", "draw2": "Draw Two"}
_WILDS = {"wild": "Wild", "wild-draw4": "Wild Draw Four", "wild-swap": "Wild Swap Hands",
          "wild-custom": "Custom Wild"}


def card_name(label: str, translate=gettext) -> str:
    """An UNO card's name in the phone's language ("red-5" -> "5 vermelho"), the same
    words the phone's UNO screen uses; anything else is returned as it is."""
    if label in _WILDS:
        return translate(_WILDS[label])
    colour, _, value = label.partition("-")
    if colour in _COLOURS and (value in _VALUES or value.isdigit()):
        shown = translate(_VALUES[value]) if value in _VALUES else value
        return translate(_COLOURS[colour][0] + " {value}").format(value=shown)
    return label


# Werewolf's role ids and their names (the msgids the phone's werewolf.js names them by)
_ROLES = {"werewolf": N_("werewolf"), "villager": N_("villager"), "seer": N_("seer"),
          "hunter": N_("hunter"), "cupid": N_("Cupid"), "witch": N_("witch"),
          "thief": N_("thief"), "little_girl": N_("little girl")}


def localise_params(params: dict, translate=gettext) -> dict:
    """Card names, colours and symbols inside a rejection's params, in the phone's language."""
    out = dict(params)
    for key in ("card", "top", "reads"):
        if isinstance(out.get(key), str):
            out[key] = card_name(out[key], translate)
    if isinstance(out.get("colour"), str) and out["colour"] in _COLOURS:
        out["colour"] = translate(_COLOURS[out["colour"]][1])
    if isinstance(out.get("symbol"), str) and out["symbol"] in _VALUES:
        out["symbol"] = translate(_VALUES[out["symbol"]])
    ids = out.pop("role_ids", None)
    if isinstance(ids, list) and all(isinstance(r, str) for r in ids):
        # Werewolf's roles by name, as the phones name them ("seer, werewolf" were ids)
        out["roles"] = join_list([translate(_ROLES.get(r, r)) for r in ids])
    return out


def translate_rejection(rejection: Rejection) -> str:
    try:
        return Rejection(rejection.code, rejection.message,
                         localise_params(rejection.params)).render(gettext)
    except RuntimeError:  # outside a request
        return rejection.render()


@cache
def _catalog(lang: str) -> dict[str, str]:
    if lang == "en":
        return {}
    trans = Translations.load(str(TRANSLATIONS), [lang])
    catalog = getattr(trans, "_catalog", {})
    return {k: v for k, v in catalog.items() if isinstance(k, str) and k and v}


def js_catalog(lang: str) -> dict[str, str]:
    """Every translated message for the phone's scripts (they call ``t("...")``)."""
    return _catalog(lang if lang in LANGUAGES else "en")


def table_title(table: dict) -> str:
    """A table's title as the page shows it: one created without a title is stored under
    its game's name, in English, and shown in the phone's language ("Marcador de pontos");
    a title someone typed is shown as typed."""
    from companion.games.registry import get_game

    title = str(table.get("title") or "")
    try:
        name = get_game(str(table.get("game"))).name
    except KeyError:
        return title
    return gettext(name) if title == name else title


def join_list(items) -> str:
    """Names or things as a list in the phone's language: "Ana, Bruno" / "Ana、Bruno" (Chinese
    separates a list with the enumeration comma, not ", "; the phone's scripts use TC.list)."""
    sep = "、" if current_language().startswith("zh") else ", "
    return sep.join(str(x) for x in items)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)

    app.add_template_filter(table_title)
    app.add_template_filter(join_list)

    @app.context_processor
    def languages():
        lang = current_language()
        return {"LANGUAGES": LANGUAGES, "lang": lang, "html_lang": HTML_LANG.get(lang, "en"),
                "static_version": current_app.config.get("STATIC_VERSION", "1")}
