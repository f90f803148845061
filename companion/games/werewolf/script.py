"""The narrator's lines in English, Brazilian Portuguese and Simplified Chinese.

A ``narrate`` event names a line (``key``) and its ``params``; :func:`render` turns it into
the sentence the speaker says and the host's screen shows. Params: ``name``/``target`` (a
player's name), ``names`` (a list), ``role`` (a role id, translated here), ``night``,
``day``, ``minutes``.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "pt_BR", "zh_Hans")

ROLE_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "villager": "a simple villager", "werewolf": "a werewolf", "seer": "the seer",
        "hunter": "the hunter", "cupid": "Cupid", "witch": "the witch", "thief": "the thief",
        "little_girl": "the little girl",
    },
    "pt_BR": {
        "villager": "um simples aldeão", "werewolf": "um lobisomem", "seer": "a vidente",
        "hunter": "o caçador", "cupid": "o Cupido", "witch": "a bruxa", "thief": "o ladrão",
        "little_girl": "a menininha",
    },
    "zh_Hans": {
        "villager": "普通村民", "werewolf": "狼人", "seer": "预言家", "hunter": "猎人",
        "cupid": "丘比特", "witch": "女巫", "thief": "盗贼", "little_girl": "小女孩",
    },
}

LINES: dict[str, dict[str, str]] = {
    "en": {
        "look_at_cards": "Everyone, look at your card in secret, then put your phone down.",
        "night_falls": "Night {night} falls on the village. Everyone, close your eyes.",
        "thief_wake": "Thief, wake up. Look at the two spare cards, and swap if you wish.",
        "thief_sleep": "Thief, go back to sleep.",
        "cupid_wake": "Cupid, wake up. Choose the two players who will fall in love.",
        "cupid_sleep": "Cupid, go back to sleep.",
        "lovers_wake": "Lovers, wake up. Recognise each other.",
        "lovers_sleep": "Lovers, go back to sleep.",
        "seer_wake": "Seer, wake up. Choose a player whose card you want to see.",
        "seer_sleep": "Seer, go back to sleep.",
        "werewolves_wake": "Werewolves, wake up. Choose your victim together, in silence.",
        "werewolves_sleep": "Werewolves, go back to sleep.",
        "witch_wake": "Witch, wake up. Here is the werewolves' victim. "
                      "Will you use a potion?",
        "witch_sleep": "Witch, go back to sleep.",
        "day_breaks": "The sun rises. Everyone, wake up.",
        "nobody_died": "Nobody died last night.",
        "died_night": "{name} was found dead this morning. {name} was {role}.",
        "died_werewolves": "{name} was devoured by the werewolves. {name} was {role}.",
        "died_poison": "{name} was poisoned in the night. {name} was {role}.",
        "died_vote": "The village has spoken: {name} is eliminated. {name} was {role}.",
        "died_hunter": "{name} is shot. {name} was {role}.",
        "died_lover": "Heartbroken, {name} dies with their lover. {name} was {role}.",
        "hunter_wake": "{name}, the hunter, takes aim with a last breath. Choose who to shoot.",
        "hunter_shoots": "{name} fires at {target}.",
        "hunter_holds_fire": "{name} dies without firing.",
        "successor_wake": "{name}, our captain, is dying. Name the next captain.",
        "captain_election": "Time to elect a captain. The captain's vote counts double.",
        "captain_elected": "{name} is elected captain.",
        "captain_lot": "The lot makes {name} captain.",
        "captain_named": "{name} is the new captain.",
        "debate_start": "Debate. You have {minutes} minutes to find the werewolves.",
        "vote_start": "Time to vote. Who should leave the village?",
        "revote_start": "Vote again between {names}.",
        "tie_captain": "A tie. The captain's vote decides: {name}.",
        "tie_revote": "A tie between {names}. We vote again.",
        "tie_lot": "Another tie. The lot falls on {name}.",
        "no_elimination": "Nobody is eliminated today.",
        "victory_village": "The villagers win!",
        "victory_wolves": "The werewolves win!",
        "victory_lovers": "The lovers win: {names}!",
        "victory_none": "The game is over. Nobody wins.",
        "reason_no_werewolves": "The last werewolf is dead.",
        "reason_seed": "Only one villager is left standing.",
        "reason_parity": "The werewolves are as many as the villagers.",
        "reason_lovers_last": "The two lovers are the last ones alive.",
        "reason_starvation": "The werewolves chose no victim and starved.",
        "reason_everyone_dead": "Nobody is left alive.",
        "reason_host_ended": "The host ended the game.",
    },
    "pt_BR": {
        "look_at_cards": "Todos, olhem sua carta em segredo e depois abaixem o celular.",
        "night_falls": "Cai a noite {night} sobre a aldeia. Todos, fechem os olhos.",
        "thief_wake": "Ladrão, acorde. Veja as duas cartas de sobra e troque, se quiser.",
        "thief_sleep": "Ladrão, volte a dormir.",
        "cupid_wake": "Cupido, acorde. Escolha os dois jogadores que vão se apaixonar.",
        "cupid_sleep": "Cupido, volte a dormir.",
        "lovers_wake": "Apaixonados, acordem. Reconheçam um ao outro.",
        "lovers_sleep": "Apaixonados, voltem a dormir.",
        "seer_wake": "Vidente, acorde. Escolha o jogador cuja carta você quer ver.",
        "seer_sleep": "Vidente, volte a dormir.",
        "werewolves_wake": "Lobisomens, acordem. Escolham juntos a vítima, em silêncio.",
        "werewolves_sleep": "Lobisomens, voltem a dormir.",
        "witch_wake": "Bruxa, acorde. Esta é a vítima dos lobisomens. Vai usar uma poção?",
        "witch_sleep": "Bruxa, volte a dormir.",
        "day_breaks": "O sol nasce. Todos, acordem.",
        "nobody_died": "Ninguém morreu esta noite.",
        "died_night": "{name} foi encontrado morto esta manhã. {name} era {role}.",
        "died_werewolves": "{name} foi devorado pelos lobisomens. {name} era {role}.",
        "died_poison": "{name} foi envenenado durante a noite. {name} era {role}.",
        "died_vote": "A aldeia decidiu: {name} está eliminado. {name} era {role}.",
        "died_hunter": "{name} leva um tiro. {name} era {role}.",
        "died_lover": "De coração partido, {name} morre junto com seu amor. {name} era {role}.",
        "hunter_wake": "{name}, o caçador, mira com seu último suspiro. Escolha em quem atirar.",
        "hunter_shoots": "{name} atira em {target}.",
        "hunter_holds_fire": "{name} morre sem atirar.",
        "successor_wake": "{name}, nosso capitão, está morrendo. Escolha o próximo capitão.",
        "captain_election": "Hora de eleger um capitão. O voto do capitão vale dois.",
        "captain_elected": "{name} foi eleito capitão.",
        "captain_lot": "O sorteio faz de {name} o capitão.",
        "captain_named": "{name} é o novo capitão.",
        "debate_start": "Debate. Vocês têm {minutes} minutos para achar os lobisomens.",
        "vote_start": "Hora de votar. Quem deve deixar a aldeia?",
        "revote_start": "Votem de novo entre {names}.",
        "tie_captain": "Empate. O voto do capitão decide: {name}.",
        "tie_revote": "Empate entre {names}. Vamos votar de novo.",
        "tie_lot": "Outro empate. O sorteio cai em {name}.",
        "no_elimination": "Ninguém é eliminado hoje.",
        "victory_village": "Os aldeões vencem!",
        "victory_wolves": "Os lobisomens vencem!",
        "victory_lovers": "Os apaixonados vencem: {names}!",
        "victory_none": "O jogo acabou. Ninguém vence.",
        "reason_no_werewolves": "O último lobisomem morreu.",
        "reason_seed": "Só resta um aldeão de pé.",
        "reason_parity": "Os lobisomens são tantos quanto os aldeões.",
        "reason_lovers_last": "Os dois apaixonados são os últimos vivos.",
        "reason_starvation": "Os lobisomens não escolheram vítima e morreram de fome.",
        "reason_everyone_dead": "Não sobrou ninguém vivo.",
        "reason_host_ended": "O anfitrião encerrou o jogo.",
    },
    "zh_Hans": {
        "look_at_cards": "请大家偷偷看一下自己的身份牌，然后把手机放下。",
        "night_falls": "第{night}夜降临，天黑请闭眼。",
        "thief_wake": "盗贼请睁眼。看看两张底牌，想换就换一张。",
        "thief_sleep": "盗贼请闭眼。",
        "cupid_wake": "丘比特请睁眼。请选出两名相爱的玩家。",
        "cupid_sleep": "丘比特请闭眼。",
        "lovers_wake": "恋人请睁眼，认识一下彼此。",
        "lovers_sleep": "恋人请闭眼。",
        "seer_wake": "预言家请睁眼。请选择你要查验身份的玩家。",
        "seer_sleep": "预言家请闭眼。",
        "werewolves_wake": "狼人请睁眼。请一起悄悄选定今晚的猎物。",
        "werewolves_sleep": "狼人请闭眼。",
        "witch_wake": "女巫请睁眼。这是狼人今晚的猎物。你要使用药水吗？",
        "witch_sleep": "女巫请闭眼。",
        "day_breaks": "天亮了，请大家睁眼。",
        "nobody_died": "昨晚是平安夜，没有人死亡。",
        "died_night": "今天早上发现{name}死了。{name}的身份是{role}。",
        "died_werewolves": "{name}被狼人吃掉了。{name}的身份是{role}。",
        "died_poison": "{name}昨晚被毒死了。{name}的身份是{role}。",
        "died_vote": "村民投票决定：{name}出局。{name}的身份是{role}。",
        "died_hunter": "{name}中枪身亡。{name}的身份是{role}。",
        "died_lover": "{name}因为失去恋人而心碎殉情。{name}的身份是{role}。",
        "hunter_wake": "猎人{name}用最后一口气举起了枪。请选择你要带走的人。",
        "hunter_shoots": "{name}向{target}开枪。",
        "hunter_holds_fire": "{name}没有开枪就倒下了。",
        "successor_wake": "警长{name}即将死去，请指定下一任警长。",
        "captain_election": "现在竞选警长。警长的一票算两票。",
        "captain_elected": "{name}当选警长。",
        "captain_lot": "抽签结果：{name}成为警长。",
        "captain_named": "{name}成为新的警长。",
        "debate_start": "开始讨论。你们有{minutes}分钟找出狼人。",
        "vote_start": "开始投票。谁应该离开村子？",
        "revote_start": "请在{names}之间重新投票。",
        "tie_captain": "平票。警长的选择决定结果：{name}。",
        "tie_revote": "{names}平票，重新投票。",
        "tie_lot": "再次平票，抽签选中了{name}。",
        "no_elimination": "今天没有人出局。",
        "victory_village": "村民获胜！",
        "victory_wolves": "狼人获胜！",
        "victory_lovers": "恋人获胜：{names}！",
        "victory_none": "游戏结束，没有赢家。",
        "reason_no_werewolves": "最后一个狼人已经死了。",
        "reason_seed": "村子里只剩下一名村民。",
        "reason_parity": "狼人的数量已经和村民一样多。",
        "reason_lovers_last": "两位恋人是最后的幸存者。",
        "reason_starvation": "狼人没有选择猎物，饿死了。",
        "reason_everyone_dead": "没有人活下来。",
        "reason_host_ended": "主持人结束了游戏。",
    },
}

_AND = {"en": " and ", "pt_BR": " e ", "zh_Hans": "和"}
_COMMA = {"en": ", ", "pt_BR": ", ", "zh_Hans": "、"}


def language(lang: str | None) -> str:
    """The closest language we have: "pt-BR", "pt" -> pt_BR; "zh", "zh-CN" -> zh_Hans."""
    if not lang:
        return "en"
    low = lang.replace("-", "_").lower()
    if low.startswith("pt"):
        return "pt_BR"
    if low.startswith("zh") or low.startswith("cmn"):
        return "zh_Hans"
    return "en"


def join_names(names: list[str], lang: str) -> str:
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return _COMMA[lang].join(names[:-1]) + _AND[lang] + names[-1]


def render(key: str, params: dict[str, Any] | None = None, lang: str | None = "en") -> str:
    """The sentence for a narration line; an unknown key gives an empty string."""
    lang = language(lang)
    template = LINES[lang].get(key) or LINES["en"].get(key)
    if template is None:
        return ""
    params = dict(params or {})
    values: dict[str, Any] = {k: v for k, v in params.items() if isinstance(v, (str, int, float))}
    if "role" in params:
        values["role"] = ROLE_NAMES[lang].get(str(params["role"]), str(params["role"]))
    if isinstance(params.get("names"), list):
        values["names"] = join_names(params["names"], lang)
    minutes = values.get("minutes")
    if isinstance(minutes, float) and minutes.is_integer():
        values["minutes"] = int(minutes)
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template
