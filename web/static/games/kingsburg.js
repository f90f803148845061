/* Kingsburg on the phone: the year and the phase (the calendar strip), whose move it is, the
   move panel of this phone's player (or, on the host's phone, of the player the game waits
   for): the dice typed on a keypad, the legal placements as buttons, the choices a reward
   leaves open, what he may build and afford, the recruit, the winter's die and enemy; the 18
   advisors with those taken and those he may take highlighted; every player's goods,
   soldiers, tokens, buildings and points at a glance; the chart of the scores. */
(function () {
  "use strict";
  let root, ctx;
  let dice = null;      // a roll being typed: {key, values: [..]} (null: nothing typed)
  let picks = [];       // goods picked for an open choice
  let hostSeat = null;  // an unseated host: the player he acts for in a simultaneous step
  let reroll = null;    // {building, die}: a Statue or Chapel reroll being typed
  let pay = { gold: 0, wood: 0, stone: 0 };
  let wayOpen = null;   // the advisor whose several ways of influencing are shown
  const GOODS = ["gold", "wood", "stone"];
  const COLOURS = ["#e03131", "#1c7ed6", "#2f9e44", "#f59f00", "#9c36b5"];
  const GOOD_NAMES = { gold: "Gold", wood: "Wood", stone: "Stone" };
  const ADVISORS = [null, "Jester", "Squire", "Architect", "Merchant", "Sergeant", "Alchemist",
    "Astronomer", "Treasurer", "Master Hunter", "General", "Swordsmith", "Duchess", "Champion",
    "Smuggler", "Inventor", "Wizard", "Queen", "King"];
  const BUILDINGS = {
    statue: "Statue", chapel: "Chapel", church: "Church", cathedral: "Cathedral",
    inn: "Inn", market: "Market", farms: "Farms", merchants_guild: "Merchants' Guild",
    guard_tower: "Guard Tower", blacksmith: "Blacksmith", barracks: "Barracks",
    wizards_guild: "Wizards' Guild", palisade: "Palisade", stable: "Stable",
    stone_wall: "Stone Wall", fortress: "Fortress", barricade: "Barricade", crane: "Crane",
    town_hall: "Town Hall", embassy: "Embassy",
  };
  const PHASES = { aid: "Aid from the King", spring: "Spring", reward: "The King's Reward",
    summer: "Summer", envoy: "The King's Envoy", autumn: "Autumn", recruit: "Recruit soldiers",
    winter: "Winter: the battle" };
  const PHASE_IDS = ["aid", "spring", "reward", "summer", "envoy", "autumn", "recruit", "winter"];
  const ENEMIES = { barbarians: "Barbarians", goblins: "Goblins", orcs: "Orcs", zombies: "Zombies",
    demons: "Demons", dragons: "Dragons" };
  const SOURCES = { start: "Brought from paper", buildings: "Buildings", advisors: "Advisors",
    kings_reward: "The King's Reward", town_hall: "Town Hall", embassy: "Embassy", battle: "Battles",
    cathedral: "Cathedral", lost_buildings: "Buildings lost", corrections: "Corrections",
    floor: "Score kept at 0" };

  const pub = () => ctx.view.public;
  const t = (m, p) => ctx.t(m, p);
  const good = (g) => t(GOOD_NAMES[g] || g);
  const bname = (b) => t(BUILDINGS[b] || b);
  const name = (seat) => (seat === null || seat === undefined ? "?" : pub().players[seat]);
  /* What was being picked when an action was sent is spent once it is accepted; a pick begun
     since, while the answer was on its way, is kept (a slow answer to the King's aid had
     wiped the roll typed after it, and "Send the roll" stayed disabled). */
  function send(action) {
    const sent = { dice, picks, reroll, wayOpen };
    return ctx.act(action).then(() => {
      if (dice === sent.dice) dice = null;
      if (picks === sent.picks) picks = [];
      if (reroll === sent.reroll) reroll = null;
      if (wayOpen === sent.wayOpen) wayOpen = null;
    }).catch(() => { /* toasted */ });
  }
  const costText = (cost) => TC.list(GOODS.filter((g) => cost[g]).map((g) => cost[g] + " " + good(g))) || t("free");

  function mount(r, c) {
    root = r; ctx = c;
    const { el } = ctx;
    root.append(
      el("section", { class: "card kb-head", id: "kb-head", "aria-live": "polite" }),
      el("section", { class: "card kb-act", id: "kb-act" }),
      el("section", { class: "card" }, el("h2", { text: t("Advisors") }), el("div", { class: "kb-advisors", id: "kb-advisors" })),
      el("section", { class: "kb-players", id: "kb-players" }),
      el("section", { class: "card" }, el("h2", { text: t("Scores over the game") }), el("div", { id: "kb-chart" })),
      el("details", { class: "card kb-fix", id: "kb-fix", hidden: true,
        ontoggle: (e) => { if (e.target.open) buildFix(); else root.querySelector("#kb-fix-form").replaceChildren(); } },
      el("summary", { text: t("Correct the board, or start from a game on paper") }), el("form", { id: "kb-fix-form", class: "stack" })),
    );
    let queued = false;
    window.addEventListener("resize", () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; if (ctx.view) drawChart(pub()); });
    });
  }

  /* The seats the game waits for now (for the head line and the host's panel). */
  function awaited(p) {
    if (p.ended) return [];
    if (p.pending.length) return [...new Set(p.pending.map((c) => c.seat))];
    const s = p.season, n = p.players.length;
    const all = [...Array(n).keys()];
    switch (p.step) {
      case "roll": return all.filter((i) => s.dice[i] === null || !s.settled[i]);
      case "influence": return s.turn === null ? [] : [s.turn];
      case "build": return all.filter((i) => !s.done[i]);
      case "recruit": return all.filter((i) => !p.recruited[i]);
      default: return [];
    }
  }

  /* The player this phone moves for: its own seat, or on an unseated host's phone the one
     the game waits for (the host picks among several). */
  function actor(p) {
    if (ctx.seat !== null && ctx.seat !== undefined) return ctx.seat;
    if (!ctx.isHost) return null;
    const wait = awaited(p);
    if (hostSeat !== null && wait.includes(hostSeat)) return hostSeat;
    return wait.length ? wait[0] : null;
  }

  function update(view, c) {
    ctx = c;
    const p = view.public;
    renderHead(p);
    renderAct(p);
    renderAdvisors(p);
    renderPlayers(p);
    drawChart(p);
    root.querySelector("#kb-fix").hidden = !ctx.isHost;
  }

  function renderHead(p) {
    const { el } = ctx;
    const box = root.querySelector("#kb-head");
    const me = ctx.seat;
    const wait = awaited(p);
    let line;
    if (p.ended) {
      const w = p.winners || [];
      line = w.includes(me) ? t("You won!") : t("{names} won!", { names: TC.names(w.map(name)) });
    } else if (p.step === "battle") {
      line = t("Enter the King's reinforcements and the enemy.");
    } else if (wait.includes(me)) {
      line = t("Your move");
    } else if (wait.length) {
      line = t("Waiting for {names}", { names: TC.names(wait.map(name)) });
    } else line = "";
    const strip = el("ol", { class: "kb-calendar", "aria-label": t("The year's phases") },
      PHASE_IDS.map((id, i) => el("li", {
        class: (i + 1 === p.phase ? "now" : i + 1 < p.phase ? "done" : ""),
        title: t(PHASES[id]), "aria-current": i + 1 === p.phase ? "step" : null,
      }, String(i + 1))));
    box.className = "card kb-head" + (wait.includes(me) && !p.ended ? " mine" : "");
    box.replaceChildren(
      el("p", { class: "kb-year", id: "kb-year", text: t("Year {year} of 5", { year: p.year }) + " · " + t(PHASES[p.phase_name]) }),
      strip,
      el("p", { class: "kb-line", id: "kb-line", text: line }));
  }

  /* ---- the move panel ---- */
  function renderAct(p) {
    const { el } = ctx;
    const box = root.querySelector("#kb-act");
    const seat = actor(p);
    const parts = [];
    if (ctx.isHost && (ctx.seat === null || ctx.seat === undefined) && awaited(p).length > 1) {
      parts.push(el("div", { class: "kb-choices", role: "group", "aria-label": t("Acting for") },
        awaited(p).map((s) => el("button", { class: "btn" + (s === seat ? " primary" : ""), type: "button",
          onclick: () => { hostSeat = s; dice = null; picks = []; reroll = null; pay = { gold: 0, wood: 0, stone: 0 }; update(ctx.view, ctx); } }, name(s)))));
    }
    if (p.ended) {
      parts.push(...endPanel(p));
    } else if (seat === null) {
      parts.push(el("p", { class: "muted", text: t("Join a seat to play from this phone.") }));
    } else {
      const choice = p.pending.find((c) => c.seat === seat);
      if (choice) parts.push(...choicePanel(p, seat, choice));
      else if (p.pending.length) parts.push(el("p", { class: "muted", text: t("Waiting for {names}", { names: TC.names(awaited(p).map(name)) }) }));
      else if (p.step === "roll") parts.push(...rollPanel(p, seat));
      else if (p.step === "influence") parts.push(...influencePanel(p, seat));
      else if (p.step === "build") parts.push(...buildPanel(p, seat));
      else if (p.step === "recruit") parts.push(...recruitPanel(p, seat));
      else if (p.step === "battle") parts.push(...battlePanel(p));
    }
    box.hidden = !parts.length;
    box.replaceChildren(...parts);
  }

  function keypad(label, value, onpick) {
    const { el } = ctx;
    return el("div", { class: "kb-die-row" },
      el("span", { class: "kb-die-label", text: label }),
      el("div", { class: "kb-pad", role: "group", "aria-label": label },
        [1, 2, 3, 4, 5, 6].map((v) => el("button", {
          type: "button", class: "btn" + (value === v ? " primary" : ""), "aria-pressed": value === v ? "true" : "false",
          onclick: () => { onpick(v); update(ctx.view, ctx); } }, String(v)))));
  }

  function rollPanel(p, seat) {
    const { el } = ctx;
    const s = p.season;
    const out = [];
    const mine = s.dice[seat];
    const whites = s.whites[seat];
    const me = ctx.view.you && ctx.view.you.view && ctx.view.you.view.me;
    if (me && me.proposal) {
      out.push(el("p", { class: "alert", text: t("The camera read {dice}. Is that right?", { dice: TC.list([...me.proposal.dice, ...me.proposal.white]) }) }),
        el("button", { class: "btn primary wide", id: "kb-confirm", type: "button", text: t("Yes, that is my roll"),
          onclick: () => send({ type: "confirm_roll", seat }) }));
    }
    if (mine && !s.settled[seat]) {
      out.push(...rerollPanel(p, seat, mine));
      return out;
    }
    const n = 3 + whites;
    const key = "roll-" + seat;
    if (!dice || dice.key !== key) dice = { key, values: Array(n).fill(null) };
    out.push(el("h2", { text: mine ? t("Your dice: {dice}", { dice: TC.list(mine.map((d) => d.v)) }) : t("Enter your roll") }));
    if (mine) out.push(el("p", { class: "muted", text: t("Typed wrong? Enter it again.") }));
    for (let i = 0; i < n; i++) {
      const label = i < 3 ? t("Die {n}", { n: i + 1 }) : t("White die");
      out.push(keypad(label, dice.values[i], (v) => { dice.values[i] = v; }));
    }
    const ready = dice.values.every((v) => v !== null);
    out.push(el("button", { class: "btn primary wide", id: "kb-roll", type: "button", disabled: !ready, text: t("Send the roll"),
      onclick: () => send({ type: "roll", seat, dice: dice.values.slice(0, 3), white: dice.values.slice(3) }) }));
    if (p.players.length === 2 && p.options.two_player_block && s.neutral === null) {
      out.push(...neutralPanel());
    }
    return out;
  }

  function neutralPanel() {
    const { el } = ctx;
    if (!dice || !dice.neutral) { dice = dice || { key: "", values: [] }; dice.neutral = [null, null, null]; }
    const out = [el("h2", { text: t("The neutral dice (two players)") })];
    for (let i = 0; i < 3; i++) out.push(keypad(t("Die {n}", { n: i + 1 }), dice.neutral[i], (v) => { dice.neutral[i] = v; }));
    out.push(el("button", { class: "btn wide", id: "kb-neutral", type: "button", disabled: dice.neutral.includes(null),
      text: t("Send the neutral dice"), onclick: () => send({ type: "roll_neutral", dice: dice.neutral }) }));
    return out;
  }

  function rerollPanel(p, seat, mine) {
    const { el } = ctx;
    const s = p.season;
    const b = p.p[seat].buildings;
    const equal = new Set(mine.map((d) => d.v)).size === 1;
    const total = mine.reduce((a, d) => a + d.v, 0);
    const out = [el("h2", { text: t("Your dice: {dice}", { dice: TC.list(mine.map((d) => d.v)) }) })];
    const canStatue = b.includes("statue") && equal && !usedReroll(s, seat, "statue");
    const canChapel = b.includes("chapel") && total <= 7 && !usedReroll(s, seat, "chapel");
    const row = el("div", { class: "kb-choices" });
    if (canStatue) row.append(el("button", { class: "btn", type: "button", id: "kb-statue", text: t("Statue: reroll one die"),
      onclick: () => { reroll = { building: "statue", die: null, values: [null] }; update(ctx.view, ctx); } }));
    if (canChapel) row.append(el("button", { class: "btn", type: "button", id: "kb-chapel", text: t("Chapel: reroll all"),
      onclick: () => { reroll = { building: "chapel", values: mine.map(() => null) }; update(ctx.view, ctx); } }));
    row.append(el("button", { class: "btn primary", type: "button", id: "kb-keep", text: t("Keep these dice"),
      onclick: () => send({ type: "keep", seat }) }));
    out.push(row);
    if (reroll && reroll.building === "statue") {
      out.push(el("p", { text: t("Which die?") }), el("div", { class: "kb-choices" }, mine.map((d, i) =>
        el("button", { class: "btn" + (reroll.die === i ? " primary" : ""), type: "button",
          onclick: () => { reroll.die = i; update(ctx.view, ctx); } }, String(d.v)))));
      out.push(keypad(t("New value"), reroll.values[0], (v) => { reroll.values[0] = v; }));
      out.push(el("button", { class: "btn primary wide", type: "button", disabled: reroll.die === null || reroll.values[0] === null,
        text: t("Reroll"), onclick: () => send({ type: "reroll", seat, building: "statue", die: reroll.die, value: reroll.values[0] }) }));
    } else if (reroll && reroll.building === "chapel") {
      mine.forEach((d, i) => out.push(keypad(t("Die {n}", { n: i + 1 }), reroll.values[i], (v) => { reroll.values[i] = v; })));
      out.push(el("button", { class: "btn primary wide", type: "button", disabled: reroll.values.includes(null),
        text: t("Reroll"), onclick: () => send({ type: "reroll", seat, building: "chapel", values: reroll.values }) }));
    }
    return out;
  }
  function usedReroll(s, seat, which) { return !!(s.rerolls && s.rerolls[seat] && s.rerolls[seat][which]); }

  function placementText(pl) {
    const parts = [pl.values.join("+")];
    if (pl.plus2) parts.push(t("+2 token"));
    if (pl.market) parts.push(t("Market {n}", { n: pl.market > 0 ? "+1" : "-1" }));
    if (pl.envoy) parts.push(t("Envoy"));
    return parts.join(" · ");
  }

  function influencePanel(p, seat) {
    const { el } = ctx;
    const s = p.season;
    if (s.turn !== seat) return [el("p", { class: "muted", text: t("Waiting for {names}", { names: name(s.turn) }) })];
    const moves = p.placements || [];
    const left = s.dice[seat].filter((d) => !d.used).map((d) => d.v);
    const out = [el("h2", { text: t("Influence an advisor") }),
      el("p", { class: "muted", text: t("Dice left: {dice}", { dice: TC.list(left) || "–" }) })];
    // one button an advisor (its simplest way); an advisor reached several ways opens them
    const by = new Map();
    for (const pl of moves) { if (!by.has(pl.advisor)) by.set(pl.advisor, []); by.get(pl.advisor).push(pl); }
    const list = el("div", { class: "kb-moves", id: "kb-moves" });
    const go = (pl) => send({ type: "influence", seat, advisor: pl.advisor, dice: pl.dice, plus2: pl.plus2, market: pl.market });
    for (const [a, ways] of by) {
      const open = wayOpen === a && ways.length > 1;
      list.append(el("button", { class: "btn kb-move" + (open ? " primary" : ""), type: "button", "data-advisor": a,
        "aria-expanded": ways.length > 1 ? String(open) : null,
        onclick: () => { if (ways.length === 1) go(ways[0]); else { wayOpen = open ? null : a; update(ctx.view, ctx); } } },
      el("strong", { text: a + " " + t(ADVISORS[a]) }),
      el("span", { text: ways.length === 1 ? placementText(ways[0]) : t("{n} ways", { n: ways.length }) })));
      if (open) {
        list.append(el("div", { class: "kb-ways", id: "kb-ways" }, ways.map((pl) =>
          el("button", { class: "btn", type: "button", onclick: () => go(pl), text: placementText(pl) }))));
      }
    }
    if (!moves.length) out.push(el("p", { text: t("No advisor can be influenced with your dice.") }));
    out.push(list, el("button", { class: "btn wide", id: "kb-pass", type: "button", text: t("Pass"),
      onclick: () => send({ type: "pass", seat }) }));
    return out;
  }

  function choicePanel(p, seat, c) {
    const { el } = ctx;
    const held = p.p[seat];
    const out = [];
    const row = el("div", { class: "kb-choices", id: "kb-choice" });
    if (c.kind === "goods" || c.kind === "lose_goods") {
      const lose = c.kind === "lose_goods";
      const from = lose ? GOODS.filter((g) => held[g] > picks.filter((x) => x === g).length) : c.from;
      const head = c.n === 1 ? (lose ? t("Give up a good") : t("Choose a good"))
        : (lose ? t("Give up {n} goods", { n: c.n }) : t("Choose {n} goods", { n: c.n }));
      out.push(el("h2", { text: head }));
      if (c.advisor) out.push(el("p", { class: "muted", text: c.advisor + " " + t(ADVISORS[c.advisor]) }));
      for (const g of from) {
        row.append(el("button", { class: "btn", type: "button", "data-good": g, text: good(g), onclick: () => {
          picks.push(g);
          if (picks.length >= c.n) send({ type: "choose", seat, goods: picks.slice(0, c.n) });
          else update(ctx.view, ctx);
        } }));
      }
      out.push(row);
      if (picks.length) out.push(el("p", { class: "muted" }, TC.spaced(t("Chosen: {goods}", { goods: TC.list(picks.map(good)) })),
        el("button", { class: "btn ghost", type: "button", text: t("Clear"), onclick: () => { picks = []; update(ctx.view, ctx); } })));
    } else if (c.kind === "alchemist") {
      out.push(el("h2", { text: t("The Alchemist: which good do you give back?") }));
      GOODS.filter((g) => held[g] > 0).forEach((g) => row.append(el("button", { class: "btn", type: "button", "data-good": g,
        text: good(g), onclick: () => send({ type: "choose", seat, give: g }) })));
      out.push(row);
    } else if (c.kind === "town_hall") {
      out.push(el("h2", { text: t("Town Hall: pay for 1 victory point?") }));
      ["plus2", ...GOODS].filter((g) => held[g] > 0).forEach((g) => row.append(el("button", { class: "btn", type: "button",
        "data-good": g, text: g === "plus2" ? t("+2 token") : good(g), onclick: () => send({ type: "choose", seat, pay: g }) })));
      row.append(el("button", { class: "btn ghost", type: "button", text: t("No, thanks"), onclick: () => send({ type: "choose", seat, pay: null }) }));
      out.push(row);
    } else if (c.kind === "lose_building") {
      out.push(el("h2", { text: t("Which building do you lose?") }));
      c.from.forEach((b) => row.append(el("button", { class: "btn", type: "button", "data-building": b, text: bname(b),
        onclick: () => send({ type: "choose", seat, building: b }) })));
      out.push(row);
    }
    return out;
  }

  function buildPanel(p, seat) {
    const { el } = ctx;
    const s = p.season;
    if (s.done[seat]) return [el("p", { class: "muted", text: t("Waiting for {names}", { names: TC.names(awaited(p).map(name)) }) })];
    const out = [el("h2", { text: t("Build") })];
    const list = el("div", { class: "kb-moves", id: "kb-build" });
    for (const b of p.buildable[seat]) {
      list.append(el("button", { class: "btn kb-move" + (b.affordable ? "" : " off"), type: "button", disabled: !b.affordable,
        "data-building": b.building, onclick: () => send({ type: "build", seat, building: b.building }) },
      el("strong", { text: bname(b.building) }), el("span", { text: costText(b.cost) })));
    }
    out.push(list, el("button", { class: "btn wide", id: "kb-done", type: "button", text: t("Done building"),
      onclick: () => send({ type: "done", seat }) }));
    return out;
  }

  function recruitPanel(p, seat) {
    const { el } = ctx;
    if (p.recruited[seat]) return [el("p", { class: "muted", text: t("Waiting for {names}", { names: TC.names(awaited(p).map(name)) }) })];
    const held = p.p[seat];
    const barracks = held.buildings.includes("barracks");
    const total = GOODS.reduce((a, g) => a + pay[g], 0);
    let soldiers;
    if (!barracks) soldiers = total % 2 ? null : total / 2;
    else if (p.options.barracks_pay === "good") soldiers = total;
    else soldiers = (total - pay.gold) % 2 ? null : pay.gold + (total - pay.gold) / 2;
    const out = [el("h2", { text: t("Recruit soldiers") }),
      el("p", { class: "muted", text: barracks ? t("With Barracks a soldier costs 1 good.") : t("A soldier costs 2 goods.") })];
    for (const g of GOODS) {
      out.push(el("div", { class: "row kb-pay" },
        el("span", { class: "grow", text: good(g) + " " + pay[g] + " / " + held[g] }),
        el("button", { class: "btn", type: "button", "aria-label": t("Less {good}", { good: good(g) }), disabled: pay[g] <= 0,
          onclick: () => { pay[g]--; update(ctx.view, ctx); } }, "−"),
        el("button", { class: "btn", type: "button", "aria-label": t("More {good}", { good: good(g) }), "data-good": g,
          disabled: pay[g] >= held[g], onclick: () => { pay[g]++; update(ctx.view, ctx); } }, "+")));
    }
    out.push(el("button", { class: "btn primary wide", id: "kb-recruit", type: "button", disabled: soldiers === null,
      text: soldiers === null ? t("Pay an even number of goods")
        : soldiers === 1 ? t("Recruit 1 soldier") : t("Recruit {n} soldiers", { n: soldiers }),
      onclick: () => { const paid = { ...pay }; pay = { gold: 0, wood: 0, stone: 0 }; send({ type: "recruit", seat, soldiers, pay: paid }); } }));
    return out;
  }

  function battlePanel(p) {
    const { el } = ctx;
    const b = p.battle;
    const out = [];
    if (b.reinforcement === null) {
      out.push(el("h2", { text: t("The King's reinforcements") }),
        el("div", { class: "kb-pad", role: "group", "aria-label": t("The King's reinforcements") },
          [1, 2, 3, 4, 5, 6].map((v) => el("button", { class: "btn", type: "button", onclick: () => send({ type: "reinforce", value: v }) }, String(v)))));
    } else out.push(el("p", { text: t("The King's reinforcements: {n}", { n: b.reinforcement }) }));
    if (b.enemy === null && p.year_enemies) {
      out.push(el("h2", { text: t("The enemy revealed") }), el("div", { class: "kb-moves", id: "kb-enemies" },
        p.year_enemies.map((e) => el("button", { class: "btn kb-move", type: "button", "data-card": e.id,
          onclick: () => send({ type: "reveal_enemy", card: e.id }) },
        el("strong", { text: t(ENEMIES[e.kind]) + " " + e.strength }), el("span", { text: effectText(e.win, e.lose) })))));
    }
    return out;
  }

  function effectText(win, lose) {
    const part = (eff, sign) => TC.list(Object.entries(eff).map(([k, v]) => sign + v + " " +
      (k === "vp" ? t("VP") : k === "goods" ? t("goods") : k === "buildings" ? t("building") : good(k))));
    return t("win: {win}; lose: {lose}", { win: part(win, "+"), lose: part(lose, "−") });
  }

  function endPanel(p) {
    const { el } = ctx;
    const rows = p.ranking.map((seat, i) => el("li", { class: "kb-rank" },
      el("strong", { text: (i + 1) + ". " + name(seat) + " · " + t("{n} VP", { n: p.p[seat].vp }) }),
      el("span", { class: "muted", text: TC.list(Object.entries(p.breakdown[seat]).map(([k, v]) => t(SOURCES[k] || k) + " " + v)) })));
    return [el("h2", { text: t("Final scores") }), el("ol", { class: "kb-ranking", id: "kb-ranking" }, rows)];
  }

  /* ---- the advisors and the players ---- */
  function renderAdvisors(p) {
    const { el } = ctx;
    const box = root.querySelector("#kb-advisors");
    const s = p.season;
    const legal = new Set((p.placements || []).filter(() => s && s.turn === actor(p)).map((pl) => pl.advisor));
    const cells = [];
    for (let a = 1; a <= 18; a++) {
      const on = (s && s.advisors[String(a)]) || [];
      const blocked = s && s.blocked.includes(a);
      cells.push(el("div", { class: "kb-adv" + (legal.has(a) ? " legal" : "") + (on.length || blocked ? " taken" : ""), "data-advisor": a },
        el("span", { class: "kb-adv-n", text: String(a) }),
        el("span", { class: "kb-adv-name", text: t(ADVISORS[a]) }),
        el("span", { class: "kb-dots" }, on.map((seat) => el("span", { class: "kb-dot", title: name(seat), style: "background:" + COLOURS[seat] })),
          blocked ? el("span", { class: "kb-dot neutral", title: t("Blocked") }) : null)));
    }
    box.replaceChildren(...cells);
  }

  function renderPlayers(p) {
    const { el } = ctx;
    const box = root.querySelector("#kb-players");
    const cards = p.order.map((seat, k) => {
      const pl = p.p[seat];
      const dice = p.season && p.season.dice[seat];
      return el("article", { class: "card kb-player" + (awaited(p).includes(seat) ? " current" : ""), "data-seat": seat },
        el("div", { class: "row kb-player-head" },
          el("span", { class: "kb-dot big", style: "background:" + COLOURS[seat] }),
          el("strong", { class: "grow", text: (k + 1) + ". " + name(seat) + (seat === ctx.seat ? TC.aside(t("(you)")) : "") }),
          p.envoy === seat ? el("span", { class: "tag", text: t("Envoy") }) : null,
          el("span", { class: "kb-vp", text: t("{n} VP", { n: pl.vp }) })),
        el("p", { class: "kb-stock" }, GOODS.map((g) => el("span", { class: "kb-good " + g, text: good(g) + " " + pl[g] })),
          el("span", { class: "kb-good", text: t("Soldiers") + " " + pl.soldiers }),
          el("span", { class: "kb-good", text: t("+2 tokens") + " " + pl.plus2 })),
        dice ? el("p", { class: "muted kb-dice", text: t("Dice: {dice}", { dice: TC.list(dice.map((d) => (d.used ? "(" + d.v + ")" : String(d.v)) + (d.white ? "○" : ""))) }) }) : null,
        el("p", { class: "kb-buildings" }, pl.buildings.length ? pl.buildings.map((b) => el("span", { class: "tag", text: bname(b) }))
          : el("span", { class: "muted", text: t("No buildings yet") })));
    });
    box.replaceChildren(...cards);
  }

  /* ---- the host's form: the board as it is, to correct, or another year and phase to start
     a game under way on paper from. Built when opened (a live update never wipes what the host
     is typing); "Reload" fills it again. ---- */
  const COUNTS = ["gold", "wood", "stone", "soldiers", "plus2", "vp"];
  const COUNT_NAMES = { gold: "Gold", wood: "Wood", stone: "Stone", soldiers: "Soldiers", plus2: "+2 tokens", vp: "VP" };
  function buildFix() {
    const { el } = ctx;
    const p = pub();
    const form = root.querySelector("#kb-fix-form");
    const n = p.players.length;
    const select = (id, label, options, value) => el("label", { class: "kb-field" }, el("span", { text: label }),
      el("select", { id }, options.map(([v, text]) => el("option", { value: v, selected: String(v) === String(value) || null, text }))));
    const num = (id, label, value) => el("label", { class: "kb-field" }, el("span", { text: label }),
      el("input", { id, type: "number", inputmode: "numeric", value: String(value), min: label === t("VP") ? null : "0", step: "1" }));
    const players = p.players.map((who, seat) => el("fieldset", { class: "kb-fix-player", "data-seat": seat },
      el("legend", { text: who }),
      select("kb-fix-place-" + seat, t("Place in the turn order"), [...Array(n).keys()].map((k) => [k + 1, String(k + 1)]), p.order.indexOf(seat) + 1),
      el("div", { class: "kb-fix-counts" }, COUNTS.map((c) => num("kb-fix-" + c + "-" + seat, t(COUNT_NAMES[c]), p.p[seat][c]))),
      el("div", { class: "kb-fix-buildings" }, Object.keys(BUILDINGS).map((b) => el("label", { class: "kb-check" },
        el("input", { type: "checkbox", "data-building": b, checked: p.p[seat].buildings.includes(b) || null }),
        el("span", { text: bname(b) }))))));
    form.replaceChildren(
      el("p", { class: "muted", text: t("The same year and phase: the changes are corrections. Another year or phase: the game goes on from its beginning with this board.") }),
      select("kb-fix-year", t("Year"), [1, 2, 3, 4, 5].map((y) => [y, String(y)]), p.year),
      select("kb-fix-phase", t("Phase"), PHASE_IDS.map((id, i) => [i + 1, (i + 1) + " " + t(PHASES[id])]), p.phase),
      select("kb-fix-envoy", t("Envoy"), [["", t("nobody")], ...p.players.map((who, seat) => [seat, who])], p.envoy === null ? "" : p.envoy),
      ...players,
      el("div", { class: "row" },
        el("button", { class: "btn primary grow", id: "kb-fix-apply", type: "submit", text: t("Apply") }),
        el("button", { class: "btn", type: "button", text: t("Reload"), onclick: buildFix })));
    form.onsubmit = (ev) => { ev.preventDefault(); applyFix(); };
  }

  async function applyFix() {
    const p = pub();
    const form = root.querySelector("#kb-fix-form");
    const val = (id) => form.querySelector("#" + id).value;
    const year = Number(val("kb-fix-year")), phase = Number(val("kb-fix-phase"));
    const envoy = val("kb-fix-envoy") === "" ? null : Number(val("kb-fix-envoy"));
    const places = p.players.map((_, seat) => Number(val("kb-fix-place-" + seat)));
    if (new Set(places).size !== places.length) { ctx.toast(t("Give every player a different place in the turn order."), "error"); return; }
    const order = places.map((place, seat) => [place, seat]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const players = [];
    for (let seat = 0; seat < p.players.length; seat++) {
      const one = {};
      for (const c of COUNTS) {
        const v = Number(val("kb-fix-" + c + "-" + seat));
        if (!Number.isInteger(v)) { ctx.toast(t("Counts are whole numbers."), "error"); return; }
        one[c] = v;
      }
      one.buildings = [...form.querySelectorAll('.kb-fix-player[data-seat="' + seat + '"] input[type=checkbox]')]
        .filter((c) => c.checked).map((c) => c.dataset.building);
      players.push(one);
    }
    try {
      if (year !== p.year || phase !== p.phase) {
        await ctx.act({ type: "position", year, phase, order, envoy, players });
      } else {
        for (let seat = 0; seat < players.length; seat++) {
          const was = p.p[seat], now = players[seat];
          const changed = COUNTS.some((c) => was[c] !== now[c]) || String([...was.buildings].sort()) !== String([...now.buildings].sort());
          if (changed) await ctx.act({ type: "correct", seat, ...now });
        }
        if (String(order) !== String(p.order)) await ctx.act({ type: "correct", order });
        if (envoy !== p.envoy) await ctx.act({ type: "correct", envoy });
      }
      ctx.toast(t("The board is corrected."));
      root.querySelector("#kb-fix").open = false;
    } catch (e) { /* the toast said why */ }
  }

  /* What the result's picture adds to the scores (app.js): the chart of the points. */
  function share(view) { return view.public.series ? { series: view.public.series } : {}; }

  function drawChart(p) {
    const box = root.querySelector("#kb-chart");
    if (!box || !p.series) return;
    box.replaceChildren(...TC.chart({ series: p.series, names: p.players, width: box.clientWidth,
      font: getComputedStyle(root).fontFamily, xLabel: () => t("Year {year} of 5", { year: p.year }) }));
  }

  function onEvents(events) {
    for (const e of events) {
      if (e.type === "phase") ctx.toast(t("Year {year}: {phase}", { year: e.year, phase: t(PHASES[e.name]) }));
    }
  }

  function describe(entry, c) {
    ctx = c;
    const b = entry.body;
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "roll": return t("rolled {dice}", { dice: TC.list([...(b.dice || []), ...(b.white || [])]) });
      case "influence": return t("influenced advisor {n}", { n: b.advisor });
      case "pass": return t("passed");
      case "choose": return t("chose");
      case "build": return t("built the {building}", { building: bname(b.building) });
      case "recruit": return b.soldiers === 1 ? t("recruited 1 soldier") : t("recruited {n} soldiers", { n: b.soldiers || 0 });
      case "position": return t("typed in a game under way");
      case "correct": return t("corrected the board");
      default: return b.type;
    }
  }

  TC.registerGame("kingsburg", { mount, update, onEvents, describe, share });
})();
