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
        "villager": "a simple villager",
        "werewolf": "a werewolf",
        "seer": "the seer",
        "hunter": "the hunter",
        "cupid": "Cupid",
        "witch": "the witch",
        "thief": "the thief",
        "little_girl": "the little girl",
    },
    "pt_BR": {
        "villager": "um simples aldeão",
        "werewolf": "um lobisomem",
        "seer": "a vidente",
        "hunter": "o caçador",
        "cupid": "o Cupido",
        "witch": "a bruxa",
        "thief": "o ladrão",
        "little_girl": "a menininha",
    },
    "zh_Hans": {
        "villager": "普通村民",
        "werewolf": "狼人",
        "seer": "预言家",
        "hunter": "猎人",
        "cupid": "丘比特",
        "witch": "女巫",
        "thief": "盗贼",
        "little_girl": "小女孩",
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
        "witch_wake": "Witch, wake up. Here is the werewolves' victim. Will you use a potion?",
        "witch_sleep": "Witch, go back to sleep.",
        "day_breaks": "The sun rises. Everyone, wake up.",
        "nobody_died": "Nobody died last night.",
        "died_night": "{name} was found dead this morning. {name} was {role}.",
        "died_werewolves": "{name} was devoured by the werewolves. {name} was {role}.",
        "died_poison": "{name} was poisoned in the night. {name} was {role}.",
        "died_starved": "{name} starved to death in the night. {name} was {role}.",
        "died_vote": "The village has spoken: {name} is eliminated. {name} was {role}.",
        "died_shot": "{name} is shot. {name} was {role}.",
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
        "debate_start_one": "Debate. You have one minute to find the werewolves.",
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
        "night_falls": "Cai a {night}ª noite sobre a aldeia. Todos, fechem os olhos.",
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
        "died_night": "Encontraram {name} sem vida esta manhã. {name} era {role}.",
        "died_werewolves": "Os lobisomens devoraram {name}. {name} era {role}.",
        "died_poison": "O veneno levou {name} durante a noite. {name} era {role}.",
        "died_starved": "{name} morreu de fome durante a noite. {name} era {role}.",
        "died_vote": "A aldeia decidiu: {name} sai do jogo. {name} era {role}.",
        "died_shot": "{name} leva um tiro. {name} era {role}.",
        "died_lover": "De coração partido, {name} morre junto com seu amor. {name} era {role}.",
        "hunter_wake": "{name}, o caçador, mira com seu último suspiro. Escolha em quem atirar.",
        "hunter_shoots": "{name} atira em {target}.",
        "hunter_holds_fire": "{name} morre sem atirar.",
        "successor_wake": "{name}, nosso capitão, está morrendo. Escolha o próximo capitão.",
        "captain_election": "Hora de eleger um capitão. O voto do capitão vale dois.",
        "captain_elected": "{name} é o capitão eleito.",
        "captain_lot": "O sorteio faz de {name} o capitão.",
        "captain_named": "{name} é o novo capitão.",
        "debate_start": "Debate. Vocês têm {minutes} minutos para achar os lobisomens.",
        "debate_start_one": "Debate. Vocês têm um minuto para achar os lobisomens.",
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
        "died_starved": "{name}昨晚饿死了。{name}的身份是{role}。",
        "died_vote": "村民投票决定：{name}出局。{name}的身份是{role}。",
        "died_shot": "{name}中枪身亡。{name}的身份是{role}。",
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
        "debate_start_one": "开始讨论。你们有一分钟找出狼人。",
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


# -- the end-of-game story: the journal (secrets included) as sentences ------------------
JOURNAL: dict[str, dict[str, str]] = {
    "en": {
        "night_falls": "Night {night}.",
        "dealt": "Cards dealt: {cards}.",
        "dealt_spares": "Cards dealt: {cards}. Spare cards: {spares}.",
        "thief_kept": "{name}, the thief, kept the thief card.",
        "thief_took": "{name}, the thief, took a card: {role}.",
        "lovers": "Cupid made {names} fall in love.",
        "seer_saw": "{by}, the seer, looked at {name}: {role}.",
        "peeked": "{name}, the little girl, peeked without being seen.",
        "peeked_caught": "{name}, the little girl, peeked and was caught.",
        "caught": "The werewolves caught {name}, the little girl, peeking.",
        "wolves_drawn": "The werewolves did not agree; the lot chose {victim}.",
        "wolves_chose": "The werewolves chose {victim}.",
        "wolves_chose_none": "The werewolves chose no victim.",
        "witch_both": "The witch healed {victim} and poisoned {poison}.",
        "witch_heal": "The witch healed {victim}.",
        "witch_poison": "The witch poisoned {poison}.",
        "witch_none": "The witch used no potion.",
        "died": "{name} died ({cause}) and was {role}.",
        "hunter_shot": "{name}, the hunter, shot {target}.",
        "hunter_no_shot": "{name}, the hunter, did not shoot.",
        "captain": "{name} became captain ({how}).",
        "vote_result": "Vote, round {round}: {totals}.",
        "vote_result_none": "Vote, round {round}: nobody voted.",
        "no_elimination": "Nobody was eliminated.",
        "timeout": "Time ran out ({step}); the default was applied.",
        "ended_early": "The host ended it early ({step}); the default was applied.",
        "starved": "The werewolves starved.",
        "game_over": "Game over.",
        "nobody": "nobody",
    },
    "pt_BR": {
        "night_falls": "Noite {night}.",
        "dealt": "Cartas distribuídas: {cards}.",
        "dealt_spares": "Cartas distribuídas: {cards}. Cartas de sobra: {spares}.",
        "thief_kept": "{name}, o ladrão, ficou com a carta de ladrão.",
        "thief_took": "{name}, o ladrão, pegou uma carta: {role}.",
        "lovers": "O Cupido fez {names} se apaixonarem.",
        "seer_saw": "{by}, a vidente, olhou a carta de {name}: {role}.",
        "peeked": "{name}, a menininha, espiou sem ser vista.",
        "peeked_caught": "{name}, a menininha, espiou e foi pega.",
        "caught": "Os lobisomens pegaram {name}, a menininha, espiando.",
        "wolves_drawn": "Os lobisomens não chegaram a um acordo; o sorteio escolheu {victim}.",
        "wolves_chose": "Os lobisomens escolheram {victim}.",
        "wolves_chose_none": "Os lobisomens não escolheram vítima.",
        "witch_both": "A bruxa curou {victim} e envenenou {poison}.",
        "witch_heal": "A bruxa curou {victim}.",
        "witch_poison": "A bruxa envenenou {poison}.",
        "witch_none": "A bruxa não usou nenhuma poção.",
        "died": "{name} morreu ({cause}) e era {role}.",
        "hunter_shot": "{name}, o caçador, atirou em {target}.",
        "hunter_no_shot": "{name}, o caçador, não atirou.",
        "captain": "{name} virou capitão ({how}).",
        "vote_result": "Votação, rodada {round}: {totals}.",
        "vote_result_none": "Votação, rodada {round}: ninguém votou.",
        "no_elimination": "Ninguém foi eliminado.",
        "timeout": "O tempo acabou ({step}); valeu a escolha padrão.",
        "ended_early": "O anfitrião encerrou antes ({step}); valeu a escolha padrão.",
        "starved": "Os lobisomens morreram de fome.",
        "game_over": "Fim de jogo.",
        "nobody": "ninguém",
    },
    "zh_Hans": {
        "night_falls": "第{night}夜。",
        "dealt": "发牌：{cards}。",
        "dealt_spares": "发牌：{cards}。底牌：{spares}。",
        "thief_kept": "盗贼{name}保留了盗贼牌。",
        "thief_took": "盗贼{name}换了一张牌：{role}。",
        "lovers": "丘比特让{names}成为恋人。",
        "seer_saw": "预言家{by}查验了{name}：{role}。",
        "peeked": "小女孩{name}偷看了，没有被发现。",
        "peeked_caught": "小女孩{name}偷看时被发现了。",
        "caught": "狼人发现小女孩{name}在偷看。",
        "wolves_drawn": "狼人意见不一，抽签选中了{victim}。",
        "wolves_chose": "狼人选择了{victim}。",
        "wolves_chose_none": "狼人没有选择猎物。",
        "witch_both": "女巫救了{victim}，并毒死了{poison}。",
        "witch_heal": "女巫救了{victim}。",
        "witch_poison": "女巫毒死了{poison}。",
        "witch_none": "女巫没有用药。",
        "died": "{name}死亡（{cause}），身份是{role}。",
        "hunter_shot": "猎人{name}开枪带走了{target}。",
        "hunter_no_shot": "猎人{name}没有开枪。",
        "captain": "{name}成为警长（{how}）。",
        "vote_result": "第{round}轮投票：{totals}。",
        "vote_result_none": "第{round}轮投票：没有人投票。",
        "no_elimination": "没有人出局。",
        "timeout": "时间到（{step}），按默认处理。",
        "ended_early": "主持人提前结束了（{step}），按默认处理。",
        "starved": "狼人饿死了。",
        "game_over": "游戏结束。",
        "nobody": "无人",
    },
}

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "night": "at night",
        "werewolves": "devoured",
        "poison": "poisoned",
        "vote": "voted out",
        "shot": "shot",
        "lover": "heartbroken",
        "starved": "starved",
        "elected": "elected",
        "lot": "by lot",
        "named": "named by the last captain",
        "look": "looking at cards",
        "thief": "thief",
        "cupid": "Cupid",
        "lovers": "lovers",
        "seer": "seer",
        "werewolves_step": "werewolves",
        "witch": "witch",
        "captain": "captain election",
        "debate": "debate",
        "vote_step": "vote",
        "hunter": "hunter",
        "successor": "successor",
    },
    "pt_BR": {
        "night": "à noite",
        "werewolves": "devorado",
        "poison": "envenenado",
        "vote": "eliminado na votação",
        "shot": "baleado",
        "lover": "de coração partido",
        "starved": "de fome",
        "elected": "eleito",
        "lot": "por sorteio",
        "named": "indicado pelo último capitão",
        "look": "olhar as cartas",
        "thief": "ladrão",
        "cupid": "Cupido",
        "lovers": "apaixonados",
        "seer": "vidente",
        "werewolves_step": "lobisomens",
        "witch": "bruxa",
        "captain": "eleição do capitão",
        "debate": "debate",
        "vote_step": "votação",
        "hunter": "caçador",
        "successor": "sucessor",
    },
    "zh_Hans": {
        "night": "夜里",
        "werewolves": "被狼人吃掉",
        "poison": "被毒死",
        "vote": "被投票出局",
        "shot": "被枪杀",
        "lover": "殉情",
        "starved": "饿死",
        "elected": "当选",
        "lot": "抽签",
        "named": "由前任警长指定",
        "look": "看身份牌",
        "thief": "盗贼",
        "cupid": "丘比特",
        "lovers": "恋人",
        "seer": "预言家",
        "werewolves_step": "狼人",
        "witch": "女巫",
        "captain": "竞选警长",
        "debate": "讨论",
        "vote_step": "投票",
        "hunter": "猎人",
        "successor": "继任警长",
    },
}


def render_journal(entry: dict[str, Any], players: list[str], lang: str | None = "en") -> str:
    """One journal entry (``public.journal`` once the game is over) as a sentence."""
    lang = language(lang)
    lines, words, roles = JOURNAL[lang], WORDS[lang], ROLE_NAMES[lang]
    key = str(entry.get("key"))
    p = entry.get("params") or {}

    def name(seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
            return players[seat]
        return lines["nobody"]

    def role(r: Any) -> str:
        return roles.get(str(r), str(r))

    sep = _COMMA[lang]
    values: dict[str, Any] = {
        "night": p.get("night", ""),
        "round": p.get("round", ""),
        "name": name(p.get("seat")),
        "by": name(p.get("by")),
        "target": name(p.get("target")),
        "victim": name(p.get("victim")),
        "poison": name(p.get("poison")),
        "role": role(p.get("role")),
        "cause": words.get(str(p.get("cause")), ""),
        "how": words.get(str(p.get("how")), ""),
        "names": join_names([name(x) for x in p.get("seats") or []], lang),
    }
    if key == "dealt":
        colon = "：" if lang == "zh_Hans" else ": "
        values["cards"] = sep.join(f"{name(i)}{colon}{role(r)}" for i, r in enumerate(p["roles"]))
        values["spares"] = sep.join(role(r) for r in p.get("spares") or [])
        key = "dealt_spares" if p.get("spares") else "dealt"
    elif key == "peeked" and p.get("caught"):
        key = "peeked_caught"
    elif key == "wolves_chose" and p.get("victim") is None:
        key = "wolves_chose_none"
    elif key == "witch":
        key = {
            (True, True): "witch_both",
            (True, False): "witch_heal",
            (False, True): "witch_poison",
            (False, False): "witch_none",
        }[(bool(p.get("heal")), p.get("poison") is not None)]
    elif key == "vote_result":
        totals = p.get("totals") or []
        values["totals"] = sep.join(f"{name(t['seat'])} {t['votes']}" for t in totals)
        key = "vote_result" if totals else "vote_result_none"
    elif key in ("timeout", "ended_early"):
        step = str(p.get("step"))
        values["step"] = words.get(step + "_step", words.get(step, step))
    elif key == "game_over":
        winners = [name(x) for x in p.get("seats") or []]
        won = render(f"victory_{p.get('winner') or 'none'}", {"names": winners}, lang)
        why = render(f"reason_{p.get('reason')}", {}, lang)
        return (won + ("" if lang == "zh_Hans" else " ") + why).strip()
    template = lines.get(key)
    if template is None:
        return ""
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template


def catalogue(lang: str | None) -> dict[str, dict[str, str]]:
    """Everything the phones need to show narration and the story in one language (e.g.
    served as JSON for the host's screen)."""
    lang = language(lang)
    return {
        "lines": dict(LINES[lang]),
        "roles": dict(ROLE_NAMES[lang]),
        "journal": dict(JOURNAL[lang]),
        "words": dict(WORDS[lang]),
    }
