/* UNO on the phone: the referee of a physical game. The top card with the active colour,
   whose turn, direction and pending draws; card counts, UNO flags and "Catch!"; a card
   picker to play (colour tabs, then values, plus the wilds), the colour and player pickers,
   Draw / Pass / UNO!, the Wild Draw Four challenge, the camera's proposals, the start of a
   round (cut, dealer, first card), the hands left at the end of a round, and the match score
   with a chart. The phone never knows a hand: the player taps what he plays.
   The host (PIN) acts for anyone: for the player to move by default, or a chosen seat. */
(function () {
  "use strict";
  const COLOURS = ["red", "yellow", "green", "blue"];
  const VALUES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2"];
  const WILDS = ["wild", "wild-draw4", "wild-swap", "wild-custom"];
  const HOST_ONLY = new Set(["adjust_count", "edit_round", "end_match", "set_totals"]);
  const FOR_TABLE = new Set(["set_dealer", "turn_up", "count_card", "uncount_card", "count_points", "end_round", "next_round", "dismiss"]);
  const GLYPH = { skip: "⊘", reverse: "⇄", draw2: "+2", wild: "", "wild-draw4": "+4", "wild-swap": "⇆", "wild-custom": "✎" };

  let root, ctx;
  const ui = {
    actFor: null,      // host: null = the player to move, else a seat
    tabs: {},          // picker id -> colour tab
    sel: null,         // the card picked to play
    target: null,      // the player picked for Swap Hands / a 7
    hand: [],          // the accused's hand being entered
    showing: false,    // the accused is entering his hand
    handFor: undefined, // scoring: whose hand is being entered
    points: {},        // scoring: points typed per seat
    alert: null, alertVersion: null,
    news: [],
    wasMine: false, lastVersion: null, busy: false, ownVersion: 0,
  };

  /* ---- names ---- */
  function colourName(c) {
    const t = ctx.t;
    return { red: t("Red"), yellow: t("Yellow"), green: t("Green"), blue: t("Blue") }[c] || c;
  }
  function colourWord(c) { // mid-sentence: "play blue, a 7, or a wild"
    const t = ctx.t;
    return { red: t("red"), yellow: t("yellow"), green: t("green"), blue: t("blue") }[c] || c;
  }
  function valueName(v) {
    const t = ctx.t;
    return { skip: t("Skip"), reverse: t("Reverse"), draw2: t("Draw Two") }[v] || v;
  }
  function parse(label) {
    if (WILDS.includes(label)) return { colour: null, value: label };
    const i = label.indexOf("-");
    return { colour: label.slice(0, i), value: label.slice(i + 1) };
  }
  function cardName(label) {
    return label ? TC.cardName("uno", label) : "—";  // (one spelling for every page)
  }
  /* Card names inside a message from the server (e.g. "There is no wild-custom in this deck.") */
  function localiseLabels(msg) {
    return String(msg).replace(/\b(?:(red|yellow|green|blue)-(\d|skip|reverse|draw2)|wild-(?:draw4|swap|custom))\b/g,
      (m) => cardName(m));
  }
  function player(seat) {
    const p = data() ? data().players : [];
    return seat === null || seat === undefined ? "?" : (p[seat] || "?");
  }

  /* ---- whose eyes: a player's own view, or the host acting for a seat ---- */
  function data() {
    const v = ctx.view;
    if (!v) return null;
    return v.you ? v.you.view : v.public;
  }
  function nextSeat(r, seat, n) { return ((seat + r.direction) % n + n) % n; }

  function actingSeat() {
    if (!ctx.isHost) return ctx.seat;
    if (ui.actFor !== null) return ui.actFor;
    if (ctx.seat !== null && ctx.seat !== undefined) return ctx.seat;
    return autoSeat();
  }
  function autoSeat() { // the host without a seat: whoever the table waits for
    const d = data();
    if (!d) return null;
    const r = d.round;
    if (d.phase === "cut") {
      const cut = d.cut;
      const s = cut.contenders.find((k) => cut.cards[k] === null);
      return s === undefined ? null : s;
    }
    if (!r || d.phase !== "play") return null;
    if (r.awaiting) return r.awaiting.seat;
    if (r.challenge) return r.challenge.challenger;
    if (r.proposal && r.proposal.seat !== null) return r.proposal.seat;
    return r.turn;
  }

  /* views.can, for a seat the host acts for (a player's phone gets its own from the server) */
  function canFor(d, seat) {
    if (seat === null || seat === undefined) {  // the host for the table (no seat needed)
      return { cut: ["set_dealer"], first_card: ["turn_up", "set_dealer"] }[d.phase] || [];
    }
    const r = d.round, opts = d.options, n = d.players.length;
    switch (d.phase) {
      case "cut": {
        const mine = d.cut.contenders.includes(seat) && d.cut.cards[seat] === null;
        return mine ? ["cut", "set_dealer"] : ["set_dealer"];
      }
      case "first_card": return ["turn_up", "set_dealer"];
      case "scoring": return ["count_card", "uncount_card", "count_points", "end_round"];
      case "round_over": return ["next_round"];
      case "play": break;
      default: return [];
    }
    const out = [];
    if (r.proposal && r.proposal.seat === seat) out.push("confirm", "dismiss");
    if (r.catchable.some((s) => s !== seat)) out.push("catch");
    const count = r.counts[seat], cur = r.turn, pending = r.pending, drawn = r.drawn;
    const waiting = pending !== null || (drawn !== null && drawn === cur);
    const nxt = nextSeat(r, cur, n);
    const nextMayAct = waiting && r.challenge === null && seat === nxt && nxt !== cur;
    const playing = (seat === cur && pending === null) || nextMayAct;
    if (!r.uno[seat] && (count === 1 || (count === 2 && playing))) out.push("uno");
    if (r.awaiting) return r.awaiting.seat === seat ? [...out, "choose"] : out;
    const ch = r.challenge;
    if (ch) {
      if (seat === ch.accused) out.push("show_hand", "verdict");
      else if (seat === ch.challenger) out.push("verdict");
      return out;
    }
    if (pending && pending.kind === "draw4" && pending.by !== null &&
        (seat === pending.victim || (opts.challenge_by === "anyone" && seat !== pending.by))) out.push("challenge");
    if (seat === cur) {
      if (pending === null && drawn === null) out.push("play", "draw");
      else if (pending === null) out.push("play", ...(opts.draw_until_playable ? ["draw"] : []), "pass");
      else out.push("draw", ...(opts.stack_draw2 && pending.kind === "draw2" ? ["play"] : []));
    } else if (nextMayAct) out.push("play", "draw");
    else if (opts.jump_in && pending === null && r.top && parse(r.top).colour !== null) out.push("play");
    return out;
  }

  function canList() {
    const d = data();
    if (!d) return [];
    const seat = actingSeat();
    if (!ctx.isHost) return d.me ? d.me.can : [];
    if (d.me && seat === ctx.seat) return d.me.can;
    return canFor(d, seat);
  }

  /* ---- sending: our own refusal display (card names in the phone's language) ---- */
  function vibrate(p) { if (navigator.vibrate) navigator.vibrate(p); }

  function refusal(e, action) {
    const d = data();
    const r = d && d.round;
    if (e.code === "illegal_card" && r && r.top) {
      const card = action.card || (r.proposal && r.proposal.card);
      const top = parse(r.top);
      if (top.colour === null) {
        return ctx.t("{card} cannot go on {top}: the colour is {colour}; play {colour} or a wild.",
          { card: cardName(card), top: cardName(r.top), colour: colourWord(r.colour) });
      }
      return ctx.t("{card} cannot go on {top}: play {colour}, a {symbol}, or a wild.",
        { card: cardName(card), top: cardName(r.top), colour: colourWord(r.colour), symbol: valueName(top.value) });
    }
    return localiseLabels(e.message);
  }

  /* Taps are sent one after the other; each carries the newest version this phone knows (its
     own last accepted action counts), so quick taps (cards of a hand) are not refused as stale. */
  let chain = Promise.resolve();
  /* The cards of a hand left, counted one tap each and in any order: no version check, and
     two taps of one card are two cards (two red 5s). */
  const counting = (action) => action.type === "count_card" || action.type === "uncount_card" || action.type === "count_points";
  const single = TC.single();  // a double tap queues the same action once (TC.single)
  function send(action, opt) {
    const queue = () => {
      const run = chain.then(() => sendNow(action, opt));
      chain = run.catch(() => null);
      return run;
    };
    if (counting(action)) return queue();
    return single(JSON.stringify([action, opt || null]), queue);
  }

  async function sendNow(action, opt) {
    const seen = ctx.view ? ctx.view.version : undefined;
    const version = seen === undefined ? undefined : Math.max(seen, ui.ownVersion || 0);
    const body = { action, version: counting(action) ? undefined : version };
    if (ctx.isHost) {
      let s;
      if (opt && "asSeat" in opt) s = opt.asSeat;
      else if (HOST_ONLY.has(action.type)) s = null;  // the host's own corrections
      else if (FOR_TABLE.has(action.type)) s = ui.actFor !== null ? ui.actFor : ctx.seat;  // no need to act as the player to move
      else s = actingSeat();
      if (s !== null && s !== undefined) body.as_seat = s;
    }
    ui.busy = true;
    try {
      const res = await ctx.call("POST", "actions", body);
      ctx.learn(body.version, res);
      ui.alert = null;
      if (res && typeof res.version === "number") ui.ownVersion = res.version;
      return res;
    } catch (e) {
      if (e.code === "stale_version") ui.ownVersion = 0;  // (the view's version is the one to send)
      // (said once, in the red box by the buttons: a toast said it again on top of it)
      ui.alert = refusal(e, action);
      ui.alertCode = e.code;
      ui.alertVersion = ctx.view ? ctx.view.version : null;
      ui.alertShow = true;
      vibrate([120, 60, 120]);
      return null;
    } finally {
      ui.busy = false;
      render();
      showAlert();
    }
  }

  /* ---- building blocks ---- */
  function cardFace(label, cls) {
    const { el } = ctx;
    const { colour, value } = parse(label);
    const glyph = colour === null ? GLYPH[value] : (GLYPH[value] !== undefined ? GLYPH[value] : value);
    return el("span", { class: "uno-card " + (colour ? "c-" + colour : "c-wild") + (cls ? " " + cls : ""),
      role: "img", "aria-label": cardName(label), "data-label": label },
    el("span", { class: "oval" }, el("span", { class: "glyph", text: glyph })));
  }

  function colourButtons(onPick, prefix, chosen) {
    const { el } = ctx;
    return el("div", { class: "uno-colours" }, COLOURS.map((c) => el("button", {
      type: "button", class: "btn uno-colour c-" + c + (chosen === c ? " on" : ""), "data-colour": c,
      onclick: () => onPick(c),
    }, prefix ? prefix(c) : colourName(c))));
  }

  function playerButtons(onPick, exclude, chosen) {
    const { el, t } = ctx;
    const d = data();
    const r = d.round;
    return el("div", { class: "uno-targets" }, d.players.map((name, i) => i === exclude ? null : el("button", {
      type: "button", class: "btn" + (chosen === i ? " primary" : ""), "data-target": i, onclick: () => onPick(i),
    }, name, r ? el("small", { class: "muted", text: r.counts[i] === 1 ? t("1 card") : t("{n} cards", { n: r.counts[i] }) }) : null)));
  }

  /* The card picker: colour tabs, then the values; the wilds of this deck always in view. */
  function picker(id, onPick, opts) {
    const { el } = ctx;
    const d = data();
    const wilds = (opts && opts.wilds === false) ? [] :
      WILDS.filter((w) => w !== "wild-custom" || d.options.custom_wilds > 0);
    let tab = ui.tabs[id] || (opts && opts.tab) || "red";
    if (!COLOURS.includes(tab)) tab = "red";
    const chosen = opts && opts.chosen;
    const button = (label, named) => el("button", {
      type: "button", class: "uno-pick" + (chosen === label ? " on" : ""), "data-card": label,
      "aria-label": cardName(label), onclick: () => onPick(label),
    }, cardFace(label, "small"), named ? el("span", { class: "uno-pick-name", "aria-hidden": "true", text: cardName(label) }) : null);
    return el("div", { class: "uno-picker", "data-picker": id },
      el("div", { class: "uno-tabs", role: "tablist" }, COLOURS.map((c) => el("button", {
        type: "button", role: "tab", "aria-selected": c === tab ? "true" : "false",
        class: "uno-tab c-" + c + (c === tab ? " on" : ""), "data-tab": c,
        onclick: () => { ui.tabs[id] = c; render(); },
      }, colourName(c)))),
      el("div", { class: "uno-grid" }, VALUES.map((v) => button(tab + "-" + v, false))),
      wilds.length ? el("div", { class: "uno-grid wilds" }, wilds.map((w) => button(w, true))) : null);
  }

  /* A refusal just said: its red box brought into view (a phone scrolled down to the
     picker had it above the screen's top). */
  function showAlert() {
    if (!ui.alertShow) return;
    ui.alertShow = false;
    const box = root && root.querySelector("#uno-alert");
    if (box && !box.hidden && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  function needsFor(label) {
    const d = data();
    const p = parse(label);
    const need = [];
    if (label === "wild-swap" || (d.options.seven_zero && p.value === "7")) need.push("target");
    if (p.colour === null) need.push("colour");
    return need;
  }

  /* the connection is back: "The companion cannot be reached" is no longer so */
  document.addEventListener("tc:online", () => {
    if (ui.alert && ui.alertCode === "offline") { ui.alert = null; ui.alertCode = null; render(); }
  });

  /* ---- mount / update ---- */
  function mount(r, c) {
    root = r; ctx = c;
    const { el } = ctx;
    root.append(
      el("section", { class: "card uno-status", id: "uno-status" }),
      el("section", { class: "card uno-hostbar", id: "uno-hostbar", hidden: true }),
      el("p", { class: "uno-alert", id: "uno-alert", role: "alert", hidden: true }),
      el("section", { class: "card uno-actions", id: "uno-actions" }),
      el("section", { class: "card", id: "uno-scores" }),
    );
    // (the chart is drawn at the width it is shown: again when the phone turns)
    let pending = false;
    window.addEventListener("resize", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; render(); });
    });
  }

  function update(view, c) {
    ctx = c;
    const d = data();
    if (ui.lastVersion !== null && view.version !== ui.lastVersion) {
      if (ui.alert && ui.alertVersion !== view.version) ui.alert = null;
      const can = canList();
      if (!can.includes("play") && !can.includes("confirm")) { ui.sel = null; ui.target = null; }
      if (!can.includes("show_hand")) { ui.showing = false; ui.hand = []; }
    }
    ui.lastVersion = view.version;
    if (d && d.phase !== "scoring") { ui.handFor = undefined; ui.points = {}; }
    const top = d && d.round ? d.round.top : null;
    if (top !== ui.lastTop) { delete ui.tabs.play; ui.lastTop = top; }  // the picker opens on the new colour
    if (ui.actFor !== null && d && ui.actFor >= d.players.length) ui.actFor = null;
    const mine = !!(d && d.phase === "play" && ctx.seat !== null && d.round &&
      (d.round.turn === ctx.seat || (d.round.awaiting && d.round.awaiting.seat === ctx.seat)));
    if (mine && !ui.wasMine) vibrate(200);
    ui.wasMine = mine;
    render();
  }

  function render() {
    if (!root || !ctx || !ctx.view) return;
    const a = document.activeElement;  // keep typing in a field through a live update
    const focus = a && root.contains(a) && (a.tagName === "INPUT" || a.tagName === "SELECT") ? a.id : null;
    const d = data();
    renderStatus(d);
    renderHostBar(d);
    const alert = root.querySelector("#uno-alert");
    alert.hidden = !ui.alert;
    alert.textContent = ui.alert || "";
    renderActions(d);
    renderScores(d);
    if (focus) {
      const f = document.getElementById(focus);
      if (f) {
        f.focus({ preventScroll: true });
        try { if (f.setSelectionRange && f.value) f.setSelectionRange(f.value.length, f.value.length); } catch (e) { /* not a text field */ }
      }
    }
  }

  /* ---- the table: top card, colour, direction, turn, players ---- */
  function renderStatus(d) {
    const { el, t } = ctx;
    const box = root.querySelector("#uno-status");
    box.textContent = "";
    const r = d.round;
    const you = (s) => s !== null && s === ctx.seat;

    if (d.phase === "play" && r) {
      const dirCw = r.direction === 1;
      let turnLine;
      const turnName = player(r.turn);
      const myTurn = r.turn === ctx.seat && ctx.seat !== null && ctx.seat !== undefined;
      if (you(r.turn)) turnLine = t("Your turn!");
      else turnLine = t("{name}'s turn", { name: turnName });
      box.classList.toggle("mine", myTurn);
      const lines = [];
      // (not while the challenge is settled: what is drawn, and by whom, depends on it)
      if (r.pending && !r.challenge) {
        lines.push(el("p", { class: "uno-pending" }, you(r.pending.victim)
          ? t("You must draw {n}.", { n: r.pending.amount })
          : t("{name} must draw {n}.", { name: player(r.pending.victim), n: r.pending.amount })));
      }
      if (r.awaiting && !you(r.awaiting.seat)) {
        const who = player(r.awaiting.seat);
        const needColour = r.awaiting.need.includes("colour"), needTarget = r.awaiting.need.includes("target");
        lines.push(el("p", { class: "uno-pending" },
          needColour && needTarget ? t("{name} is choosing a colour and a player.", { name: who })
            : needTarget ? t("{name} is choosing a player.", { name: who })
              : t("{name} is choosing the colour.", { name: who })));
      }
      if (r.challenge) {
        lines.push(el("p", { class: "uno-pending" }, t("{challenger} challenges the Wild Draw Four of {accused}.",
          { challenger: player(r.challenge.challenger), accused: player(r.challenge.accused) })));
      }
      if (r.drawn !== null && r.drawn === r.turn) {
        lines.push(el("p", { class: "muted" }, t("{name} has drawn: play that card or pass.", { name: turnName })));
      }
      if (r.custom_rule && r.top === "wild-custom") lines.push(el("p", { class: "muted" }, t("Custom rule: {text}", { text: r.custom_rule })));
      box.append(
        el("div", { class: "uno-top" },
          el("div", { class: "uno-pile" }, r.top ? cardFace(r.top, "big") : null,
            r.colour ? el("span", { class: "uno-active c-" + r.colour, id: "uno-colour", "data-colour": r.colour, text: colourName(r.colour) }) : null),
          el("div", { class: "uno-info" },
            el("p", { class: "uno-turn" + (myTurn ? " mine" : ""), id: "uno-turn", "data-seat": r.turn, text: turnLine }),
            el("p", { class: "uno-topname", id: "uno-top", "data-card": r.top || "" , text: cardName(r.top) }),
            el("p", { class: "uno-dir", id: "uno-dir", "data-direction": r.direction },
              el("span", { class: "uno-arrow", "aria-hidden": "true", text: dirCw ? "↻" : "↺" }),
              " ", dirCw ? t("Clockwise") : t("Counterclockwise")),
            el("p", { class: "muted small" }, t("Round {n}", { n: r.number }), " · ", t("Draw pile: {n}", { n: r.draw_pile })))),
        ...lines);
    } else if (d.phase === "cut") {
      box.classList.remove("mine");
      box.append(el("h2", { text: t("Cut for the deal") }),
        el("p", { class: "muted", text: t("Everyone turns up a card: the highest number deals (action cards and wilds count 0).") }));
    } else if (d.phase === "first_card" && r) {
      box.classList.remove("mine");
      box.append(el("h2", { text: t("Round {n}", { n: r.number }) }),
        el("p", { class: "big", text: t("{name} deals {n} cards to everyone.", { name: player(d.dealer), n: d.options.hand_size }) }),
        el("p", { class: "muted", text: t("Then turn up the first card of the discard pile.") }));
    } else if (d.phase === "scoring" && r) {
      box.classList.remove("mine");
      box.append(el("p", { class: "banner", id: "uno-winner", text: you(r.winner) ? t("You went out!") : t("{name} went out!", { name: player(r.winner) }) }),
        r.top ? el("div", { class: "uno-pile" }, cardFace(r.top, "big")) : null);
    } else if (d.ended) {
      box.classList.remove("mine");
      const names = TC.names((d.winners || []).map(player));
      box.append(el("p", { class: "banner", id: "uno-over", text: t("Match over: {names} won!", { names }) }));
    } else {
      box.classList.remove("mine");
      const last = d.rounds[d.rounds.length - 1];
      if (last) box.append(el("p", { class: "banner", text: t("{name} won round {n}.", { name: player(last.winner), n: d.rounds.length }) }));
    }
    box.append(el("div", { id: "uno-news", class: "uno-news", "aria-live": "polite" }, newsLines(box).map((s) => el("p", { text: s }))));
    if (d.phase !== "cut") box.append(playersList(d));
  }

  /* What just happened, less what the status already says (the challenge line twice) */
  function newsLines(status) {
    const said = new Set([...(status || root.querySelector("#uno-status")).querySelectorAll(".uno-pending, .muted")]
      .map((p) => p.textContent));
    return ui.news.filter((s) => !said.has(s));
  }

  function playersList(d) {
    const { el, t } = ctx;
    const r = d.round;
    const can = canList();
    const ul = el("ul", { class: "uno-players", id: "uno-players" });
    d.players.forEach((name, i) => {
      const tags = [];
      if (d.dealer === i) tags.push(el("span", { class: "tag", text: t("dealer") }));
      if (i === ctx.seat) tags.push(el("span", { class: "tag you", text: t("you") }));
      let count = null, flag = null, catchBtn = null;
      if (r) {
        count = el("span", { class: "uno-count", "data-seat": i, text: r.counts[i] });
        if (r.uno[i]) flag = el("span", { class: "uno-flag", "data-seat": i, text: t("UNO!") });
        const mayCatch = ctx.isHost || (can.includes("catch") && i !== ctx.seat);
        if (d.phase === "play" && r.catchable.includes(i) && mayCatch) {
          // the host catches as the seat he acts for, or as the host when that is the one caught
          const by = ctx.isHost ? (ui.actFor !== null && ui.actFor !== i ? ui.actFor
            : (ctx.seat !== null && ctx.seat !== undefined && ctx.seat !== i ? ctx.seat : null)) : undefined;
          catchBtn = el("button", { class: "btn uno-catch", type: "button", "data-catch": i,
            onclick: () => send({ type: "catch", target: i }, ctx.isHost ? { asSeat: by } : undefined) }, t("Catch!"));
        }
      }
      const turn = r && d.phase === "play" && r.turn === i;
      ul.append(el("li", { class: (turn ? "turn" : "") + (r && r.catchable.includes(i) ? " catchable" : ""), "data-seat": i },
        el("span", { class: "uno-marker", "aria-hidden": "true", text: turn ? "▶" : "" }),
        el("span", { class: "grow" }, el("span", { class: "uno-name", text: name }), " ", tags),
        flag, catchBtn,
        count ? el("span", { class: "uno-countbox", title: t("cards in hand") }, count, el("small", { class: "muted", text: " " + (r.counts[i] === 1 ? t("card") : t("cards")) })) : null,
        el("strong", { class: "uno-total", "data-seat": i, title: t("Total"), text: d.totals[i] })));
    });
    return ul;
  }

  function renderHostBar(d) {
    const { el, t } = ctx;
    const bar = root.querySelector("#uno-hostbar");
    bar.hidden = !ctx.isHost;
    if (bar.hidden) return;
    bar.textContent = "";
    const acting = actingSeat();
    const auto = ui.actFor === null;
    if (!d.ended) bar.append(el("div", { class: "row spread" }, el("strong", { text: t("Act for") }),
      el("span", { class: "muted", text: acting === null ? t("the table") : player(acting) })),
    el("div", { class: "uno-actfor" },
      el("button", { type: "button", class: "btn small" + (auto ? " primary" : ""), "data-actfor": "auto",
        onclick: () => { ui.actFor = null; ui.sel = null; render(); } }, ctx.seat !== null && ctx.seat !== undefined ? t("Myself") : t("Player to move")),
      // (a host who holds a seat has "Myself" first: not its own name again)
      d.players.map((name, i) => i === ctx.seat ? null : el("button", { type: "button", class: "btn small" + (ui.actFor === i ? " primary" : ""),
        "data-actfor": i, onclick: () => { ui.actFor = i; ui.sel = null; render(); } }, name))));
    const sel = document.getElementById("as-seat");
    if (sel) sel.value = acting === null ? "" : String(acting);
    bar.append(corrections(d));
  }

  /* the host's corrections: a hand's size, a past round, the end of the match */
  function corrections(d) {
    const { el, t } = ctx;
    const box = el("details", { class: "uno-fix", id: "uno-fix", open: ui.fixOpen || null,
      ontoggle: (e) => { ui.fixOpen = e.target.open; } }, el("summary", { text: t("Corrections") }));
    const r = d.round;
    if (d.phase === "play" && r) {
      const who = el("select", { id: "uno-fix-seat", "aria-label": t("Player") },
        d.players.map((n, i) => el("option", { value: i, selected: ui.fixSeat === i, text: n })));
      const count = el("input", { id: "uno-fix-count", inputmode: "numeric", class: "score", "aria-label": t("Cards in hand"),
        value: r.counts[ui.fixSeat || 0] });
      who.onchange = () => { ui.fixSeat = Number(who.value); count.value = r.counts[ui.fixSeat]; };
      box.append(el("p", { class: "muted", text: t("How many cards a player holds:") }),
        el("div", { class: "row" }, who, count, el("button", { type: "button", class: "btn", id: "uno-fix-set",
          onclick: () => { const n = Number(count.value);
            if (!Number.isInteger(n)) { ui.alert = t("Points must be whole numbers."); render(); return; }
            send({ type: "adjust_count", seat: Number(who.value), count: n }); } }, t("Set"))));
    }
    if (d.rounds.length) {
      const k = Math.min(ui.fixRound === undefined ? d.rounds.length - 1 : ui.fixRound, d.rounds.length - 1);
      const rec = d.rounds[k];
      const pick = el("select", { id: "uno-fix-round", "aria-label": t("Round"),
        onchange: (e) => { ui.fixRound = Number(e.target.value); render(); } },
      d.rounds.map((_, i) => el("option", { value: i, selected: i === k, text: t("Round {n}", { n: i + 1 }) })));
      const winner = el("select", { id: "uno-fix-winner", "aria-label": t("Went out") },
        d.players.map((n, i) => el("option", { value: i, selected: i === rec.winner, text: n })));
      if (!ui.fixDraft || ui.fixDraft.round !== k) ui.fixDraft = { round: k, vals: rec.hands.map((h) => String(handPoints(h, d.options))) };
      const draft = ui.fixDraft;
      const inputs = d.players.map((n, i) => el("label", { class: "row" }, el("span", { class: "grow", text: n }),
        el("input", { class: "score", id: "uno-fix-" + i, inputmode: "numeric", "aria-label": t("Points in {name}'s hand", { name: n }),
          value: draft.vals[i], oninput: (e) => { draft.vals[i] = e.target.value; } })));
      box.append(el("p", { class: "muted", text: t("Correct a round: the points left in each hand, and who went out.") }),
        el("div", { class: "row" }, pick, winner), ...inputs,
        el("button", { type: "button", class: "btn", id: "uno-fix-save", onclick: () => {
          const hands = inputs.map((l) => l.querySelector("input").value.trim());
          if (!hands.every((v) => /^\d+$/.test(v))) { ui.alert = t("Points must be whole numbers."); render(); return; }
          send({ type: "edit_round", round: k, winner: Number(winner.value), hands: hands.map(Number) })
            .then((res) => { if (res) { ui.fixDraft = null; render(); } });
        } }, t("Save the correction")));
    }
    if (!d.ended) { // a match resumed from paper starts at the totals so far (set_totals)
      const carried = d.carried || d.players.map(() => 0);
      if (!ui.carryDraft) ui.carryDraft = carried.map(String);
      const draft = ui.carryDraft;
      const fields = d.players.map((n, i) => el("label", { class: "row" }, el("span", { class: "grow", text: n }),
        el("input", { class: "score", id: "uno-carry-" + i, inputmode: "numeric", "aria-label": t("{name}'s total so far", { name: n }),
          value: draft[i], oninput: (e) => { draft[i] = e.target.value; } })));
      box.append(el("p", { class: "muted", text: t("Totals carried over (a match resumed from paper): the rounds add to them.") }),
        ...fields, el("button", { type: "button", class: "btn", id: "uno-carry-save", onclick: () => {
          const vals = draft.map((v) => String(v).trim());
          if (!vals.every((v) => /^\d+$/.test(v))) { ui.alert = t("Points must be whole numbers."); render(); return; }
          send({ type: "set_totals", totals: vals.map(Number) }).then((res) => { if (res) { ui.carryDraft = null; render(); } });
        } }, t("Set the totals")));
    }
    if (!d.ended) {
      box.append(el("button", { type: "button", class: "btn ghost wide", id: "uno-end-match", onclick: () => {
        if (confirm(t("End the match now?"))) send({ type: "end_match" });
      } }, t("End the match now")));
    }
    return box;
  }

  function handPoints(hand, options) {
    return typeof hand === "number" ? hand : hand.reduce((s, c) => s + cardPoints(c, options), 0);
  }

  /* ---- what this phone may do now ---- */
  function renderActions(d) {
    const { el, t } = ctx;
    const box = root.querySelector("#uno-actions");
    box.textContent = "";
    const can = canList();
    const seated = ctx.seat !== null && ctx.seat !== undefined;
    const part = (...children) => box.append(...children.filter(Boolean));
    box.hidden = false;
    if (!seated && !ctx.isHost) {
      if (d.phase === "play" || d.phase === "first_card" || d.phase === "cut") { box.hidden = true; return; }
    }
    switch (d.phase) {
      case "cut": return cutPanel(d, can, part);
      case "first_card": return firstCardPanel(d, can, part);
      case "play": return playPanel(d, can, part);
      case "scoring": return scoringPanel(d, part);
      case "round_over":
        if (!seated && !ctx.isHost) { box.hidden = true; return; }
        return part(el("button", { class: "btn primary wide big", id: "uno-next", type: "button",
          onclick: () => send({ type: "next_round" }) },
      t("Next round: {name} deals", { name: player((d.dealer + 1) % d.players.length) })));
      default:
        box.hidden = true;
    }
  }

  function dealerSelect(d) {
    const { el, t } = ctx;
    return el("label", { class: "row" }, el("span", { text: t("Dealer") }),
      el("select", { id: "uno-dealer", onchange: (e) => { if (e.target.value !== "") send({ type: "set_dealer", dealer: Number(e.target.value) }); } },
        d.dealer === null ? el("option", { value: "", text: t("Choose…") }) : null,
        d.players.map((n, i) => el("option", { value: i, selected: d.dealer === i, text: n }))));
  }

  function cutPanel(d, can, part) {
    const { el, t } = ctx;
    const cut = d.cut;
    part(el("ul", { class: "uno-cuts" }, cut.contenders.map((s) => el("li", {},
      el("span", { class: "grow", text: player(s) }),
      cut.cards[s] ? cardFace(cut.cards[s], "small") : el("span", { class: "muted", text: t("waiting") })))));
    const acting = actingSeat();
    if (can.includes("cut")) {
      part(el("h2", { text: acting === ctx.seat ? t("Which card did you turn up?") : t("Which card did {name} turn up?", { name: player(acting) }) }),
        picker("cut", (label) => send({ type: "cut", card: label })));
    }
    if (ctx.seat !== null || ctx.isHost) {
      part(el("h2", { text: t("Or choose the dealer") }),
        el("div", { class: "uno-targets" }, d.players.map((n, i) => el("button", { type: "button", class: "btn", "data-dealer": i,
          onclick: () => send({ type: "set_dealer", dealer: i }) }, n))));
    }
  }

  function proposalPanel(d, part, firstCard) {
    const { el, t } = ctx;
    const p = d.round.proposal;
    const card = p.card;
    const q = firstCard ? t("The camera saw {card}. Is it the first card?", { card: cardName(card) })
      : (p.seat === ctx.seat ? t("Did you play {card}?", { card: cardName(card) }) : t("Did {name} play {card}?", { name: player(p.seat), card: cardName(card) }));
    const wild = parse(card).colour === null && !firstCard;
    const need = firstCard ? [] : needsFor(card);
    const ready = !need.includes("target") || ui.target !== null;
    part(el("div", { class: "uno-proposal" }, cardFace(card, "small"), el("p", { class: "big", text: q })));
    if (need.includes("target")) part(el("p", { text: t("With whom?") }), playerButtons((i) => { ui.target = i; render(); }, p.seat, ui.target));
    if (wild) {
      part(el("p", { text: t("Confirm with the colour:") }),
        colourButtons((c) => ready && confirmSend({ type: "confirm", colour: c, ...(ui.target !== null ? { target: ui.target } : {}) })));
    } else {
      part(el("button", { type: "button", class: "btn primary wide big", id: "uno-confirm", disabled: !ready,
        onclick: () => confirmSend({ type: "confirm", ...(ui.target !== null ? { target: ui.target } : {}) }) }, t("Yes, confirm")));
    }
    part(el("button", { type: "button", class: "btn wide", id: "uno-dismiss", onclick: () => send({ type: "dismiss" }) }, t("No, dismiss")));
  }
  async function confirmSend(action) {
    const res = await send(action);
    if (res) { ui.target = null; }
  }

  function firstCardPanel(d, can, part) {
    const { el, t } = ctx;
    if (d.round.proposal) proposalPanel(d, part, true);
    if (can.includes("turn_up")) {
      part(el("h2", { text: t("Turn up the first card") }),
        picker("first", (label) => send({ type: "turn_up", card: label })));
    }
    if (can.includes("set_dealer")) part(dealerSelect(d));
  }

  function playPanel(d, can, part) {
    const { el, t } = ctx;
    const r = d.round;
    const acting = actingSeat();
    const isMe = acting === ctx.seat && acting !== null;
    if (ctx.isHost && acting !== null && !isMe) part(el("p", { class: "uno-actingfor", text: t("Acting for {name}", { name: player(acting) }) }));

    // the hand shown in a challenge (the challenger and the accused; the host sees all)
    const me = d.me;
    let reveal = me && me.revealed_hand;
    // (a host who holds a seat plays too: what the rules show only to the challenger is
    // not on that phone's screen, though the host's view carries it)
    if (!reveal && ctx.isHost && ctx.seat === null && ctx.hostView && ctx.hostView.round && ctx.hostView.round.reveal) reveal = ctx.hostView.round.reveal;
    if (reveal) {
      part(el("div", { class: "uno-reveal", id: "uno-reveal" },
        el("p", { text: reveal.seat === ctx.seat ? t("The hand you showed:") : t("{name}'s hand:", { name: player(reveal.seat) }) }),
        el("div", { class: "uno-hand" }, reveal.cards.map((c) => cardFace(c, "small")))));
    }

    if (can.includes("uno")) {
      part(el("button", { type: "button", class: "btn uno-call wide", id: "uno-call", onclick: () => send({ type: "uno" }) }, t("UNO!")));
    }
    if (can.includes("confirm")) return proposalPanel(d, part, false);

    if (can.includes("choose")) {
      const a = r.awaiting;
      const needT = a.need.includes("target"), needC = a.need.includes("colour");
      const first = r.discard_size === 1 && r.top === a.card;  // R23: a Wild turned up first
      part(el("h2", { text: first ? t("Choose the starting colour") : t("Finish your {card}", { card: cardName(a.card) }) }));
      if (needT) part(el("p", { text: t("Swap hands with whom?") }), playerButtons((i) => {
        ui.target = i;
        if (!needC) send({ type: "choose", target: i }); else render();
      }, a.seat, ui.target));
      if (needC && (!needT || ui.target !== null)) {
        part(needT ? el("p", { text: t("Choose the colour:") }) : null,
          colourButtons((c) => send({ type: "choose", colour: c, ...(needT ? { target: ui.target } : {}) })));
      }
      return;
    }

    if (r.challenge) return challengePanel(d, can, part);

    if (can.includes("challenge")) {
      const before = r.pending.colour_before;
      part(el("p", { class: "big", text: before ?
        t("{name} played a Wild Draw Four on you. Did they hold a {colour} card?", { name: player(r.pending.by), colour: colourWord(before) }) :
        t("{name} played a Wild Draw Four on you. Did they hold a card of the colour before it?", { name: player(r.pending.by) }) }),
        el("div", { class: "row" },
          el("button", { type: "button", class: "btn primary grow big", id: "uno-challenge", onclick: () => send({ type: "challenge" }) }, t("Challenge the Draw 4")),
          el("button", { type: "button", class: "btn grow big", id: "uno-take", onclick: () => send({ type: "draw" }) }, t("Draw {n}", { n: r.pending.amount }))));
      return;
    }

    if (can.includes("play")) {
      const sel = ui.sel;
      if (!sel) {
        const early = r.turn !== acting && (r.pending || r.drawn === r.turn) && !r.challenge;
        const jump = r.turn !== acting && !early;
        part(el("h2", { text: jump ? t("Jump in with the same card as the top card") : isMe ? t("Play a card") : t("Which card does {name} play?", { name: player(acting) }) }),
          early ? el("p", { class: "muted", text: r.pending
            ? t("{name} takes the {n} cards first: play when they have.", { name: player(r.turn), n: r.pending.amount })
            : t("{name} has drawn: play when they pass.", { name: player(r.turn) }) }) : null,
          picker("play", (label) => { ui.sel = label; ui.target = null; render(); }, { tab: ui.tabs.play || r.colour || "red" }));
      } else {
        part(selectedPanel(d, sel, acting));
      }
    }
    const row = [];
    if (can.includes("draw") && !ui.sel) {
      const pendingOnMe = r.pending && r.pending.victim === acting && r.turn === acting;
      row.push(el("button", { type: "button", class: "btn grow big", id: "uno-draw", onclick: () => send({ type: "draw" }) },
        pendingOnMe ? t("Draw {n}", { n: r.pending.amount }) : t("Draw a card")));
    }
    if (can.includes("pass") && !ui.sel) {
      row.push(el("button", { type: "button", class: "btn grow big", id: "uno-pass", onclick: () => send({ type: "pass" }) }, t("Pass")));
    }
    if (row.length) part(el("div", { class: "row uno-drawrow" }, row));
    if (can.includes("draw") && !ui.sel && !d.options.voluntary_draw && !r.pending) {
      part(el("p", { class: "muted", text: t("Draw only if you cannot play.") }));
    }
    if (can.includes("pass") && !ui.sel) part(el("p", { class: "muted", text: t("You drew: play the card you drew, or pass.") }));
    if (!can.length || (can.length === 1 && can[0] === "catch")) {
      part(el("p", { class: "muted uno-wait", text: acting === null ? t("Watching the table.") : t("Waiting for {name}.", { name: player(r.awaiting ? r.awaiting.seat : r.turn) }) }));
    }
  }

  function selectedPanel(d, label, acting) {
    const { el, t } = ctx;
    const need = needsFor(label);
    const wrap = el("div", { class: "stack uno-selected", id: "uno-selected" });
    wrap.append(el("div", { class: "row" }, cardFace(label, "mid"), el("p", { class: "big grow", text: cardName(label) })));
    const play = (colour) => {
      const action = { type: "play", card: label };
      if (colour) action.colour = colour;
      if (ui.target !== null) action.target = ui.target;
      send(action).then((res) => { if (res) { ui.sel = null; ui.target = null; render(); } });
    };
    if (need.includes("target")) {
      wrap.append(el("p", { text: t("Swap hands with whom?") }), playerButtons((i) => { ui.target = i; render(); }, acting, ui.target));
    }
    const ready = !need.includes("target") || ui.target !== null;
    if (need.includes("colour")) {
      if (ready) wrap.append(el("p", { text: t("Play it as which colour?") }), colourButtons((c) => play(c)));
    } else {
      wrap.append(el("button", { type: "button", class: "btn primary wide big", id: "uno-play", disabled: !ready,
        onclick: () => play(null) }, t("Play {card}", { card: cardName(label) })));
    }
    wrap.append(el("button", { type: "button", class: "btn ghost wide", id: "uno-back", onclick: () => { ui.sel = null; ui.target = null; render(); } }, t("Back: another card")));
    return wrap;
  }

  function challengePanel(d, can, part) {
    const { el, t } = ctx;
    const ch = d.round.challenge;
    const acting = actingSeat();
    if (acting === ch.accused) {
      const count = d.round.counts[acting];
      if (!ui.showing) {
        part(el("p", { class: "big", text: t("{name} challenges your Wild Draw Four. Show your hand to {name} only.", { name: player(ch.challenger) }) }),
          el("button", { type: "button", class: "btn primary wide big", id: "uno-show", onclick: () => { ui.showing = true; ui.hand = []; render(); } }, t("Show my hand")),
          el("button", { type: "button", class: "btn wide", id: "uno-guilty-me", onclick: () => send({ type: "verdict", guilty: true }) }, t("I was guilty")));
        return;
      }
      part(el("h2", { text: t("Your hand: {m} of {n} cards", { m: ui.hand.length, n: count }) }),
        el("div", { class: "uno-hand", id: "uno-hand" }, ui.hand.map((c, k) => el("button", { type: "button", class: "uno-chip", "aria-label": t("Remove {card}", { card: cardName(c) }),
          onclick: () => { ui.hand.splice(k, 1); render(); } }, cardFace(c, "small")))));
      if (ui.hand.length < count) part(picker("hand", (label) => { ui.hand.push(label); render(); }));
      part(el("button", { type: "button", class: "btn primary wide big", id: "uno-send-hand", disabled: ui.hand.length !== count,
        onclick: () => send({ type: "show_hand", cards: ui.hand.slice() }).then((res) => { if (res) { ui.showing = false; ui.hand = []; render(); } }) }, t("Show it to {name}", { name: player(ch.challenger) })),
      el("button", { type: "button", class: "btn ghost wide", onclick: () => { ui.showing = false; render(); } }, t("Back")));
      return;
    }
    if (acting === ch.challenger) {
      part(el("p", { class: "big", text: t("{name} shows you the hand. Did they hold a {colour} card?", { name: player(ch.accused), colour: colourWord(ch.colour) }) }),
        el("p", { class: "muted", text: t("Or wait: {name} may enter the hand on the phone.", { name: player(ch.accused) }) }),
        el("div", { class: "row" },
          el("button", { type: "button", class: "btn primary grow big", id: "uno-guilty", onclick: () => send({ type: "verdict", guilty: true }) }, t("Guilty")),
          el("button", { type: "button", class: "btn grow big", id: "uno-innocent", onclick: () => send({ type: "verdict", guilty: false }) }, t("Not guilty"))));
      return;
    }
    part(el("p", { class: "muted", text: t("Waiting for the challenge to be settled.") }));
  }

  /* ---- the end of a round: the hands left ---- */
  function scoringPanel(d, part) {
    const { el, t } = ctx;
    const r = d.round;
    const seated = ctx.seat !== null && ctx.seat !== undefined;
    if (!seated && !ctx.isHost) { part(el("p", { class: "muted", text: t("The players are counting the hands left.") })); return; }
    if (ui.handFor === undefined) ui.handFor = seated && ctx.seat !== r.winner ? ctx.seat : null;
    part(el("h2", { text: t("Cards left in the hands") }),
      el("p", { class: "muted", text: t("Tap each card left, or type the points counted.") }),
      (ctx.cameraZones || []).includes("hand") ?
        el("p", { class: "muted", id: "uno-hand-zone", text: t("Or lay a hand's cards in the camera's hand zone, one at a time, each on the last: it counts them for the first hand not yet complete.") }) : null);
    d.players.forEach((name, i) => {
      if (i === r.winner) return;
      const tally = r.tally[i];
      const n = r.counts[i];
      const pts = tally.reduce((s, c) => s + cardPoints(c, d.options), 0);
      const open = ui.handFor === i;
      // (the points typed on any phone are the table's: a loser types them on their own)
      const shared = (r.points || [])[i];
      const shown = ui.points[i] !== undefined ? ui.points[i] : (shared === null || shared === undefined ? "" : String(shared));
      part(el("div", { class: "uno-handrow" + (open ? " open" : ""), "data-seat": i },
        el("div", { class: "row spread" },
          el("strong", { text: name }),
          // (points typed are the hand's: "0 of 1 cards · 0 points" stood beside 20 typed)
          el("span", { class: "muted", "data-tally": i, text: /^\d+$/.test(String(shown).normalize("NFKC").trim())
            ? t("{p} points typed", { p: Number(String(shown).normalize("NFKC").trim()) })
            : t("{m} of {n} cards · {p} points", { m: tally.length, n, p: pts }) })),
        el("div", { class: "uno-hand" }, tally.map((c) => el("button", { type: "button", class: "uno-chip", "aria-label": t("Remove {card}", { card: cardName(c) }),
          onclick: () => send({ type: "uncount_card", seat: i, card: c }) }, cardFace(c, "small")))),
        el("div", { class: "row" },
          el("button", { type: "button", class: "btn" + (open ? " primary" : ""), "data-enter": i,
            onclick: () => { ui.handFor = open ? null : i; render(); } }, open ? t("Done") : t("Enter cards")),
          el("input", { id: "uno-points-" + i, class: "score", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off",
            placeholder: t("points"), "aria-label": t("Points in {name}'s hand", { name }), value: shown,
            // (sent once the typing stops, or the field is left: a phone laid down with the
            // field still open has shared its points all the same)
            oninput: (e) => { ui.points[i] = e.target.value.trim(); clearTimeout(pointsTimers[i]); pointsTimers[i] = setTimeout(() => sharePoints(i), 700); },
            onchange: () => { clearTimeout(pointsTimers[i]); sharePoints(i); } })),
        open && tally.length < n ? picker("count", (label) => send({ type: "count_card", seat: i, card: label })) : null));
    });
    part(el("button", { type: "button", class: "btn primary wide big", id: "uno-score", onclick: scoreRound }, t("Score the round")));
  }

  function cardPoints(label, options) {
    const { colour, value } = parse(label);
    if (colour !== null) return /^\d$/.test(value) ? Number(value) : 20;
    if (value === "wild-swap") return options.swap_points;
    if (value === "wild-custom") return options.custom_points;
    return 50;
  }

  /* Send the points typed for a hand (empty: none, its cards count), unless the table has
     them already; false where they are not whole numbers or were refused. */
  const pointsTimers = {};
  const pointsSending = {};  // (the points on their way, per seat: sent once)
  async function sharePoints(i) {
    // (a phone's own digits count: "１２" from a Chinese keyboard is 12)
    const v = ui.points[i] === undefined ? undefined : ui.points[i].normalize("NFKC").trim();
    if (v === undefined) return true;
    if (v !== "" && !/^\d+$/.test(v)) { ui.alert = ctx.t("Points must be whole numbers."); render(); return false; }
    const points = v === "" ? null : Number(v);
    const shared = (data().round.points || [])[i];
    // (a field rebuilt while it had the focus said "changed" again: the same points twice)
    if (pointsSending[i] === points) return true;
    if ((shared === undefined ? null : shared) !== points) {
      pointsSending[i] = points;
      try {
        if (!(await send({ type: "count_points", seat: i, points }))) return false;
      } finally { delete pointsSending[i]; }
    }
    if (ui.points[i] !== undefined && ui.points[i].normalize("NFKC").trim() === v) delete ui.points[i];
    return true;
  }

  async function scoreRound() {
    const r = data().round;
    for (const i of Object.keys(ui.points).map(Number)) {
      clearTimeout(pointsTimers[i]);
      if (i !== r.winner && !(await sharePoints(i))) return;
    }
    const res = await send({ type: "end_round" });
    if (res) { ui.points = {}; ui.handFor = undefined; render(); }
  }


  /* ---- the match: totals, rounds, chart ---- */
  function totalsSeries(d) {
    const carried = (d.carried || []).some(Boolean) ? d.carried : null;
    return d.players.map((_, i) => [carried ? carried[i] : 0, ...d.totals_by_round.map((row) => row[i])]);
  }
  /* What the result's picture adds to the scores (app.js): the match's chart. */
  function share() {
    const d = data();
    return d.rounds.length ? { series: totalsSeries(d) } : {};
  }
  function renderScores(d) {
    const { el, t } = ctx;
    const box = root.querySelector("#uno-scores");
    const left = (box.querySelector(".rounds-scroll") || {}).scrollLeft;
    box.textContent = "";
    const lowest = d.scoring === "own_hand";
    box.append(el("h2", { text: t("Scores") }),
      el("p", { class: "muted", text: [t("to {n} points", { n: d.target }), lowest ? t("lowest total wins") : t("the first to reach it wins")].join(" · ") }));
    const carried = (d.carried || []).some(Boolean) ? d.carried : null; // (set_totals: round 0)
    if (!d.rounds.length && !carried) { box.append(el("p", { class: "muted", text: t("No rounds yet.") })); return; }
    const table = el("table", { class: "rounds", id: "uno-rounds" },
      // (a name wraps between its words, a word too long ends in an ellipsis: the table's
      // own rules, table.rounds in app.css; "Fern/and/a" broke in the header's cells)
      el("thead", {}, el("tr", {}, el("th", { text: "#" }), d.players.map((p) => el("th", { scope: "col", title: p }, el("span", { class: "name", text: p }))))));
    const tbody = el("tbody");
    if (carried) tbody.append(el("tr", { class: "carried", title: t("Totals carried over") }, el("td", { text: "0" }),
      carried.map((p) => el("td", { text: p }))));
    d.rounds.forEach((rec, k) => tbody.append(el("tr", {}, el("td", { text: k + 1 }),
      rec.points.map((p, i) => el("td", { class: i === rec.winner ? "won" : "", text: p })))));
    tbody.append(el("tr", { class: "sum" }, el("td", { text: "Σ" }), d.totals.map((p, i) => el("td", { "data-total": i, text: p }))));
    table.append(tbody);
    // (the chart is drawn at the width it is shown: TC.chart)
    const wrap = el("div", { id: "uno-chart" });
    box.append(...TC.sideScroll(el("div", { class: "uno-tablewrap rounds-scroll" }, table), left), wrap);
    const series = totalsSeries(d);
    // (the axis says "Round n" as the status does: Chinese read 第 2 局 there, 第 1 轮 here)
    wrap.append(...TC.chart({ series, names: d.players, width: wrap.clientWidth, target: d.target,
      xLabel: (n) => t("Round {n}", { n }) }));
  }

  /* ---- what just happened (events), for everyone ---- */
  function eventText(e) {
    const t = ctx.t;
    const nm = (s) => player(s);
    switch (e.type) {
      case "played": return t("{name} played {card}.", { name: nm(e.seat), card: cardName(e.card) });
      case "colour": return t("{name} chose {colour}.", { name: nm(e.seat), colour: colourWord(e.colour) });
      case "skipped": return t("{name} is skipped.", { name: nm(e.seat) });
      case "reversed": return t("Play changes direction.");
      case "draws": return e.n === e.wanted ? t("{name} draws {n}.", { name: nm(e.seat), n: e.n })
        : t("{name} draws {n} of {wanted}: the piles are empty.", { name: nm(e.seat), n: e.n, wanted: e.wanted });
      case "passed": return t("{name} passes.", { name: nm(e.seat) });
      case "cannot_draw": return t("Nothing left to draw: {name} passes.", { name: nm(e.seat) });
      case "reshuffle": return t("Shuffle the discard pile (keep the top card): it is the new draw pile.");
      case "uno": return t("{name}: UNO!", { name: nm(e.seat) });
      case "caught": return t("{name} was caught without calling UNO!", { name: nm(e.seat) });
      case "challenge": return t("{challenger} challenges the Wild Draw Four of {accused}.", { challenger: nm(e.challenger), accused: nm(e.accused) });
      case "challenge_result": return e.guilty ? t("Guilty: {name} draws 4.", { name: nm(e.accused) })
        : t("Not guilty: the Wild Draw Four stands.");
      case "swapped": return t("{a} and {b} swap hands.", { a: nm(e.seats[0]), b: nm(e.seats[1]) });
      case "rotated": return t("Every hand passes to the next player.");
      case "jump_in": return t("{name} jumps in!", { name: nm(e.seat) });
      case "custom_rule": return e.text ? t("Custom rule: {text}", { text: e.text }) : null;
      case "first_card": return t("First card: {card}.", { card: cardName(e.card) });
      case "put_back": return t("Put {card} back into the middle of the deck and turn up another card.", { card: cardName(e.card) });
      case "cut": return t("{name} cut {card}.", { name: nm(e.seat), card: cardName(e.card) });
      case "cut_tie": return t("A tie: {names} cut again.", { names: TC.names(e.seats.map(nm)) });
      case "dealer": return t("{name} deals.", { name: nm(e.seat) });
      case "went_out": return t("{name} went out!", { name: nm(e.seat) });
      case "round_scored": return t("The round is scored.");
      case "game_over": return t("The match is over.");
      case "dismissed": return t("The card was dismissed.");
      // (the host's corrections: the lines of what was taken back must not stand)
      case "undone": return t("The host took back the last move.");
      case "round_edited": return t("The host corrected round {n}.", { n: e.round + 1 });
      case "game_resumed": return t("The match goes on.");
      case "count_adjusted": return t("The host corrected how many cards {name} holds.", { name: nm(e.seat) });
      default: return null;
    }
  }

  function onEvents(events, c) {
    ctx = c;
    for (const e of events) {
      // the camera saw a card the rules refuse: the player takes it back (already translated)
      // (a card on the pile is the table's to see: the phones say who played it; a tapped
      // card's refusal is told to the phone that tapped it only, by its answer)
      if (e.type === "refused" && e.message) {
        const own = e.seat !== null && e.seat !== undefined && e.seat === ctx.seat;
        ui.alert = own || e.seat === null || e.seat === undefined ? e.message
          : ctx.t("{name}: {message}", { name: player(e.seat), message: e.message });
        ui.alertCode = e.code;
        ui.alertVersion = ctx.view ? ctx.view.version : null;
        ui.alertShow = true;
        if (own || ctx.isHost) vibrate([120, 60, 120]);
        render();
        showAlert();
      }
    }
    // (a guilty verdict says who draws 4: "Bruno draws 4." after it said it again)
    const lines = events.filter((e, k) => !(e.type === "draws" && events.slice(0, k).some((c) =>
      c.type === "challenge_result" && c.guilty && c.accused === e.seat))).map(eventText).filter(Boolean);
    if (!lines.length) return;
    ui.news = lines.slice(-3);
    const box = root.querySelector("#uno-news");
    if (box) box.replaceChildren(...newsLines().map((s) => ctx.el("p", { text: s })));
    const me = ctx.seat;
    for (const e of events) {
      if (e.type === "put_back" || e.type === "reshuffle") ctx.toast(eventText(e));
      if (me === null || me === undefined) continue;
      if ((e.type === "must_draw" && e.seat === me) || (e.type === "caught" && e.seat === me) ||
          (e.type === "challenge" && e.accused === me) || (e.type === "confirm_card" && e.seat === me) ||
          (e.type === "choose" && e.seat === me)) vibrate([200, 80, 200]);
    }
  }

  /* ---- the history list ---- */
  function describe(entry, c) {
    ctx = c;
    const t = c.t;
    const b = entry.body || {};
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "cut": return t("cut {card}", { card: cardName(b.card) });
      case "set_dealer": return t("named {name} the dealer", { name: player(b.dealer) });
      case "turn_up": return t("turned up {card}", { card: cardName(b.card) });
      case "play": return b.colour ? t("played {card} ({colour})", { card: cardName(b.card), colour: colourWord(b.colour) })
        : t("played {card}", { card: cardName(b.card) });
      case "choose": return b.colour ? t("chose {colour}", { colour: colourWord(b.colour) }) : t("chose {name}", { name: player(b.target) });
      case "draw": return b.card ? t("drew {card}", { card: cardName(b.card) }) : t("drew");
      case "pass": return t("passed");
      case "uno": return t("called UNO");
      case "catch": return t("caught {name}", { name: player(b.target) });
      case "challenge": return t("challenged the Wild Draw Four");
      case "show_hand": return b.cards ? t("showed the hand: {cards}", { cards: TC.list(b.cards.map(cardName)) }) : t("showed the hand");
      case "verdict": return b.guilty ? t("said: guilty") : t("said: not guilty");
      case "propose": return t("camera: {card}?", { card: cardName(b.card) });
      case "confirm": return t("confirmed the card");
      case "dismiss": return t("dismissed the card");
      case "count_card": return t("entered {card} for {name}", { card: cardName(b.card), name: player(b.seat) });
      case "uncount_card": return t("took back {card} for {name}", { card: cardName(b.card), name: player(b.seat) });
      case "count_points": return b.points === null ? t("cleared the points for {name}", { name: player(b.seat) })
        : t("entered {points} points for {name}", { points: b.points, name: player(b.seat) });
      case "end_round": return t("scored the round");
      case "next_round": return t("dealt the next round");
      case "edit_round": return t("corrected round {n}", { n: (b.round || 0) + 1 });
      case "adjust_count": return t("set {name}'s cards to {n}", { name: player(b.seat), n: b.count });
      case "end_match": return t("ended the match");
      case "set_totals": return t("set the totals so far");
      default: return String(b.type || "");
    }
  }

  // (actsFor: the host picks whom to act for in UNO's own host bar, not the host panel's menu)
  TC.registerGame("uno", { mount, update, onEvents, describe, share, actsFor: true });
})();
