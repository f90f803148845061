"""What the table's speaker says at each phase, in our three languages: the narrator speaks a
``narrate`` event's ``texts`` in the table's language (the werewolf script knows no
Kingsburg lines), and the host's screen shows it in its own."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "pt_BR", "zh_Hans")
PHASE_NAMES = {
    "en": {"aid": "Aid from the King", "spring": "Spring", "reward": "The King's Reward",
           "summer": "Summer", "envoy": "The King's Envoy", "autumn": "Autumn",
           "recruit": "Recruit soldiers", "winter": "Winter: the battle"},
    "pt_BR": {"aid": "Ajuda do Rei", "spring": "Primavera", "reward": "A Recompensa do Rei",
              "summer": "Verão", "envoy": "O Enviado do Rei", "autumn": "Outono",
              "recruit": "Recrutar soldados", "winter": "Inverno: a batalha"},
    "zh_Hans": {"aid": "国王的援助", "spring": "春季", "reward": "国王的奖赏", "summer": "夏季",
                "envoy": "国王的使节", "autumn": "秋季", "recruit": "招募士兵",
                "winter": "冬季：战斗"},
}
LINE = {"en": "Year {year}. {phase}.", "pt_BR": "Ano {year}. {phase}.",
        "zh_Hans": "第{year}年。{phase}。"}


def phase_line(year: int, phase_id: str) -> dict[str, Any]:
    """The narrate event for a phase that begins."""
    return {"type": "narrate", "key": "kingsburg_phase",
            "params": {"year": year, "phase": phase_id},
            "texts": {lang: LINE[lang].format(year=year, phase=PHASE_NAMES[lang][phase_id])
                      for lang in LANGUAGES}}
