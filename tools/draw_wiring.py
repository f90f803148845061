#!/usr/bin/env python3
"""Draw docs/wiring.svg, the wiring diagram of docs/wiring.md, from the default layout in
companion/config.py (DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS, DEFAULT_BUZZER_PIN).

Drawn, not copied: the 40-pin header with every pin named, each seat's button from its pin to
a ground rail, each LED through its 330 ohm resistor, the buzzer, and the ground pins that
close the rails. Generated so that it cannot drift from the code: tests/core/test_wiring.py
fails when the committed file differs from what this prints.

    .venv/bin/python tools/draw_wiring.py            # rewrite docs/wiring.svg
    .venv/bin/python tools/draw_wiring.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.config import DEFAULT_BUTTON_PINS, DEFAULT_BUZZER_PIN, DEFAULT_LED_PINS

OUT = Path(__file__).resolve().parents[1] / "docs" / "wiring.svg"

# The 40-pin header of every Raspberry Pi since the B+ (Pi 2, 3, 4, 5, Zero): physical pin
# -> its name. GPIO pins by their BCM number.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "ID_SD", 28: "ID_SC", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}
PHYSICAL = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}

BUTTON, LED, BUZZER, GROUND, POWER, IDLE = "#d9480f", "#2b8a3e", "#7048e8", "#212529", \
    "#c92a2a", "#adb5bd"
W, TOP, ROW = 960, 160, 30
HX0, HX1 = 370, 590  # the header's box
GND_L, GND_R = 70, W - 70  # the ground rails
LEFT_GND, RIGHT_GND = 39, 34  # the ground pins that close the rails


def y_of(pin: int) -> int:
    return TOP + ((pin - 1) // 2) * ROW


def text(x: float, y: float, s: str, size: int = 13, anchor: str = "start",
         fill: str = GROUND, weight: str = "normal") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{escape(s)}</text>')


def line(x1: float, y1: float, x2: float, y2: float, color: str, width: float = 2.5) -> str:
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" '
            f'stroke-width="{width}" stroke-linecap="round"/>')


def button(x: float, y: float) -> list[str]:
    """A push button (normally open) centred at x on a wire at y (the wire is broken there)."""
    return [
        f'<rect x="{x - 15}" y="{y - 3}" width="30" height="6" fill="#fff"/>',
        f'<circle cx="{x - 16}" cy="{y}" r="3" fill="{BUTTON}"/>',
        f'<circle cx="{x + 16}" cy="{y}" r="3" fill="{BUTTON}"/>',
        line(x - 18, y - 9, x + 18, y - 9, BUTTON, 2.5),
        line(x, y - 9, x, y - 14, BUTTON, 2.5),
    ]


def resistor(x: float, y: float) -> list[str]:
    return [f'<rect x="{x - 15}" y="{y - 5}" width="30" height="10" fill="#fff" '
            f'stroke="{LED}" stroke-width="2"/>',
            text(x, y - 9, "330 Ω", 10, "middle", LED)]


def diode(x: float, y: float, towards: int) -> list[str]:
    """An LED at x on a wire at y; ``towards``: +1 when its cathode (bar) points right."""
    tip, base = x + 8 * towards, x - 8 * towards
    return [
        f'<polygon points="{base},{y - 8} {base},{y + 8} {tip},{y}" fill="{LED}"/>',
        line(tip, y - 8, tip, y + 8, LED, 2.5),
        line(x - 2, y - 11, x + 4, y - 17, LED, 1.5),
        line(x + 4, y - 11, x + 10, y - 17, LED, 1.5),
    ]


def buzzer(x: float, y: float) -> list[str]:
    return [f'<circle cx="{x}" cy="{y}" r="13" fill="#fff" stroke="{BUZZER}" stroke-width="2.5"/>',
            text(x, y + 4, "BZ", 10, "middle", BUZZER, "bold"),
            text(x - 20, y - 6, "+", 12, "middle", BUZZER, "bold"),
            text(x, y - 19, "active buzzer", 11, "middle", BUZZER, "bold")]


def draw() -> str:
    used: dict[int, tuple[str, int]] = {}
    for seat, bcm in enumerate(DEFAULT_BUTTON_PINS, 1):
        used[PHYSICAL[bcm]] = ("button", seat)
    for seat, bcm in enumerate(DEFAULT_LED_PINS, 1):
        used[PHYSICAL[bcm]] = ("led", seat)
    used[PHYSICAL[DEFAULT_BUZZER_PIN]] = ("buzzer", 0)
    height = y_of(40) + 140
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" '
           f'viewBox="0 0 {W} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect width="{W}" height="{height}" fill="#fff"/>',
           text(W / 2, 34, "Table Companion: buttons, LEDs and buzzer", 20, "middle",
                weight="bold"),
           text(W / 2, 58, "The default layout (no wiring in the config, or the example "
                "config's [gpio]). GPIO = BCM number; the small number is the", 12, "middle"),
           text(W / 2, 76, "physical pin of the 40-pin header (pin 1: the square pad). "
                "Buttons need no resistor (internal pull-up). Seat N: button N, LED N.",
                12, "middle"),
           text(HX0 + (HX1 - HX0) / 2, TOP - 42, "Raspberry Pi 40-pin header", 13, "middle",
                weight="bold"),
           text(HX0 + (HX1 - HX0) / 2, TOP - 26, "(top view)", 11, "middle"),
           f'<rect x="{HX0}" y="{TOP - ROW / 2 - 4}" width="{HX1 - HX0}" '
           f'height="{20 * ROW + 8}" rx="8" fill="#f1f3f5" stroke="{GROUND}" stroke-width="1.5"/>']
    rails = {GND_L: [y_of(LEFT_GND)], GND_R: [y_of(RIGHT_GND)]}
    for pin, name in HEADER.items():
        left = pin % 2 == 1
        y = y_of(pin)
        cx = HX0 + 95 if left else HX1 - 95
        kind = used.get(pin, (None, 0))[0]
        color = {"button": BUTTON, "led": LED, "buzzer": BUZZER}.get(kind) or (
            GROUND if name == "GND" else POWER if name in ("3V3", "5V") else IDLE)
        shape = (f'<rect x="{cx - 6}" y="{y - 6}" width="12" height="12" fill="{color}"/>'
                 if pin == 1 else f'<circle cx="{cx}" cy="{y}" r="6" fill="{color}"/>')
        out.append(shape)
        label_color = GROUND if kind or name in ("GND", "3V3", "5V") else IDLE
        weight = "bold" if kind else "normal"
        if left:
            out.append(text(HX0 + 10, y + 4, name, 12, "start", label_color, weight))
            out.append(text(cx - 12, y + 4, str(pin), 10, "end", label_color))
        else:
            out.append(text(HX1 - 10, y + 4, name, 12, "end", label_color, weight))
            out.append(text(cx + 12, y + 4, str(pin), 10, "start", label_color))
        side = -1 if left else 1
        edge = HX0 if left else HX1
        rail = GND_L if left else GND_R
        if pin in (LEFT_GND, RIGHT_GND):
            out.append(line(edge, y, rail, y, GROUND))
            out.append(text((edge + rail) / 2, y - 6, "GND", 11, "middle", GROUND, "bold"))
        if not kind:
            continue
        seat = used[pin][1]
        out.append(line(edge, y, rail, y, color))
        rails[rail].append(y)
        label = {"button": f"seat {seat}", "led": f"LED {seat}"}.get(kind)
        if label:
            out.append(text(edge + side * 12, y - 6, label, 11, "start" if side > 0 else "end",
                            color, "bold"))
        if kind == "button":
            out += button(edge + side * 160, y)
        elif kind == "led":
            out += resistor(edge + side * 110, y)
            out += diode(edge + side * 200, y, side)
        else:
            out += buzzer(edge + side * 160, y)
        out.append(f'<circle cx="{rail}" cy="{y}" r="3.5" fill="{GROUND}"/>')
    for x, ys in rails.items():
        out.append(line(x, min(ys), x, max(ys), GROUND, 3))
        out.append(text(x, max(ys) + 22, "ground rail", 11, "middle", GROUND, "bold"))
    legend_y = y_of(40) + 70
    items = [(BUTTON, "button: pin to ground, pressed reads low"),
             (LED, "LED: pin, 330 Ω, anode (long leg); cathode to ground"),
             (BUZZER, "active 3.3 V buzzer: + to the pin, − to ground")]
    for n, (color, words) in enumerate(items):
        y = legend_y + 20 * n
        out.append(f'<rect x="40" y="{y - 11}" width="14" height="14" fill="{color}"/>')
        out.append(text(60, y + 1, words, 12))
    out.append(text(40, legend_y + 66, "Left free: I2C (GPIO2, 3), the UART (GPIO14, 15) and "
                    "I2S audio (GPIO18-21). SPI's pins carry LEDs: keep SPI off in "
                    "raspi-config.", 12, fill="#495057"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    svg = draw()
    if "--check" in argv:
        if OUT.read_text(encoding="utf-8") != svg:
            print(f"{OUT} is out of date: run tools/draw_wiring.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(svg, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
