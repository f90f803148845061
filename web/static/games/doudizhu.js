/* Dou Di Zhu on the phone: the referee of real cards played face up in the middle.
   Whose turn, the landlord and the stake, the play to beat (with its kind), each player's
   cards left; the auction (bid 1/2/3 or pass), the doubling variant, a rank picker to tap a
   play (or the camera's proposal to confirm), Pass; the verdict of a refused play on every
   phone (and said by the host's phone where the table has no speaker); the hand's result and
   the totals. A player may tap in his own hand: only this phone sees it, and the hint lists
   the plays of it that beat the last one (a tap puts one in the picker).
   The host (PIN) acts for anyone: for the player to move by default. */
(function () {
  "use strict";
  const HINTS = 8;  // plays listed before "Show all" (a 20-card hand may make a hundred)
  const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"];
  let root, ctx;
  const ui = { sel: [], mode: "play", allHints: false, alert: null, alertVersion: null, news: [], busy: false,
    proposal: null, prefilled: false };

  const data = () => { const v = ctx.view; return v ? (v.you ? v.you.view : v.public) : null; };
  const player = (seat) => { const d = data(); return d && seat !== null && seat !== undefined ? (d.players[seat] || "?") : "?"; };
  const you = (seat) => seat !== null && seat !== undefined && seat === ctx.seat;

  function kindName(k) {
    const t = ctx.t;
    return {
      single: t("single"), pair: t("pair"), triplet: t("triplet"), triplet_single: t("triplet with a single"),
      triplet_pair: t("triplet with a pair"), sequence: t("sequence"), pair_sequence: t("sequence of pairs"),
      airplane: t("sequence of triplets"), airplane_singles: t("sequence of triplets with singles"),
      airplane_pairs: t("sequence of triplets with pairs"), bomb: t("bomb"), rocket: t("rocket"),
      quadplex: t("four with two singles"), quad_pairs: t("four with two pairs"),
    }[k] || k;
  }
  function rankLabel(r) {
    return r === "BJ" ? ctx.t("Black joker") : r === "RJ" ? ctx.t("Red joker") : r;
  }
  /* A card as a chip: the rank big, the jokers as a star (black / red), suits never. */
  function chip(r, attrs) {
    const joker = r === "BJ" || r === "RJ";
    return ctx.el("span", Object.assign({ class: "ddz-chip" + (joker ? " joker " + r.toLowerCase() : ""),
      "aria-label": rankLabel(r), title: rankLabel(r), text: joker ? "★" : r }, attrs || {}));
  }
  function chips(cards, cls) {
    return ctx.el("span", { class: "ddz-chips " + (cls || "") }, (cards || []).map((c) => chip(c)));
  }
  function sortRanks(cards) { return cards.slice().sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b)); }

  function act(action) {
    if (ui.busy) return Promise.resolve();
    ui.busy = true;
    // (resolves to null where the table refused the action: its answer, not the stream's
    // refusal event, which may come before or after it)
    return ctx.act(action).then((res) => { ui.alert = null; return res || true; })
      .catch(() => null).finally(() => { ui.busy = false; render(); });
  }

  function mount(r, c) {
    root = r; ctx = c;
    const { el } = ctx;
    root.append(
      el("section", { class: "card ddz-status", id: "ddz-status" }),
      el("div", { class: "alert", id: "ddz-alert", role: "alert", hidden: true }),
      el("section", { class: "card", id: "ddz-act" }),
      el("section", { class: "card", id: "ddz-mine", hidden: true }),
      el("section", { class: "card", id: "ddz-players" }),
    );
  }

  function update(view, c) { ctx = c; render(); }

  /* The camera's proposal of my play fills the picker with its cards, so that a card the
     camera missed (or misread) is one tap away: add it, then "Use the cards picked". The
     filling is taken back when the proposal goes, if the player did not touch it. */
  function syncProposal(d) {
    const p = d.hand && d.hand.phase === "play" ? d.hand.proposal : null;
    const key = p ? JSON.stringify([p.seat, p.cards]) : null;
    if (key === ui.proposal) return;
    if (ui.prefilled && JSON.stringify(ui.sel) === JSON.stringify(ui.prefilled)) ui.sel = [];
    ui.proposal = key;
    ui.prefilled = false;
    if (p && canAct(p.seat) && ui.mode === "play") {
      ui.sel = p.cards.slice();
      ui.prefilled = ui.sel.slice();
    }
  }

  function render() {
    const d = data();
    if (!d) return;
    syncProposal(d);
    renderStatus(d);
    renderAlert();
    renderAct(d);
    renderMine(d);
    renderPlayers(d);
  }

  function turnSeat(h) { return h.phase === "play" ? h.current : h.turn; }

  function renderStatus(d) {
    const { el, t } = ctx;
    const h = d.hand;
    const box = root.querySelector("#ddz-status");
    const seat = turnSeat(h);
    let line;
    if (d.ended) line = t("The match is over.");
    else if (h.phase === "over") line = h.result.landlord_won ? t("The landlord {name} wins the hand!", { name: player(h.landlord) })
      : t("The peasants win the hand!");
    else if (h.phase === "landlord") line = t("Who drew the face-up card? That player is the landlord.");
    else if (seat === null || seat === undefined) line = t("Whoever drew the face-up card bids first.");
    else line = you(seat) ? t("Your turn!") : t("{name}'s turn", { name: player(seat) });
    box.classList.toggle("mine", you(seat));
    const parts = [el("p", { class: "ddz-turn" + (you(seat) ? " mine" : ""), id: "ddz-turn", text: line })];
    const facts = [];
    if (h.landlord !== null) facts.push(t("Landlord: {name}", { name: player(h.landlord) }));
    if (h.phase === "auction" && h.high) facts.push(t("Highest bid: {bid} ({name})", { bid: h.high, name: player(h.high_seat) }));
    if (h.stake) facts.push(t("Stake: {n}", { n: h.stake }));
    if (h.bombs + h.rockets) facts.push(t("Bombs and rockets: {n}", { n: h.bombs + h.rockets }));
    if (facts.length) parts.push(el("p", { class: "muted", text: TC.clauses(facts) }));
    if (h.phase === "play" || h.phase === "over") {
      const last = h.last;
      parts.push(el("div", { class: "ddz-last", id: "ddz-last", "data-cards": last ? last.cards.join("-") : "" }, last
        ? [el("p", { class: "muted small", text: t("To beat: {name}'s {kind}", { name: player(last.seat), kind: kindName(last.kind) }) }), chips(last.cards, "big")]
        : [el("p", { class: "muted", text: h.phase === "play" ? (you(h.current) ? t("You lead: play any combination.") : t("{name} leads.", { name: player(h.current) })) : "" })]));
    }
    if (h.kitty) parts.push(el("p", { class: "muted small" }, TC.spaced(t("Kitty:")), chips(h.kitty)));
    if (ui.news.length) parts.push(el("div", { class: "ddz-news" }, ui.news.map((s) => el("p", { text: s }))));
    box.replaceChildren(...parts);
  }

  function renderAlert() {
    const box = root.querySelector("#ddz-alert");
    box.hidden = !ui.alert;
    if (ui.alert) box.replaceChildren(ctx.el("span", { id: "ddz-verdict", text: ui.alert }));
  }

  function canAct(seat) { return ctx.isHost || (ctx.seat !== null && (seat === null || seat === undefined || seat === ctx.seat)); }

  function renderAct(d) {
    const { el, t } = ctx;
    const h = d.hand;
    const box = root.querySelector("#ddz-act");
    const parts = [];
    if (d.ended) { box.hidden = true; return; }
    if (h.phase === "auction") {
      const mine = canAct(h.turn);
      parts.push(el("h2", { text: t("Auction") }),
        el("div", { class: "ddz-row" }, [1, 2, 3].map((b) => el("button", {
          class: "btn primary", type: "button", disabled: !mine || b <= h.high, id: "ddz-bid-" + b,
          onclick: () => act({ type: "bid", bid: b }), text: t("Bid {bid}", { bid: b }) })),
        el("button", { class: "btn", type: "button", disabled: !mine, id: "ddz-nobid",
          onclick: () => act({ type: "pass" }), text: t("Pass") })));
      if (h.bids.length) parts.push(el("p", { class: "muted small", text: TC.clauses(h.bids.map((b) => b.bid
        ? t("{name}: {bid}", { name: player(b.seat), bid: b.bid }) : t("{name}: pass", { name: player(b.seat) }))) }));
    } else if (h.phase === "landlord") {
      parts.push(el("h2", { text: t("The landlord") }), el("div", { class: "ddz-row" }, d.players.map((n, i) => el("button", {
        class: "btn", type: "button", disabled: !canAct(i), onclick: () => act({ type: "landlord", seat: i }), text: n }))));
    } else if (h.phase === "doubling") {
      const lord = h.turn === h.landlord;
      parts.push(el("h2", { text: lord ? t("Redouble?") : t("Double?") }), el("p", { class: "muted", text: you(h.turn) ? t("Your turn!") : t("{name}'s turn", { name: player(h.turn) }) }),
        el("div", { class: "ddz-row" },
          el("button", { class: "btn primary", type: "button", disabled: !canAct(h.turn),
            onclick: () => act(lord ? { type: "redouble", redouble: true } : { type: "double", double: true }), text: lord ? t("Redouble") : t("Double") }),
          el("button", { class: "btn", type: "button", disabled: !canAct(h.turn),
            onclick: () => act(lord ? { type: "redouble", redouble: false } : { type: "double", double: false }), text: t("No") })));
    } else if (h.phase === "play") {
      parts.push(...playPanel(d));
    } else if (h.phase === "over") {
      const r = h.result;
      const notes = [t("Stake: {n}", { n: r.stake })];
      if (r.spring) notes.push(t("Spring!"));
      if (r.anti_spring) notes.push(t("Anti-spring!"));
      parts.push(el("h2", { text: t("Hand {n}", { n: h.number }) }), el("p", { text: TC.clauses(notes) }),
        el("ul", { class: "ddz-points" }, d.players.map((n, i) => el("li", {}, el("span", { class: "grow", text: n }),
          el("strong", { text: (r.points[i] > 0 ? "+" : "") + r.points[i] })))),
        el("button", { class: "btn primary wide", type: "button", id: "ddz-next", disabled: ctx.seat === null && !ctx.isHost,
          onclick: () => act({ type: "next_hand" }), text: t("Next hand") }));
    }
    box.hidden = !parts.length;
    box.replaceChildren(...parts);
  }

  /* A play accepted spends the cards it was sent with, once each; a rank tapped since, while
     the answer was on its way (a slow network), stays picked (the answer had cleared it). */
  function spend(cards) {
    cards.forEach((r) => { const i = ui.sel.indexOf(r); if (i >= 0) ui.sel.splice(i, 1); });
  }
  /* The rank picker: a tap adds one card of that rank, a tap on a picked card takes it out. */
  function picker() {
    const { el, t } = ctx;
    const grid = el("div", { class: "ddz-picker", role: "group", "aria-label": t("Cards") },
      RANKS.map((r) => {
        const n = ui.sel.filter((x) => x === r).length;
        return el("button", { class: "btn ddz-rank" + (r === "BJ" || r === "RJ" ? " joker " + r.toLowerCase() : "") + (n ? " on" : ""),
          type: "button", "data-rank": r, "aria-label": rankLabel(r), onclick: () => { ui.sel.push(r); render(); } },
        r === "BJ" || r === "RJ" ? "★" : r, n ? el("span", { class: "ddz-n", text: "×" + n }) : null);
      }));
    const picked = el("div", { class: "ddz-picked", id: "ddz-picked" }, ui.sel.length
      ? sortRanks(ui.sel).map((r) => chip(r, { role: "button", tabindex: 0, onclick: () => { ui.sel.splice(ui.sel.indexOf(r), 1); render(); } }))
      : [el("span", { class: "muted", text: t("Tap the cards played.") })]);
    return [grid, picked];
  }

  function playPanel(d) {
    const { el, t } = ctx;
    const h = d.hand;
    const mine = canAct(h.current);
    const out = [];
    const p = h.proposal;
    if (p) {
      out.push(el("div", { class: "alert", id: "ddz-proposal" },
        el("p", { text: you(p.seat) ? t("The camera read your play. Is it right?") : t("The camera read {name}'s play. Is it right?", { name: player(p.seat) }) }),
        chips(p.cards, "big"),
        p.unsure.length ? el("p", { class: "small", text: t("Not sure of: {cards}", { cards: TC.list(p.unsure.map(rankLabel)) }) }) : null,
        canAct(p.seat) ? el("p", { class: "small", text: t("A card missing or wrong? Fix the cards picked below, then use them.") }) : null,
        el("div", { class: "ddz-row" },
          el("button", { class: "btn primary", type: "button", id: "ddz-confirm", disabled: !canAct(p.seat), onclick: () => act({ type: "confirm" }), text: t("Yes") }),
          el("button", { class: "btn", type: "button", disabled: !canAct(p.seat) || !ui.sel.length,
            onclick: () => { const cards = ui.sel.slice(); ui.sel = []; act({ type: "confirm", cards }); }, text: t("Use the cards picked") }),
          el("button", { class: "btn", type: "button", disabled: !canAct(p.seat), onclick: () => act({ type: "dismiss" }), text: t("Dismiss") }))));
    }
    const title = ui.mode === "hand" ? t("Your hand") : ui.mode === "kitty" ? t("The kitty") : t("Play");
    out.push(el("h2", { text: title }), ...picker());
    const buttons = [];
    if (ui.mode === "play") {
      buttons.push(el("button", { class: "btn primary", type: "button", id: "ddz-play", disabled: !mine || !ui.sel.length || !!p,
        onclick: () => { const cards = ui.sel.slice(); act({ type: "play", cards }).then((done) => { if (done) spend(cards); render(); }); }, text: t("Play") }),
      el("button", { class: "btn", type: "button", id: "ddz-pass", disabled: !mine || !h.last || !!p, onclick: () => act({ type: "pass" }), text: t("Pass") }));
    } else {
      buttons.push(el("button", { class: "btn primary", type: "button", id: "ddz-save", disabled: !ui.sel.length,
        onclick: () => { const cards = ui.sel.slice(); ui.sel = []; const mode = ui.mode; ui.mode = "play";
          act(mode === "hand" ? { type: "set_hand", cards } : { type: "kitty", cards }); }, text: t("Save") }),
      el("button", { class: "btn", type: "button", onclick: () => { ui.mode = "play"; ui.sel = []; render(); }, text: t("Cancel") }));
    }
    buttons.push(el("button", { class: "btn ghost", type: "button", disabled: !ui.sel.length, onclick: () => { ui.sel = []; render(); }, text: t("Clear") }));
    out.push(el("div", { class: "ddz-row" }, buttons));
    if (ui.mode === "play" && d.options.deal === "table") {
      const more = [];
      if (ctx.seat !== null) more.push(el("button", { class: "btn small", type: "button", id: "ddz-enter-hand",
        onclick: () => { ui.mode = "hand"; ui.sel = []; render(); }, text: t("Tap in my hand for hints") }));
      if (!h.kitty && (ctx.isHost || you(h.landlord))) more.push(el("button", { class: "btn small", type: "button",
        onclick: () => { ui.mode = "kitty"; ui.sel = []; render(); }, text: t("Enter the kitty") }));
      if (more.length) out.push(el("div", { class: "ddz-row" }, more));
    }
    return out;
  }

  function renderMine(d) {
    const { el, t } = ctx;
    const box = root.querySelector("#ddz-mine");
    const me = d.me;
    box.hidden = !me || !me.hand;
    if (box.hidden) return;
    const parts = [el("h2", { text: t("Only you see this") }), el("p", { class: "small muted", text: t("Your hand") }), chips(me.hand)];
    if (me.kitty) parts.push(el("p", { class: "small muted" }, TC.spaced(t("Kitty:")), chips(me.kitty)));
    if (me.hint) {
      parts.push(el("h2", { text: d.hand.last ? t("Plays that beat it") : t("Plays you can lead") }));
      if (!me.hint.length) parts.push(el("p", { class: "muted", id: "ddz-no-hint", text: t("Nothing beats it: pass.") }));
      const shown = ui.allHints ? me.hint : me.hint.slice(0, HINTS);
      parts.push(el("div", { class: "ddz-hints", id: "ddz-hints" }, shown.map((p) => el("button", {
        class: "btn ddz-hint", type: "button", onclick: () => { ui.mode = "play"; ui.sel = p.cards.slice(); render(); } },
      chips(p.cards), el("span", { class: "small muted", text: kindName(p.kind) })))));
      if (me.hint.length > HINTS) parts.push(el("button", { class: "btn ghost small wide", type: "button", id: "ddz-all-hints",
        onclick: () => { ui.allHints = !ui.allHints; render(); },
        text: ui.allHints ? t("Show fewer") : t("Show all {n}", { n: me.hint.length }) }));
    }
    box.replaceChildren(...parts);
  }

  function renderPlayers(d) {
    const { el, t } = ctx;
    const h = d.hand;
    const seat = turnSeat(h);
    const box = root.querySelector("#ddz-players");
    box.replaceChildren(el("h2", { text: t("Players") }), el("ul", { class: "ddz-players" }, d.players.map((n, i) => {
      const tags = [];
      if (h.landlord === i) tags.push(el("span", { class: "tag lord", text: t("landlord") }));
      else if (h.landlord !== null) tags.push(el("span", { class: "tag", text: t("peasant") }));
      if (i === ctx.seat) tags.push(el("span", { class: "tag you", text: t("you") }));
      return el("li", { class: seat === i ? "turn" : "", "data-seat": i },
        el("span", { class: "ddz-marker", text: seat === i ? "▶" : "" }),
        el("span", { class: "grow" }, el("span", { class: "ddz-name", text: n }), " ", ...tags),
        el("span", { class: "ddz-count", title: t("cards left"), "aria-label": t("{n} cards left", { n: h.counts[i] }), text: String(h.counts[i]) }),
        el("span", { class: "ddz-total muted small", title: t("Total"), text: (d.totals[i] > 0 ? "+" : "") + d.totals[i] }));
    })));
  }

  function eventText(e) {
    const t = ctx.t;
    const nm = (s) => player(s);
    switch (e.type) {
      case "bid": return e.bid ? t("{name} bids {bid}.", { name: nm(e.seat), bid: e.bid }) : t("{name} passes.", { name: nm(e.seat) });
      case "redeal": return t("Everyone passed: deal again.");
      case "landlord": return t("{name} is the landlord.", { name: nm(e.seat) });
      case "double": return e.double ? t("{name} doubles.", { name: nm(e.seat) }) : null;
      case "redouble": return e.redouble ? t("{name} redoubles.", { name: nm(e.seat) }) : null;
      case "played": return t("{name} plays a {kind}: {cards}.", { name: nm(e.seat), kind: kindName(e.kind), cards: e.cards.map(rankLabel).join(" ") });
      case "passed": return t("{name} passes.", { name: nm(e.seat) });
      case "lead": return t("Everyone passed: {name} leads.", { name: nm(e.seat) });
      case "hand_over": return e.landlord_won ? t("The landlord wins the hand!") : t("The peasants win the hand!");
      case "new_hand": return t("Hand {n}: deal.", { n: e.number });
      case "dismissed": return t("The play was dismissed.");
      case "count_adjusted": return t("The host corrected how many cards {name} holds.", { name: nm(e.seat) });
      case "match_over": return t("The match is over.");
      default: return null;
    }
  }

  function onEvents(events, c) {
    ctx = c;
    for (const e of events) {
      if (e.type === "refused" && e.message) {
        // (a play lies face up in the middle: its verdict is the whole table's)
        ui.alert = you(e.seat) || e.seat === null || e.seat === undefined ? e.message
          : ctx.t("{name}: {message}", { name: player(e.seat), message: e.message });
        if (navigator.vibrate && (you(e.seat) || ctx.isHost)) navigator.vibrate([120, 60, 120]);
      }
      if (e.type === "played" || e.type === "passed") ui.alert = null;
    }
    const lines = events.map(eventText).filter(Boolean);
    if (lines.length) ui.news = ui.news.concat(lines).slice(-3);
    render();
  }

  function describe(entry, c) {
    ctx = c;
    const t = c.t;
    const b = entry.body || {};
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "bid": return t("bid {bid}", { bid: b.bid });
      case "pass": return t("passed");
      case "play": case "confirm": return Array.isArray(b.cards) ? t("played {cards}", { cards: b.cards.join(" ") }) : t("confirmed the play");
      case "set_hand": return t("tapped in a hand");
      default: return null;
    }
  }

  TC.registerGame(document.getElementById("table").dataset.game, { mount, update, onEvents, describe });
})();
