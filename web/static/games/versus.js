/* Versus on the phone: a huge SLAP button (pressed on pointerdown, for the earliest stamp),
   the verdict of the latest slap with the press order and its gaps, the Gem gift chooser,
   every seat's counts, Gems and penalty, a pile reporter for tables without a camera, the
   decisions (the rules' and the host's), and the host's tools. Everything is drawn from the
   public view (nothing in Versus is secret), so a phone that reloads shows the same. */
(function () {
  "use strict";
  const PENALTY_IDS = ["hand_behind_back", "one_eye_closed", "cards_for_everyone", "play_two"];
  const DEFAULT_PICTURES = ["star", "moon", "sun", "heart", "flower", "fish"];
  let root, ctx;
  let changedRace = null; // the race whose verdict the latest events changed
  let flashRace = null;   // the race whose verdict was last flashed on this phone
  let slapBusy = false;
  let cameraSeen = null;  // the camera's zones the report box last opened or closed for

  /* ---- names people read ---- */
  function penaltyTitle(id) {
    const t = ctx.t;
    return { hand_behind_back: t("Hand behind your back"), one_eye_closed: t("One eye closed"),
      cards_for_everyone: t("Cards for everyone"), play_two: t("Play two in a row") }[id] || id;
  }
  function penaltyText(id) {
    const t = ctx.t;
    return {
      hand_behind_back: t("Hand behind your back: flip and slap with one hand only."),
      one_eye_closed: t("One eye closed while the penalty lasts."),
      cards_for_everyone: t("Cards for everyone: give one card of your draw pile to each player."),
      play_two: t("Play two in a row: flip two cards on each of your turns."),
    }[id] || "";
  }
  function pictureName(id) {
    const t = ctx.t;
    if (id === null || id === undefined) return t("empty");
    const known = { star: t("star"), moon: t("moon"), sun: t("sun"), heart: t("heart"),
      flower: t("flower"), fish: t("fish") }[id];
    if (known) return known;
    if (/^#\d+$/.test(id)) return t("picture {n}", { n: id.slice(1) });
    return t(id); // a taught label or a name the table typed
  }
  function name(seat) {
    const p = ctx.view.public.players;
    return seat !== null && seat !== undefined && p[seat] !== undefined ? p[seat] : "?";
  }
  function gemIcon() { return ctx.el("span", { class: "vs-gem-ico", "aria-hidden": "true" }); }
  function names(seats) { return TC.names(seats.map(name)); }
  /* "Ana slapped wrong" / "Ana and Bruno slapped wrong": one message for one player and one
     for several (Portuguese: "bateu errado" / "bateram errado"). */
  function slappedWrong(seats) {
    return seats.length === 1 ? ctx.t("{name} slapped wrong", { name: name(seats[0]) })
      : ctx.t("{names} slapped wrong", { names: names(seats) });
  }

  /* A gap between two presses: 4.0 µs below 10 µs, 0.12 ms below 1 ms, 4.3 ms below 10 ms,
     23 ms, 1.20 s. */
  function gap(ns) {
    const lang = document.documentElement.lang || "en";
    const fmt = (v, d) => v.toLocaleString(lang, { minimumFractionDigits: d, maximumFractionDigits: d });
    const ms = Math.abs(ns) / 1e6;
    if (ms < 0.01) return fmt(ms * 1000, 1) + " µs";  // (a tie 4 µs apart read "0.00 ms")
    if (ms < 1) return fmt(ms, 2) + " ms";
    if (ms < 10) return fmt(ms, 1) + " ms";
    if (ms < 1000) return fmt(ms, 0) + " ms";
    return fmt(ms / 1000, 2) + " s";
  }
  function statusLabel(s) {
    const t = ctx.t;
    return { right: t("right"), wrong: t("wrong"), late: t("late"), tied: t("tied"), out: t("out") }[s] || s;
  }

  /* ---- the phone's own palette of card pictures (for tables without a camera) ---- */
  function paletteKey() { return "tc.versus.pictures." + ctx.tableId; }
  function palette() {
    const saved = TC.store.get(paletteKey());
    const list = Array.isArray(saved) ? saved.filter((x) => typeof x === "string") : DEFAULT_PICTURES.slice();
    for (const top of (ctx.view && ctx.view.public.tops) || []) {
      if (typeof top === "string" && !top.startsWith("#") && !list.includes(top)) list.push(top);
    }
    return list.slice(0, 24);
  }
  function learnPicture(id) {
    if (typeof id !== "string" || !id || id.startsWith("#") || id.length > 64) return false;
    const list = palette();
    if (list.includes(id)) return false;
    list.push(id);
    TC.store.set(paletteKey(), list.slice(-24));
    return true;
  }

  /* ---- sending ---- */
  /* Time-critical moves go without the seen version (the rules check them against the
     latest race themselves); deliberate host edits go through ctx.act (version-checked). */
  function send(action) { return ctx.act(action, { version: false }); }
  async function slap() {
    if (slapBusy) return;
    slapBusy = true;
    const btn = root.querySelector("#vs-slap");
    btn.classList.add("down");
    if (navigator.vibrate) navigator.vibrate(35);
    setTimeout(() => { slapBusy = false; btn.classList.remove("down"); }, 300);
    try {
      const res = await ctx.call("POST", "slap", {});
      if (res && res.events) onEvents(res.events, ctx);
    } catch (e) {
      ctx.toast(e.message, "error");
      if (navigator.vibrate) navigator.vibrate([80, 60, 80]);
    }
  }

  /* ---- building the page (once) ---- */
  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    const slapBtn = el("button", { id: "vs-slap", class: "vs-slap", type: "button",
      "aria-label": t("Slap the Gems") }, el("span", { class: "vs-slap-word", text: t("SLAP!") }),
      el("small", { id: "vs-slap-sub", class: "vs-slap-sub" }));
    slapBtn.addEventListener("pointerdown", (ev) => { if (ev.button === 0 || ev.pointerType !== "mouse") { ev.preventDefault(); slap(); } });
    slapBtn.addEventListener("keydown", (ev) => { if ((ev.key === " " || ev.key === "Enter") && !ev.repeat) { ev.preventDefault(); slap(); } });
    slapBtn.addEventListener("contextmenu", (ev) => ev.preventDefault());

    root.append(
      el("section", { class: "card vs-status", id: "vs-status" }),
      el("section", { class: "card vs-verdict", id: "vs-verdict", "aria-live": "polite", hidden: true }),
      el("section", { class: "card vs-gift", id: "vs-gift", hidden: true }),
      el("div", { id: "vs-slap-box", class: "vs-slap-box", hidden: true }, slapBtn),
      el("section", { class: "card" }, el("h2", { text: t("Players") }), el("div", { id: "vs-seats", class: "vs-seats" })),
      el("details", { class: "card vs-report", id: "vs-report", hidden: true },
        el("summary", {}, el("strong", { text: t("Report your pile's new top") }),
          el("span", { class: "muted", text: TC.aside(t("(without a camera)")) })),
        el("p", { class: "muted", text: t("Tap the picture now on top of your discard pile.") }),
        el("div", { id: "vs-palette", class: "vs-palette" }),
        el("form", { id: "vs-add-picture", class: "row" },
          el("input", { name: "picture", maxlength: 40, autocomplete: "off", placeholder: t("Another picture's name"),
            "aria-label": t("Another picture's name") }),
          el("button", { class: "btn", type: "submit", text: t("Add") }))),
      el("section", { class: "card" }, el("h2", { text: t("Decisions") }), el("ol", { id: "vs-decisions", class: "vs-decisions" })),
      el("section", { class: "card vs-host", id: "vs-host", hidden: true }),
    );
    // Open unless the player closed it, or the camera watches this table (it reports the
    // piles; the box stays for a card it misses). Only the player's own taps are remembered.
    const report = root.querySelector("#vs-report");
    report.open = reportOpen();
    report.addEventListener("toggle", () => {
      if (report.open !== reportOpen()) TC.store.set("tc.versus.report-open", report.open);
    });
    root.querySelector("#vs-add-picture").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = ev.target.picture;
      const v = input.value.trim().toLowerCase();
      if (!v) return;
      learnPicture(v);
      input.value = "";
      renderPalette();
    });
    if (ctx.isHost) buildHost();
  }

  /* ---- drawing the view ---- */
  function update(view, c) {
    ctx = c;
    const pub = view.public;
    renderStatus(pub);
    renderVerdict(pub);
    renderGift(pub);
    renderSlap(pub);
    renderSeats(pub);
    renderPalette();
    renderDecisions(pub);
    if (ctx.isHost && !root.querySelector("#vs-host").children.length) buildHost();
    root.querySelector("#vs-host").hidden = !ctx.isHost;
    if (ctx.isHost) refreshHost(pub);
  }

  function renderStatus(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#vs-status");
    const bits = [];
    if (pub.ended) {
      const o = pub.outcome || { winners: [] };
      bits.push(el("p", { class: "banner", text: o.winners.length
        ? t("Game over: {names} won.", { names: names(o.winners) }) : t("Game over.") }));
    } else if (pub.turn !== null && pub.turn !== undefined) {
      const mine = ctx.seat === pub.turn;
      bits.push(el("p", { class: "vs-turn" + (mine ? " mine" : "") },
        mine ? t("Your turn: flip a card.") : t("{name}'s turn", { name: name(pub.turn) }),
        pub.flips_left > 1 ? el("span", { class: "vs-flips", text: " · " + t("{n} flips left", { n: pub.flips_left }) }) : null));
    }
    bits.push(el("p", { class: "muted vs-decks" },
      t("Gem deck: {n}", { n: pub.gem_deck }), " · ", t("Penalty cards left: {n}", { n: pub.penalties_left })));
    box.replaceChildren(...bits);
  }

  function raceKind(race) {
    if (race.resolution === "amulet") return "void";
    if (race.resolution === "reslap") return "reslap";
    if (race.winner !== null && race.winner !== undefined) return "right";
    if (race.tied && race.tied.length) return "tie";
    if (race.wrong && race.wrong.length) return "wrong";
    return "late";
  }

  function renderVerdict(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#vs-verdict");
    const race = pub.races && pub.races.length ? pub.races[pub.races.length - 1] : null;
    box.hidden = !race;
    if (!race) return;
    const kind = raceKind(race);
    const head = {
      right: () => race.winner === ctx.seat ? t("You win the slap!") : t("{name} wins the slap!", { name: name(race.winner) }),
      // (on the slapper's own phone: "You slapped wrong", as "You win the slap!")
      wrong: () => (race.wrong.length === 1 && race.wrong[0] === ctx.seat ? t("You slapped wrong!") : slappedWrong(race.wrong)),
      tie: () => t("Tie: {names}", { names: names(race.tied) }),
      reslap: () => t("Tie: {names}. Slap again!", { names: names(race.tied || []) }),
      late: () => t("Too late: no new pair."),
      void: () => t("The Lucky Amulet voids the slap."),
    }[kind]();
    const lines = [];
    if (kind === "right") {
      lines.push(el("p", { class: "vs-sub", text: race.gems_taken === 2
        ? t("Two Gems: keeps one, gives one. Takes every discard pile.")
        : race.gems_taken === 1 ? t("The last Gem, and every discard pile.") : t("Takes every discard pile.") }));
    }
    if (kind === "tie") lines.push(el("p", { class: "vs-sub", text: t("The host decides: a winner, or slap again.") }));
    for (const s of race.wrong || []) {
      const card = race.penalties ? race.penalties[String(s)] : undefined;
      lines.push(el("p", { class: "vs-penalty-line" },
        card ? [el("strong", { text: t("{name} draws a Penalty: {title}", { name: name(s), title: penaltyTitle(card) }) }),
          el("br"), el("span", { class: "muted", text: penaltyText(card) })]
          : t("{name} slapped wrong (no Penalty card left).", { name: name(s) })));
    }
    const order = race.order || [];
    let sentence = null;
    if (order.length >= 2) {
      sentence = TC.clauses(order.slice(1).map((b, i) => t("{a} by {gap} over {b}", { a: name(order[i].seat), gap: gap(b.gap_ns), b: name(b.seat) })));
    }
    const list = el("ol", { class: "vs-order", id: "vs-order" }, order.map((e, i) => el("li", { class: "st-" + e.status, "data-seat": e.seat },
      el("span", { class: "vs-who", text: name(e.seat) }),
      el("span", { class: "vs-res" },
        i > 0 ? el("span", { class: "vs-gap", text: "+" + gap(e.gap_ns) }) : el("span", { class: "vs-gap", text: t("first") }),
        el("span", { class: "vs-st", text: statusLabel(e.status) })))));
    const tags = [];
    if (race.forced) tags.push(el("span", { class: "vs-tag host", text: t("decided by the host") }));
    const changed = race.changed && !race.forced ? race.changed : null;
    if (changed || changedRace === race.id) tags.push(el("span", { class: "vs-tag changed", text: t("verdict changed") }));
    if (changed) lines.unshift(el("p", { class: "vs-sub vs-why", id: "vs-why", text: whyChanged(changed) }));
    const actions = [];
    if (kind === "tie" && ctx.isHost && pub.tie && pub.tie.race === race.id) {
      actions.push(el("div", { class: "vs-tie-buttons stack", id: "vs-tie" },
        pub.tie.seats.map((s) => el("button", { class: "btn primary wide", "data-seat": s, type: "button",
          onclick: () => send({ type: "settle_tie", winner: s }).catch(() => {}),
          text: t("{name} wins", { name: name(s) }) })),
        el("button", { class: "btn wide", type: "button", id: "vs-reslap",
          onclick: () => send({ type: "settle_tie", reslap: true }).catch(() => {}), text: t("Slap again") })));
    }
    if (kind === "right" && pub.options && pub.options.amulet && ctx.seat !== null && !pub.ended
        && pub.seats[ctx.seat] && pub.seats[ctx.seat].gems > 0 && race.winner !== ctx.seat) {
      actions.push(el("button", { class: "btn wide", type: "button", id: "vs-amulet",
        onclick: () => send({ type: "use_amulet", seat: ctx.seat }).catch(() => {}), text: t("Use the Lucky Amulet") }));
    }
    box.className = "card vs-verdict k-" + kind + (race.winner === ctx.seat && kind === "right" ? " mine" : "")
      + ((race.wrong || []).includes(ctx.seat) ? " mine-wrong" : "");
    box.dataset.kind = kind;
    box.dataset.race = race.id;
    box.replaceChildren(...[
      el("p", { class: "vs-head", id: "vs-head", text: head }),
      tags.length ? el("p", { class: "vs-tags" }, tags) : null,
      ...lines,
      sentence ? el("p", { class: "vs-sentence", id: "vs-sentence", text: sentence }) : null,
      order.length ? list : null,
      ...actions].filter(Boolean));
    if (flashRace !== race.id + ":" + kind) {
      flashRace = race.id + ":" + kind;
      box.classList.remove("flash"); void box.offsetWidth; box.classList.add("flash");
    }
  }

  /* Why the rules changed their verdict: what came in after the slap, and what it was. */
  function whyChanged(c) {
    const t = ctx.t;
    let why;
    if (c.cause === "pile_top" && (c.card === null || c.card === undefined)) {
      why = t("{name}'s pile was already empty when the slap came; that was reported only afterwards, so the rules judged the slap again.", { name: name(c.seat) });
    } else if (c.cause === "pile_top") {
      why = t("{name}'s pile already showed {card} when the slap came; that was reported only afterwards, so the rules judged the slap again.", { name: name(c.seat), card: pictureName(c.card) });
    } else if (c.cause === "press") {
      why = t("{name} also slapped, but the press reached the table only afterwards, so the rules judged the slap again.", { name: name(c.seat) });
    } else {
      why = t("Something reported after the slap changed who was right.");
    }
    return c.was ? TC.spaced(why) + t("The verdict before: {verdict}.", { verdict: describeDecision(c.was) }) : why;
  }

  function renderGift(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#vs-gift");
    const due = pub.gifts_due || [];
    const giver = due.includes(ctx.seat) ? ctx.seat : (ctx.isHost && due.length ? due[0] : null);
    // (also once the game is over: the last slap's gift is still given, V6)
    box.hidden = giver === null;
    if (box.hidden) { box.textContent = ""; return; }
    const options = pub.seats.map((s, i) => i).filter((i) => i !== giver && !pub.seats[i].out);
    box.replaceChildren(
      el("h2", { text: giver === ctx.seat ? t("Give your second Gem to:") : t("{name} gives a Gem to:", { name: name(giver) }) }),
      el("div", { class: "grid", id: "vs-gift-choices" }, options.map((i) => el("button", {
        class: "btn primary vs-gem-btn", type: "button", "data-seat": i,
        onclick: () => send({ type: "give_gem", to: i, from: giver }).catch(() => {}),
      }, gemIcon(), name(i)))));
  }

  function renderSlap(pub) {
    const { t } = ctx;
    const box = root.querySelector("#vs-slap-box");
    const me = ctx.seat !== null ? pub.seats[ctx.seat] : null;
    box.hidden = !me || pub.phone_buttons === false; // (the host hid them: the wired buttons slap)
    if (box.hidden) return;
    const btn = root.querySelector("#vs-slap");
    const off = pub.ended || me.out;
    btn.disabled = off;
    root.querySelector("#vs-slap-sub").textContent = pub.ended ? t("The game is over.")
      : me.out ? t("You are out of the game.") : me.penalty ? penaltyTitle(me.penalty) : t("Two identical cards on top? Slap!");
  }

  function renderSeats(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#vs-seats");
    const winners = pub.outcome ? pub.outcome.winners : [];
    box.replaceChildren(...pub.seats.map((s, i) => el("article", {
      class: "vs-seat" + (i === pub.turn && !pub.ended ? " turn" : "") + (s.out ? " out" : "") + (i === ctx.seat ? " me" : "")
        + (winners.includes(i) ? " won" : ""), "data-seat": i },
      el("div", { class: "row spread vs-seat-head" },
        el("strong", { class: "vs-name", text: pub.players[i] + (i === ctx.seat ? " · " + t("you") : "") }),
        el("span", { class: "vs-gems", "data-seat": i, title: t("Gems"), "aria-label": t("{n} Gems", { n: s.gems }) }, gemIcon(), el("b", { text: s.gems }))),
      el("div", { class: "vs-counts" },
        el("span", {}, t("Draw"), " ", el("b", { class: "vs-draw", text: s.draw })),
        el("span", {}, t("Discard"), " ", el("b", { class: "vs-discard", text: s.discard })),
        el("span", { class: "vs-top" }, t("Top"), " ", el("b", { text: pictureName(pub.tops[i]) }))),
      i === pub.turn && !pub.ended ? el("span", { class: "vs-tag turn", text: pub.flips_left > 1 ? t("turn: {n} flips", { n: pub.flips_left }) : t("turn") }) : null,
      s.last_card ? el("span", { class: "vs-tag last", text: t("last card: next slap decides") }) : null,
      s.out ? el("span", { class: "vs-tag out", text: t("out") }) : null,
      s.penalty ? el("p", { class: "vs-penalty" }, el("strong", { text: penaltyTitle(s.penalty) }), el("br"),
        el("span", { class: "muted", text: penaltyText(s.penalty) })) : null)));
  }

  function reportOpen() {
    const chosen = TC.store.get("tc.versus.report-open");
    return typeof chosen === "boolean" ? chosen : !ctx.cameraZones;
  }

  function renderPalette() {
    const { el, t } = ctx;
    const pub = ctx.view.public;
    const box = root.querySelector("#vs-report");
    const seat = ctx.seat;
    box.hidden = seat === null || pub.ended || pub.seats[seat].out;
    if (box.hidden) return;
    if (ctx.cameraZones !== cameraSeen) {  // (the camera's status came in: its default)
      cameraSeen = ctx.cameraZones;
      box.open = reportOpen();
    }
    const top = pub.tops[seat];
    root.querySelector("#vs-palette").replaceChildren(
      ...palette().map((id) => el("button", { class: "btn vs-pic" + (top === id ? " on" : ""), type: "button", "data-card": id,
        onclick: () => reportTop(seat, id) }, pictureName(id))),
      el("button", { class: "btn ghost vs-pic", type: "button", "data-card": "", onclick: () => reportTop(seat, null) }, t("empty")));
  }

  async function reportTop(seat, card) {
    let res;
    try {
      res = await send({ type: "pile_top", seat, card });
    } catch (e) { return; /* refused: ctx.act showed the reason */ }
    // Turns are advisory: the card lies on the table, so it counts (and play goes on after
    // that player); the phone that reported it says that it was not that player's turn.
    const offTurn = ((res && res.events) || []).find((e) => e.type === "out_of_turn" && e.seat === seat);
    if (offTurn && seat === ctx.seat) {
      ctx.toast(ctx.t("Not your turn: it was {name}'s turn. Your card counts, and play goes on after you.", { name: name(offTurn.expected) }), "error");
      if (navigator.vibrate) navigator.vibrate([80, 60, 80]);
    } else if (offTurn) {
      ctx.toast(ctx.t("{name} played out of turn (it was {expected}'s turn).", { name: name(seat), expected: name(offTurn.expected) }));
    } else if (navigator.vibrate) navigator.vibrate(15);
  }

  function describeDecision(d) {
    const t = ctx.t;
    switch (d.kind) {
      case "right": return t("{name} won a slap", { name: name(d.winner) });
      case "wrong": return slappedWrong(d.wrong || []);
      case "tie": return t("Tie: {names}", { names: names(d.tied || []) });
      case "reslap": return t("Slap again");
      case "late": return t("A late slap");
      case "void": return t("The Lucky Amulet voided a slap");
      case "gift": return t("{name} gave a Gem to {to}", { name: name(d.seat), to: name(d.to) });
      case "penalty_set": return d.penalty ? t("{name}'s penalty: {title}", { name: name(d.seat), title: penaltyTitle(d.penalty) })
        : t("{name}'s penalty cleared", { name: name(d.seat) });
      case "corrected": return d.seat !== undefined ? t("{name}'s counts corrected", { name: name(d.seat) }) : t("The counts were corrected");
      case "ended": return t("The host ended the game");
      case "amulet": return t("{name} used the Lucky Amulet", { name: name(d.seat) });
      default: return d.kind;
    }
  }

  function renderDecisions(pub) {
    const { el, t } = ctx;
    const list = root.querySelector("#vs-decisions");
    const ds = (pub.decisions || []).slice().reverse();
    if (!ds.length) { list.replaceChildren(el("li", { class: "muted", text: t("No slaps yet.") })); return; }
    list.replaceChildren(...ds.map((d) => el("li", { "data-by": d.by || "player" },
      el("span", { class: "grow", text: describeDecision(d) }),
      el("span", { class: "vs-by " + (d.by || "player"), text: d.by === "host" ? t("by the host") : d.by === "rules" ? t("by the rules") : t("by the player") }))));
  }

  /* ---- the host's tools ---- */
  function seatOptions(withNobody) {
    const { el, t } = ctx;
    const out = withNobody ? [el("option", { value: "", text: t("nobody") })] : [];
    ctx.view.public.players.forEach((n, i) => out.push(el("option", { value: i, text: n })));
    return out;
  }

  function buildHost() {
    if (!ctx.view) return;
    const { el, t } = ctx;
    const box = root.querySelector("#vs-host");
    const players = ctx.view.public.players;
    const numberInput = (nm, label) => el("label", {}, label, el("input", { name: nm, inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off" }));
    box.replaceChildren(
      el("h2", { text: t("Host tools") }),
      el("details", { class: "vs-host-part" }, el("summary", { class: "btn wide", text: t("Overrule the latest slap") }),
        el("form", { id: "vs-overrule", class: "stack" },
          el("label", {}, t("Who slapped right first"), el("select", { name: "winner" }, seatOptions(true))),
          el("fieldset", {}, el("legend", { text: t("Who slapped wrong (each draws a Penalty)") }),
            players.map((n, i) => el("label", { class: "row vs-check" }, el("input", { type: "checkbox", name: "wrong", value: i }), n))),
          el("button", { class: "btn primary", type: "submit", text: t("Overrule") }))),
      el("details", { class: "vs-host-part" }, el("summary", { class: "btn wide", text: t("Set a penalty") }),
        el("form", { id: "vs-set-penalty", class: "stack" },
          el("label", {}, t("Player"), el("select", { name: "seat" }, seatOptions(false))),
          el("label", {}, t("Penalty"), el("select", { name: "penalty" },
            el("option", { value: "", text: t("none") }), PENALTY_IDS.map((p) => el("option", { value: p, text: penaltyTitle(p) })))),
          el("button", { class: "btn primary", type: "submit", text: t("Set the penalty") }))),
      el("details", { class: "vs-host-part" }, el("summary", { class: "btn wide", text: t("Correct the counts") }),
        el("form", { id: "vs-correct", class: "stack" },
          el("label", {}, t("Player"), el("select", { name: "seat" }, seatOptions(false))),
          el("div", { class: "vs-nums" }, numberInput("draw", t("Draw")), numberInput("discard", t("Discard")), numberInput("gems", t("Gems"))),
          el("label", { class: "row vs-check" }, el("input", { type: "checkbox", name: "out" }), t("Out of the game")),
          el("button", { class: "btn primary", type: "submit", text: t("Save the counts") })),
        el("form", { id: "vs-correct-table", class: "stack" },
          el("div", { class: "vs-nums" }, numberInput("gem_deck", t("Gem deck")),
            el("label", {}, t("Whose turn"), el("select", { name: "turn" }, seatOptions(false)))),
          el("button", { class: "btn", type: "submit", text: t("Save the deck and turn") }))),
      el("details", { class: "vs-host-part" }, el("summary", { class: "btn wide", text: t("Report a pile's top") }),
        el("div", { class: "stack" },
          el("label", {}, t("Whose pile"), el("select", { id: "vs-host-pile-seat" }, seatOptions(false))),
          el("div", { id: "vs-host-palette", class: "vs-palette" }))),
      el("button", { class: "btn wide", type: "button", id: "vs-phone-buttons", onclick: () => {
        ctx.act({ type: "phone_buttons", on: ctx.view.public.phone_buttons === false }).catch(() => {});
      } }),
      el("button", { class: "btn wide vs-end", type: "button", id: "vs-end", text: t("End the game"), onclick: async () => {
        if (!confirm(t("End the game now?"))) return;
        try { await ctx.act({ type: "end_game" }); } catch (e) { /* toasted */ }
      } }),
    );
    const overrule = box.querySelector("#vs-overrule");
    overrule.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const pub = ctx.view.public;
      const race = pub.races && pub.races.length ? pub.races[pub.races.length - 1] : null;
      const w = overrule.winner.value;
      const action = { type: "overrule", winner: w === "" ? null : Number(w),
        wrong: [...overrule.querySelectorAll("input[name=wrong]:checked")].map((i) => Number(i.value)) };
      if (race) action.race = race.id;
      send(action).then(() => ctx.toast(t("Verdict overruled."))).catch(() => {});
    });
    const pen = box.querySelector("#vs-set-penalty");
    pen.seat.addEventListener("change", () => prefillPenalty(true));
    pen.addEventListener("submit", (ev) => {
      ev.preventDefault();
      ctx.act({ type: "set_penalty", seat: Number(pen.seat.value), penalty: pen.penalty.value || null })
        .then(() => ctx.toast(t("Penalty set."))).catch(() => {});
    });
    const cor = box.querySelector("#vs-correct");
    cor.seat.addEventListener("change", () => prefillCounts(true));
    cor.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const action = { type: "correct", seat: Number(cor.seat.value), out: cor.out.checked };
      for (const k of ["draw", "discard", "gems"]) {
        const v = cor[k].value.trim();
        if (!/^\d+$/.test(v)) { ctx.toast(t("Counts must be whole numbers."), "error"); cor[k].focus(); return; }
        action[k] = parseInt(v, 10);
      }
      ctx.act(action).then(() => ctx.toast(t("Counts corrected."))).catch(() => {});
    });
    const tab = box.querySelector("#vs-correct-table");
    tab.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const v = tab.gem_deck.value.trim();
      if (!/^\d+$/.test(v)) { ctx.toast(t("Counts must be whole numbers."), "error"); tab.gem_deck.focus(); return; }
      ctx.act({ type: "correct", gem_deck: parseInt(v, 10), turn: Number(tab.turn.value) })
        .then(() => ctx.toast(t("Counts corrected."))).catch(() => {});
    });
    box.querySelector("#vs-host-pile-seat").addEventListener("change", () => renderHostPalette());
  }

  function prefillPenalty(force) {
    const pen = root.querySelector("#vs-set-penalty");
    if (!pen || (!force && pen.contains(document.activeElement))) return;
    const s = ctx.view.public.seats[Number(pen.seat.value)];
    pen.penalty.value = s && s.penalty ? s.penalty : "";
  }
  function prefillCounts(force) {
    const cor = root.querySelector("#vs-correct");
    const tab = root.querySelector("#vs-correct-table");
    const pub = ctx.view.public;
    if (cor && (force || !cor.contains(document.activeElement))) {
      const s = pub.seats[Number(cor.seat.value)];
      if (s) { cor.draw.value = s.draw; cor.discard.value = s.discard; cor.gems.value = s.gems; cor.out.checked = s.out; }
    }
    if (tab && !force && !tab.contains(document.activeElement)) {
      tab.gem_deck.value = pub.gem_deck;
      if (pub.turn !== null && pub.turn !== undefined) tab.turn.value = pub.turn;
    }
  }
  function prefillOverrule() {
    const form = root.querySelector("#vs-overrule");
    if (!form || form.contains(document.activeElement)) return;
    const pub = ctx.view.public;
    const race = pub.races && pub.races.length ? pub.races[pub.races.length - 1] : null;
    if (!race || form.dataset.race === String(race.id) + ":" + raceKind(race) + ":" + race.winner) return;
    form.dataset.race = String(race.id) + ":" + raceKind(race) + ":" + race.winner;
    form.winner.value = race.winner === null || race.winner === undefined ? "" : race.winner;
    form.querySelectorAll("input[name=wrong]").forEach((i) => { i.checked = (race.wrong || []).includes(Number(i.value)); });
  }
  function renderHostPalette() {
    const { el, t } = ctx;
    const box = root.querySelector("#vs-host-palette");
    if (!box) return;
    const seat = Number(root.querySelector("#vs-host-pile-seat").value);
    const top = ctx.view.public.tops[seat];
    box.replaceChildren(...palette().map((id) => el("button", { class: "btn vs-pic" + (top === id ? " on" : ""), type: "button",
      "data-card": id, onclick: () => reportTop(seat, id) }, pictureName(id))),
    el("button", { class: "btn ghost vs-pic", type: "button", "data-card": "", onclick: () => reportTop(seat, null) }, t("empty")));
  }
  function refreshHost(pub) {
    prefillPenalty(false);
    prefillCounts(false);
    prefillOverrule();
    renderHostPalette();
    root.querySelector("#vs-end").disabled = !!pub.ended;
    root.querySelector("#vs-phone-buttons").textContent = pub.phone_buttons === false
      ? ctx.t("Show the phones' slap buttons") : ctx.t("Hide the phones' slap buttons (wired buttons only)");
  }

  /* ---- events: the feel of the game (the view draws the rest) ---- */
  /* The acting phone hears its events twice (the reply, then the stream): feel them once. */
  const recent = new Map();
  const buzzed = new Map();  // race id -> what this phone buzzed for it ("won", "wrong")
  function seenJustNow(e) {
    const key = JSON.stringify(e), now = Date.now();
    for (const [k, t0] of recent) if (now - t0 > 2000) recent.delete(k);
    if (recent.has(key)) return true;
    recent.set(key, now);
    return false;
  }

  function onEvents(events, c) {
    ctx = c;
    let redraw = false;
    for (const e of events) {
      if (seenJustNow(e)) continue;
      if (e.type === "pile_top" && learnPicture(e.card)) redraw = true;
      if (e.type === "verdict_changed") { changedRace = e.race; redraw = true; }
      if (e.type === "verdict" && e.by === "rules" && changedRace !== e.race) changedRace = null;
      if (e.type === "verdict" && navigator.vibrate && ctx.seat !== null) {
        // once a race and outcome: a second wrong slapper joining a race resends its verdict,
        // which said nothing new to the first
        const mine = e.winner === ctx.seat ? "won" : (e.wrong || []).includes(ctx.seat) ? "wrong" : null;
        if (mine && buzzed.get(e.race) !== mine) {
          buzzed.set(e.race, mine);
          if (buzzed.size > 20) buzzed.delete(buzzed.keys().next().value);
          navigator.vibrate(mine === "won" ? [60, 40, 60] : [250, 80, 250]);
        }
      }
      if (e.type === "eliminated" && e.seat === ctx.seat) ctx.toast(ctx.t("You are out of the game."));
      if (e.type === "gem_given" && e.receiver === ctx.seat) ctx.toast(ctx.t("{name} gave you a Gem!", { name: name(e.seat) }));
      if (e.type === "count_mismatch" && ctx.isHost) ctx.toast(ctx.t("{name}'s counts look wrong: check and correct them.", { name: name(e.seat) }), "error");
    }
    if (redraw && ctx.view) { renderVerdict(ctx.view.public); renderPalette(); if (ctx.isHost) renderHostPalette(); }
  }

  function describe(entry, c) {
    const t = c.t;
    const b = entry.body;
    const pl = c.view.public.players;
    const nm = (s) => (pl[s] !== undefined ? pl[s] : "?");
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "pile_top": return t("{name}'s pile: {card}", { name: nm(b.seat), card: pictureName(b.card) });
      case "slap": return t("slap: {names}", { names: TC.list(b.presses ? b.presses.map((p) => nm(p.seat)) : [nm(b.seat)]) });
      case "give_gem": return t("gave a Gem to {name}", { name: nm(b.to) });
      case "settle_tie": return b.reslap ? t("called a re-slap") : t("settled the tie: {name} wins", { name: nm(b.winner) });
      case "overrule": return t("overruled the slap: {name} right", { name: b.winner === null || b.winner === undefined ? t("nobody") : nm(b.winner) });
      case "set_penalty": return t("set {name}'s penalty: {title}", { name: nm(b.seat), title: b.penalty ? penaltyTitle(b.penalty) : t("none") });
      case "correct": return t("corrected the counts");
      case "use_amulet": return t("used the Lucky Amulet");
      case "end_game": return t("ended the game");
      default: return b.type;
    }
  }

  TC.registerGame("versus", { mount, update, onEvents, describe });
})();
