"""The phone's colours: every colour the pages write text in reads at arm's length on the
cards and the page behind them, in the dark scheme and the light one (WCAG's 4.5:1 for
text). Found by a walk through the pages in light mode: the good news ("You win the slap!",
"You have the floor: answer!") was #51cf66 on white, 1.9:1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "web" / "static" / "app.css"
WEREWOLF = CSS.parent / "games" / "werewolf.css"
TEXT = ("--fg", "--muted", "--accent", "--good-fg", "--bad", "--lead")
BEHIND = ("--bg", "--card")


def _tokens(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def _schemes() -> dict[str, dict[str, str]]:
    css = CSS.read_text()
    dark = _tokens(re.search(r":root\s*\{(.*?)\}", css, re.S).group(1))
    light_block = re.search(r"prefers-color-scheme:\s*light\)\s*\{\s*:root\s*\{(.*?)\}", css, re.S)
    light = {**dark, **_tokens(light_block.group(1))}
    # Werewolf's night screen, the same dark one on every phone whatever its scheme
    night = _tokens(re.search(r"body\.ww-dark\s*\{(.*?)\}", WEREWOLF.read_text(), re.S).group(1))
    return {"dark": dark, "light": light, "night on dark": {**dark, **night},
            "night on light": {**light, **night}}


def _colour(tokens: dict[str, str], name: str) -> tuple[float, float, float]:
    value = tokens[name].split("/*")[0].strip()
    while value.startswith("var("):
        value = tokens[value[4:-1].strip()].split("/*")[0].strip()
    hexa = value.lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    return tuple(int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4))


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("scheme", ["dark", "light", "night on dark", "night on light"])
@pytest.mark.parametrize("text", TEXT)
def test_every_text_colour_reads_on_the_page_and_its_cards(scheme: str, text: str) -> None:
    tokens = _schemes()[scheme]
    fg = _luminance(_colour(tokens, text))
    for behind in BEHIND:
        bg = _luminance(_colour(tokens, behind))
        ratio = (max(fg, bg) + 0.05) / (min(fg, bg) + 0.05)
        assert ratio >= 4.5, f"{scheme}: {text} on {behind} is {ratio:.2f}:1"


def _ratio(tokens: dict[str, str], a: str, b: str) -> float:
    la, lb = _luminance(_colour(tokens, a)), _luminance(_colour(tokens, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("scheme", ["dark", "light", "night on dark", "night on light"])
def test_a_disabled_control_reads_yet_looks_disabled(scheme: str) -> None:
    """Disabled buttons and inputs were drawn half-transparent, their words 2-3:1 on the card:
    now a grey fill with a dashed edge, and words at 4.5:1 (the night's too, not the day's
    tokens on the night's page)."""
    tokens = _schemes()[scheme]
    ratio = _ratio(tokens, "--disabled-fg", "--disabled-bg")
    assert ratio >= 4.5, f"{scheme}: disabled text is {ratio:.2f}:1"
    # ...and still unlike an enabled control: greyer words than --fg, no accent fill, and
    # an edge that shows the control's shape on the card
    assert _ratio(tokens, "--disabled-fg", "--disabled-bg") < _ratio(tokens, "--fg", "--bg")
    assert _colour(tokens, "--disabled-bg") not in (_colour(tokens, "--accent"),
                                                    _colour(tokens, "--bg"))
    assert _ratio(tokens, "--disabled-line", "--card") >= 2.0, scheme
    if scheme.startswith("night"):  # the night sets its own, not the day's light grey
        night = _tokens(re.search(r"body\.ww-dark\s*\{(.*?)\}", WEREWOLF.read_text(),
                                  re.S).group(1))
        assert {"--disabled-bg", "--disabled-fg", "--disabled-line"} <= set(night)


def test_no_stylesheet_fades_a_disabled_control() -> None:
    """Opacity on a disabled control fades its words with it, below 3:1 again, and the
    SLAP button's grey was --muted on --line, 4.2:1 in the light scheme: every ``:disabled``
    rule uses the disabled colours (or the page's own text colour) instead."""
    sheets = [CSS, *sorted((CSS.parent / "games").glob("*.css"))]
    faded = []
    for sheet in sheets:
        css = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            if ":disabled" not in selector:
                continue
            m = re.search(r"opacity:\s*([\d.]+)", body)
            if m and float(m.group(1)) < 1:
                faded.append(f"{sheet.name}: {selector.strip()}")
            m = re.search(r"background:\s*([^;]+)", body)
            if m and m.group(1).strip() != "var(--disabled-bg)":
                faded.append(f"{sheet.name}: {selector.strip()}: background {m.group(1)}")
            m = re.search(r"(?<![-\w])color:\s*([^;]+)", body)
            if m and m.group(1).strip() not in ("var(--disabled-fg)", "var(--fg)", "inherit"):
                faded.append(f"{sheet.name}: {selector.strip()}: color {m.group(1)}")
    assert faded == []
    assert re.search(r"\.btn:disabled[^{]*button:disabled[^{]*input:disabled", CSS.read_text())


def test_a_held_werewolf_card_looks_like_any_other_from_across_the_table():
    """A phone held to read its card can be glanced at: a red "Werewolf", or a pink line
    for a lover, told a neighbour what the words did not need to. No rule of the Werewolf
    page colours a card by its role, and the held card's lines are in the text's colour."""
    css = re.sub(r"/\*.*?\*/", "", WEREWOLF.read_text(), flags=re.S)
    rules = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    assert not [sel for sel, body in rules if "data-role" in sel and "color" in body]
    assert not [sel for sel, body in rules
                if re.search(r"\.ww-(love|note|card-name)\b", sel) and re.search(
                    r"(^|[;\s])color\s*:", body)]
