/* Huang Di on the phone: whose turn it is, the three walls with what each needs next (and the
   number an Invert would take), every player's stock top, hand count and discard piles, and
   the moves by tap: pick a card (hand, stock, a discard pile's top), then a wall that takes it
   (with an Invert if wanted), then a discard to end the turn. A card the camera saw land but
   could not place is asked here ("Where did it come from?"). The referee never knows a hand:
   a hand card is named on a keypad. */
(function () {
  "use strict";
  let root, ctx;
  let pick = null;     // the card chosen to play: {from, owner, card} (card null: keypad)
  let toss = null;     // the card chosen to discard (a keypad name)
  const NUMBERS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

  const pub = () => ctx.view.public;
  function name(seat) {
    const p = pub().players;
    return seat !== null && seat !== undefined && p[seat] !== undefined ? p[seat] : "?";
  }
  function cardName(card) {
    if (card === "joker") return ctx.t("Joker");
    if (card === "invert") return ctx.t("Invert");
    return card;
  }
  /* Whether this phone moves for the player to move (his own phone, or the host's). */
  function mine(p) { return !p.ended && (ctx.seat === p.current || ctx.isHost); }
  function send(action) { return ctx.act(action).catch(() => { /* the toast said why */ }); }

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    root.append(
      el("section", { class: "card hd-state", id: "hd-state", "aria-live": "polite" }),
      el("section", { class: "card alert hd-ask", id: "hd-ask", hidden: true }),
      el("section", { class: "hd-walls", id: "hd-walls" }),
      el("section", { class: "card hd-move", id: "hd-move", hidden: true }),
      el("section", { class: "card hd-reveal", id: "hd-reveal", hidden: true }),
      el("section", { class: "hd-players", id: "hd-players" }),
      el("section", { class: "card", id: "hd-host", hidden: true },
        el("button", { class: "btn wide", id: "hd-end-game", type: "button", text: t("End the game now (no winner)"),
          onclick: () => { if (confirm(t("End the game now?"))) send({ type: "end_game" }); } })),
    );
  }

  function update(view, c) {
    ctx = c;
    const p = view.public;
    if (!mine(p) || p.pending) { pick = null; toss = null; }
    if (pick && pick.card && !pick.keyed && pick.from !== "hand") {
      // (the pile picked from changed meanwhile: its top is another card now, or gone)
      const pile = pick.from === "stock" ? [p.stocks[pick.owner].top] : p.discards[pick.owner][Number(pick.from.slice(-1))];
      if (pile[pile.length - 1] !== pick.card) pick = null;
    }
    renderState(p);
    renderAsk(p);
    renderWalls(p);
    renderMove(p);
    renderReveal(p);
    renderPlayers(p);
    root.querySelector("#hd-host").hidden = !ctx.isHost || p.ended;
  }

  function renderState(p) {
    const { el, t } = ctx;
    const box = root.querySelector("#hd-state");
    let head;
    if (p.ended) {
      head = p.winner !== null ? (p.winner === ctx.seat ? t("You won!") : t("{name} won!", { name: name(p.winner) }))
        : t("The game is over.");
    } else {
      head = p.current === ctx.seat ? t("Your turn") : t("{name}'s turn", { name: name(p.current) });
    }
    box.className = "card hd-state" + (!p.ended && p.current === ctx.seat ? " mine" : "") + (p.ended ? " over" : "");
    box.replaceChildren(
      el("p", { class: "hd-head", id: "hd-head", text: head }),
      el("p", { class: "muted", id: "hd-draw", text: t("Draw pile: {n} cards", { n: p.draw }) }));
  }

  /* The places a card could have come from (the referee accepts any of them). */
  function places(p, card, seat) {
    const out = [];
    if (p.hands[seat] > 0) out.push({ from: "hand", owner: seat, label: ctx.t("My hand") });
    const stock = p.stocks[seat];
    if (stock.count > 0 && (stock.top === card || stock.top === null)) {
      out.push({ from: "stock", owner: seat, label: ctx.t("My stock") });
    }
    const access = p.options.discard_access;
    p.discards.forEach((piles, owner) => {
      if (owner !== seat && (access === "own_only" || (access === "own_plus_one" && p.turn.taken_from.includes(owner)))) return;
      piles.forEach((pile, k) => {
        if (pile.length && pile[pile.length - 1] === card) {
          out.push({ from: "discard" + k, owner, label: owner === seat ? ctx.t("My pile {n}", { n: k + 1 })
            : ctx.t("{name}'s pile {n}", { name: name(owner), n: k + 1 }) });
        }
      });
    });
    return out;
  }

  function renderAsk(p) {
    const { el, t } = ctx;
    const box = root.querySelector("#hd-ask");
    const q = p.pending;
    box.hidden = !q || !mine(p);
    if (box.hidden) return;
    const parts = [el("h2", { text: t("The camera saw {card} on wall {n}", { card: cardName(q.card), n: q.wall + 1 }) })];
    const asks = [];
    if (q.from === null) asks.push(["from", "owner", q.card, t("Where did the {card} come from?", { card: cardName(q.card) })]);
    if (q.invert && q.invert_from === null) asks.push(["invert", "invert_owner", "invert", t("Where did the Invert come from?")]);
    for (const [key, ownerKey, card, question] of asks) {
      parts.push(el("p", { text: question }),
        el("div", { class: "hd-choices" }, places(p, card, q.seat).map((s) => el("button", {
          class: "btn primary", type: "button", "data-from": s.from, "data-owner": s.owner,
          onclick: () => send({ type: "source", [key]: s.from, [ownerKey]: s.owner }), text: s.label }))));
    }
    parts.push(el("button", { class: "btn wide", id: "hd-dismiss", type: "button", onclick: () => send({ type: "dismiss" }),
      text: t("It was not played") }));
    box.replaceChildren(...parts);
  }

  function arrow(w) { return w.direction === "up" ? "↑" : "↓"; }

  function renderWalls(p) {
    const { el, t } = ctx;
    root.querySelector("#hd-walls").replaceChildren(...p.walls.map((w, i) => {
      const empty = w.top === null;
      return el("div", { class: "card hd-wall" + (empty ? " empty" : ""), "data-wall": i },
        el("div", { class: "hd-wall-title", text: t("Wall {n}", { n: i + 1 }) }),
        el("div", { class: "hd-wall-top", "aria-label": empty ? t("empty") : "" }, empty ? "—" : arrow(w) + " " + w.top),
        el("div", { class: "hd-needs", "data-needs": w.needs, text: empty ? t("Starts with 1") : t("Needs {n}", { n: w.needs }) }),
        w.invert_with !== null ? el("div", { class: "muted hd-inv-with", text: t("Invert + {n}", { n: w.invert_with }) }) : "",
        w.inverts ? el("div", { class: "muted", text: t("Inverts: {n}", { n: w.inverts }) }) : "");
    }));
  }

  function pad(values, chosen, onpick, id) {
    const { el } = ctx;
    return el("div", { class: "hd-pad", id }, values.map((v) => el("button", {
      class: "btn" + (v === chosen ? " primary" : "") + (NUMBERS.includes(v) ? "" : " word"), type: "button", "data-card": v,
      "aria-pressed": v === chosen ? "true" : "false", onclick: () => onpick(v), text: cardName(v) })));
  }

  /* What the chosen card may do: each wall that takes it, alone or with an Invert from each
     place an Invert could come from. */
  function wallChoices(p, seat) {
    const out = [];
    const card = pick.card;
    p.walls.forEach((w, i) => {
      const value = card === "joker" ? w.needs : Number(card);
      if (value === w.needs) out.push({ wall: i, label: ctx.t("Wall {n}", { n: i + 1 }) });
      if (w.invert_with !== null && (card === "joker" || Number(card) === w.invert_with)) {
        for (const s of places(p, "invert", seat)) {
          if (s.from === pick.from && s.owner === pick.owner && s.from !== "hand") continue;
          if (s.from === "hand" && pick.from === "hand" && p.hands[seat] < 2) continue;
          out.push({ wall: i, invert: s, label: ctx.t("Wall {n} + Invert: {place}", { n: i + 1, place: s.label }) });
        }
      }
    });
    return out;
  }

  function renderMove(p) {
    const { el, t } = ctx;
    const box = root.querySelector("#hd-move");
    box.hidden = !mine(p) || !!p.pending;
    if (box.hidden) return;
    const seat = p.current;
    const parts = [el("h2", { text: t("Play a card on a wall") })];
    // the card: the hand (keypad), the stock's top, a discard pile's top
    const sources = [{ from: "hand", owner: seat, card: null, label: t("From my hand") }];
    const stock = p.stocks[seat];
    if (stock.count > 0 && stock.top !== "invert") {
      sources.push({ from: "stock", owner: seat, card: stock.top,
        label: stock.top === null ? t("My stock") : t("My stock: {card}", { card: cardName(stock.top) }) });
    }
    p.discards.forEach((piles, owner) => piles.forEach((pile, k) => {
      const top = pile[pile.length - 1];
      if (!top || top === "invert") return;
      if (!places(p, top, seat).some((s) => s.from === "discard" + k && s.owner === owner)) return;
      sources.push({ from: "discard" + k, owner, card: top, label: owner === seat
        ? t("My pile {n}: {card}", { n: k + 1, card: cardName(top) })
        : t("{name}'s pile {n}: {card}", { name: name(owner), n: k + 1, card: cardName(top) }) });
    }));
    parts.push(el("div", { class: "hd-choices", id: "hd-sources" }, sources.map((s) => el("button", {
      class: "btn" + (pick && pick.from === s.from && pick.owner === s.owner ? " primary" : ""), type: "button",
      "data-from": s.from, "data-owner": s.owner,
      onclick: () => { pick = { from: s.from, owner: s.owner, card: s.card }; toss = null; renderMove(pub()); },
      text: s.label }))));
    if (pick && (pick.card === null || pick.keyed)) {
      parts.push(el("p", { class: "muted", text: t("Which card?") }),
        pad([...NUMBERS, "joker"], pick.card, (v) => { pick = { ...pick, card: v, keyed: true }; renderMove(pub()); }, "hd-play-pad"));
    }
    if (pick && pick.card) {
      const choices = wallChoices(p, seat);
      parts.push(el("p", { class: "muted", text: t("Where does the {card} go?", { card: cardName(pick.card) }) }));
      parts.push(choices.length ? el("div", { class: "hd-choices", id: "hd-targets" }, choices.map((c) => el("button", {
        class: "btn primary", type: "button", "data-wall": c.wall, "data-invert": c.invert ? c.invert.from : "",
        onclick: () => {
          const action = { type: "play", card: pick.card, from: pick.from, wall: c.wall };
          if (pick.from.startsWith("discard")) action.owner = pick.owner;
          if (c.invert) { action.invert = c.invert.from; if (c.invert.from.startsWith("discard")) action.invert_owner = c.invert.owner; }
          pick = null;
          send(action);
        }, text: c.label }))) : el("p", { class: "warning", id: "hd-no-wall", text: t("No wall takes a {card} now.", { card: cardName(pick.card) }) }));
    }
    // the end of the turn
    parts.push(el("h2", { class: "hd-end-title", text: t("End the turn") }));
    if (p.hands[seat] > 0) {
      parts.push(el("p", { class: "muted", text: t("Discard a card from your hand:") }),
        pad([...NUMBERS, "joker", "invert"], toss, (v) => { toss = v; pick = null; renderMove(pub()); }, "hd-discard-pad"));
      if (toss) {
        parts.push(el("div", { class: "hd-choices", id: "hd-discard" }, [0, 1].map((k) => el("button", {
          class: "btn primary", type: "button", "data-pile": k,
          onclick: () => { const card = toss; toss = null; send({ type: "discard", card, pile: k }); },
          text: t("{card} on my pile {n}", { card: cardName(toss), n: k + 1 }) }))));
      }
    } else {
      parts.push(el("button", { class: "btn primary wide", id: "hd-end-turn", type: "button",
        onclick: () => send({ type: "end_turn" }), text: t("End my turn (no card to discard)") }));
    }
    box.replaceChildren(...parts);
  }

  /* A stock whose top is not known yet: its player (or the host) names the card turned up. */
  let revealCard = null;
  function renderReveal(p) {
    const { el, t } = ctx;
    const box = root.querySelector("#hd-reveal");
    const seats = p.ended ? [] : p.stocks.map((s, i) => i).filter((i) => p.stocks[i].count > 0 && p.stocks[i].top === null
      && (ctx.isHost || ctx.seat === i)
      && (p.options.reveal_stock !== "first_turn" || p.started.includes(i)));
    box.hidden = !seats.length;
    if (box.hidden) return;
    const seat = seats.includes(ctx.seat) ? ctx.seat : seats[0];
    box.replaceChildren(
      el("h2", { text: seat === ctx.seat ? t("Turn up the top card of your stock") : t("Turn up the top card of {name}'s stock", { name: name(seat) }) }),
      pad([...NUMBERS, "joker", "invert"], revealCard, (v) => { revealCard = null; send({ type: "reveal_stock", seat, card: v }); }, "hd-reveal-pad"));
  }

  function renderPlayers(p) {
    const { el, t } = ctx;
    root.querySelector("#hd-players").replaceChildren(...p.players.map((who, i) => {
      const stock = p.stocks[i];
      return el("div", { class: "card hd-player" + (i === p.current && !p.ended ? " current" : ""), "data-seat": i },
        el("div", { class: "hd-player-name" }, el("strong", { text: who }),
          i === ctx.seat ? el("span", { class: "muted", text: TC.aside(t("(you)")) }) : ""),
        el("div", { class: "hd-piles" },
          el("div", { class: "hd-pile hd-stock" },
            el("span", { class: "muted", text: t("Stock") }),
            el("span", { class: "hd-pile-top" + (NUMBERS.includes(stock.top) || !stock.count || stock.top === null ? "" : " word"),
              text: stock.count ? (stock.top === null ? "?" : cardName(stock.top)) : "—" }),
            el("span", { class: "muted", text: t("{n} left", { n: stock.count }) })),
          ...p.discards[i].map((pile, k) => el("div", { class: "hd-pile hd-discard", "data-pile": k },
            el("span", { class: "muted", text: t("Pile {n}", { n: k + 1 }) }),
            el("span", { class: "hd-pile-top" + (pile.length && !NUMBERS.includes(pile[pile.length - 1]) ? " word" : ""),
              text: pile.length ? cardName(pile[pile.length - 1]) : "—" }),
            el("span", { class: "muted", text: pile.length > 1 ? TC.list(pile.slice(0, -1).reverse().slice(0, 4).map(cardName)) : "" }))),
          el("div", { class: "hd-pile hd-hand" },
            el("span", { class: "muted", text: t("Hand") }),
            el("span", { class: "hd-pile-top", text: String(p.hands[i]) }),
            el("span", { class: "muted", text: t("cards") }))));
    }));
  }

  function eventText(e) {
    const t = ctx.t;
    switch (e.type) {
      case "wall_completed": return t("Wall {n} is complete: shuffle its cards into the draw pile.", { n: e.wall + 1 });
      case "won": return t("{name} won!", { name: name(e.seat) });
      case "draw_pile_empty": return t("The draw pile is empty: the game ends without a winner.");
      default: return null;
    }
  }

  function onEvents(events, c) {
    ctx = c;
    for (const e of events) {
      if (e.type === "refused" && e.message) {
        // a wrong card on a wall: every phone shows why (the player takes it back)
        ctx.toast(e.message, "error");
        if (navigator.vibrate) navigator.vibrate([80, 60, 80]);
        continue;
      }
      if (e.type === "turn" && e.seat === ctx.seat && navigator.vibrate) navigator.vibrate(60);
      const text = eventText(e);
      if (text) ctx.toast(text);
    }
  }

  function describe(entry, c) {
    const t = c.t, b = entry.body;
    ctx = c;
    const cn = (x) => (typeof x === "string" ? cardName(x) : "?");
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "play": return b.invert ? t("played an Invert and {card} on wall {n}", { card: cn(b.card), n: Number(b.wall) + 1 })
        : t("played {card} on wall {n}", { card: cn(b.card), n: Number(b.wall) + 1 });
      case "reveal_stock": return t("turned up {card} on a stock", { card: cn(b.card) });
      case "discard": return t("discarded {card}", { card: cn(b.card) });
      case "source": return t("said where the card came from");
      case "dismiss": return t("dismissed the card the camera saw");
      case "lifted": return b.back ? t("put a card back on a pile") : t("took a card off a pile");
      case "end_turn": return t("ended the turn");
      case "end_game": return t("ended the game");
      default: return b.type;
    }
  }

  TC.registerGame("huangdi", { mount, update, onEvents, describe });
})();
