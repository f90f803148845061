/* Werewolf on the phone: the companion is the game master.

   Secrets never sit in the page: a phone's own card, what its card may know and its night
   input are drawn into #ww-secret only while a finger holds the pad, and removed the moment
   it lifts. At night every phone shows the same dark screen and vibrates the same way on each
   step, whatever its card; private events are kept in memory and shown only while held.
   Everything else (the dead and their cards, votes, the captain, timers) is public. */
(function () {
  "use strict";
  let root, ctx;
  let held = null;            // the pointerId holding the pad, or null
  let notes = [];             // private notes from events, this night only: {night, text}
  let local = {};             // choices in progress, per step id
  let localStep = null;
  let narrationLog = [];      // the host's screen: the narrator's words
  let anchor = null;          // the running step's countdown: {key, left, at}
  let timerHandle = null;
  const buzzed = new Set();   // the steps this phone vibrated for

  const SINGLE = ["seer", "hunter", "cupid", "witch", "thief", "little_girl"];
  const ORDER = ["werewolf", "villager", "seer", "witch", "hunter", "cupid", "little_girl", "thief"];
  const NIGHT_STEPS = ["thief", "cupid", "lovers", "seer", "werewolves", "witch"];

  /* ---- words ---- */
  function roleName(r) {
    const { t } = ctx;
    return ({
      werewolf: t("werewolf"), villager: t("villager"), seer: t("seer"), hunter: t("hunter"),
      cupid: t("Cupid"), witch: t("witch"), thief: t("thief"), little_girl: t("little girl"),
    })[r] || String(r);
  }
  function roleBlurb(r) {
    const { t } = ctx;
    return ({
      villager: t("No power. Find the werewolves and vote them out."),
      werewolf: t("Each night, choose a victim with your pack. By day, pass for a villager."),
      seer: t("Each night, look at one player's card."),
      hunter: t("When you die, you shoot one player at once."),
      cupid: t("On the first night, name two lovers. If one dies, so does the other."),
      witch: t("One healing potion and one poison, each once per game."),
      thief: t("On the first night, you may swap your card for one of the two spare cards."),
      little_girl: t("You may peek while the werewolves choose; if they catch you, you die instead."),
    })[r] || "";
  }
  function stepLabel(step) {
    const { t } = ctx;
    const names = ctx.view.public.players.map((p) => p.name);
    const s = step.name;
    if (s === "hunter") return t("{name}, the hunter, takes a last shot", { name: names[step.seat] });
    if (s === "successor") return t("{name}, the dying captain, names a successor", { name: names[step.seat] });
    if (s === "vote" && step.round > 1) return t("Vote again");
    return ({
      look: t("Look at your card"), thief: t("The thief is awake"), cupid: t("Cupid is awake"),
      lovers: t("The lovers are awake"), seer: t("The seer is awake"),
      werewolves: t("The werewolves are awake"), witch: t("The witch is awake"),
      captain: t("Captain election"), debate: t("Debate"), vote: t("Vote"),
    })[s] || s;
  }
  function deathLine(d, name) {
    const { t } = ctx;
    return ({
      night: t("{name} was found dead this morning.", { name }),
      werewolves: t("{name} was devoured by the werewolves.", { name }),
      poison: t("{name} was poisoned in the night.", { name }),
      vote: t("{name} was eliminated by the village.", { name }),
      shot: t("{name} was shot by the hunter.", { name }),
      lover: t("{name} died of a broken heart.", { name }),
      // (option starvation: a night without a victim, the werewolves die of hunger)
      starved: t("{name} starved to death in the night.", { name }),
    })[d.cause] || t("{name} died.", { name });
  }
  function victoryLine(result, names) {
    const { t } = ctx;
    const who = TC.names((result.winners || []).map((s) => names[s]));
    const won = ({
      village: t("The villagers win!"), wolves: t("The werewolves win!"),
      lovers: t("The lovers win: {names}!", { names: who }),
    })[result.winner] || t("The game is over. Nobody wins.");
    const why = ({
      no_werewolves: t("The last werewolf is dead."),
      seed: t("Only one villager is left standing."),
      parity: t("The werewolves are as many as the villagers."),
      lovers_last: t("The two lovers are the last ones alive."),
      starvation: t("The werewolves chose no victim and starved."),
      everyone_dead: t("Nobody is left alive."),
      host_ended: t("The host ended the game."),
    })[result.reason] || "";
    return [won, why];
  }
  function dealLabel(deal) {
    const { t } = ctx;
    return ({
      companion: t("The companion deals the cards; each phone shows its own."),
      host: t("The host deals real cards and enters who holds what."),
      players: t("Real cards: each player enters their own card, in secret."),
    })[deal] || deal;
  }

  /* A role on screen always says whose it is, so that a test (or a reviewer) can check that
     a phone never shows a card it may not know. */
  function roleTag(seat, role, pub) {
    return ctx.el("span", { class: "ww-role", "data-seat": seat, "data-role": role, "data-public": pub ? "1" : null,
      text: roleName(role) });
  }

  /* ---- time ---- */
  /* The time a step has left, counted down on this phone's monotonic clock from the
     moment it was first seen: then, the deadline less the server's time as its stream last
     told it (ctx.serverNow). Neither the phone's clock (set apart from an offline Pi's) nor a
     clock set while the step runs moves it; a reload mid-step shows what is left, not the
     whole step again. Until the stream has spoken, the phone's own clock stands in, trusted
     unless it is clearly off from the step's start. */
  function remaining(step) {
    if (!step || !step.deadline) return null;
    const server = ctx.serverNow ? ctx.serverNow() : null;
    const key = step.id + ":" + step.deadline + ":" + (server === null ? "phone" : "server");
    if (anchor === null || anchor.key !== key) {
      let wall = server;
      if (wall === null) {
        const local = Date.now() / 1000;
        const off = step.started > local + 2 || local - step.started > step.deadline - step.started + 5;
        wall = off ? step.started : local;
      }
      anchor = { key, left: step.deadline - wall, at: performance.now() };
    }
    return Math.max(0, Math.round(anchor.left - (performance.now() - anchor.at) / 1000));
  }
  function clock(sec) {
    const m = Math.floor(sec / 60), s = sec % 60;
    return m + ":" + String(s).padStart(2, "0");
  }
  function tick() {
    const box = root && root.querySelector("#ww-timer");
    if (!box || !ctx.view) return;
    const step = ctx.view.public.step;
    const left = remaining(step);
    box.textContent = left === null ? "" : clock(left);
    box.classList.toggle("low", left !== null && left <= 10);
  }

  /* ---- the hold pad ---- */
  function press(ev) {
    if (held !== null) return;
    held = ev.pointerId === undefined ? -1 : ev.pointerId;
    try { ev.currentTarget.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic */ }
    ev.preventDefault();
    root.querySelector("#ww-pad").classList.add("held");
    renderSecret();
  }
  function release(ev) {
    if (held === null) return;
    if (ev && ev.pointerId !== undefined && ev.pointerId !== held && ev.type !== "blur") return;
    held = null;
    root.querySelector("#ww-pad").classList.remove("held");
    root.querySelector("#ww-secret").textContent = "";
  }

  /* While the thumb holds the pad, a phone may not turn another finger's tap into a click
     (a second finger down reads as a two-finger gesture), so the buttons above the pad act
     on that finger's own pointerdown + pointerup; the browser's click of the same tap is
     dropped so nothing happens twice. Keyboard clicks (detail 0) pass. */
  function tapKey(b) {
    const data = ["seat", "take", "role"].map((k) => b.dataset[k] || "").join("|");
    // the same button after a re-render (a live vote may change its text, not its seat)
    return localStep + "|" + (b.id || (data !== "||" ? data : b.textContent));
  }
  function tapsOn(box) {
    const taps = new Map();
    box.addEventListener("pointerdown", (ev) => {
      const b = ev.target.closest && ev.target.closest("button");
      if (b && !b.disabled) taps.set(ev.pointerId, { key: tapKey(b), b });
    });
    box.addEventListener("pointercancel", (ev) => taps.delete(ev.pointerId));
    box.addEventListener("pointerup", (ev) => {
      const tap = taps.get(ev.pointerId);
      taps.delete(ev.pointerId);
      if (!tap) return;
      const over = document.elementFromPoint(ev.clientX, ev.clientY);
      const overB = over && over.closest && over.closest("button");
      if (!overB || !box.contains(overB) || tapKey(overB) !== tap.key || overB.disabled) return;
      overB.click();  // untrusted, detail 0: goes through
    });
    box.addEventListener("click", (ev) => {
      if (ev.isTrusted && ev.detail > 0) { ev.stopPropagation(); ev.preventDefault(); }
    }, true);
  }

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    root.append(
      el("section", { class: "card ww-status", id: "ww-status" },
        el("div", { class: "row spread" }, el("h2", { id: "ww-phase" }), el("span", { id: "ww-timer", class: "ww-timer" })),
        el("p", { id: "ww-step", class: "ww-step", "data-public": "1" })),
      el("section", { id: "ww-main" }),
      el("section", { class: "card ww-pad", id: "ww-pad", hidden: true },
        el("div", { id: "ww-secret", class: "ww-secret", "aria-live": "off" }),
        el("div", { class: "ww-hold", id: "ww-hold" },
          el("span", { class: "ww-print", "aria-hidden": "true" }),
          el("span", { id: "ww-hold-text", text: t("Hold here to see your card") }))),
      el("section", { class: "card", id: "ww-players-card" }, el("h2", { text: t("Village") }), el("ol", { id: "ww-players", class: "ww-players" })),
      el("section", { class: "card", id: "ww-end", hidden: true }),
      el("section", { class: "card ww-host", id: "ww-host", hidden: true }),
    );
    // the thumb holds the strip at the bottom; the screen above shows this phone's part, and
    // another finger taps there
    const hold = root.querySelector("#ww-hold");
    hold.addEventListener("pointerdown", press);
    hold.addEventListener("pointerup", release);
    hold.addEventListener("pointercancel", release);
    // the finger that holds lifts anywhere: hide (also if the capture failed)
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
    root.querySelector("#ww-pad").addEventListener("contextmenu", (ev) => ev.preventDefault());
    tapsOn(root.querySelector("#ww-secret"));
    window.addEventListener("blur", () => release({ type: "blur" }));
    document.addEventListener("visibilitychange", () => { if (document.hidden) release({ type: "blur" }); });
    timerHandle = setInterval(tick, 1000);
  }

  /* ---- helpers ---- */
  const pub = () => ctx.view.public;
  const me = () => (ctx.view.you && ctx.view.you.view && ctx.view.you.view.you) || null;
  const names = () => pub().players.map((p) => p.name);
  const living = () => pub().players.filter((p) => p.alive).map((p) => p.seat);

  async function send(action, okText) {
    try {
      await ctx.act(action);
      if (okText) note(okText);
      return true;
    } catch (e) { return false; }
  }
  function note(text) {
    if (notes.some((n) => n.text === text && n.night === pub().night && n.phase === pub().phase)) return;
    notes.push({ night: pub().night, phase: pub().phase, text });
    if (held !== null) renderSecret();
  }
  function stepLocal() {
    const step = pub().step;
    const id = step ? step.id : null;
    if (id !== localStep) { localStep = id; local = {}; }
    return local;
  }

  function seatButtons(seats, onPick, opts) {
    const { el } = ctx;
    const o = opts || {};
    return el("div", { class: "grid ww-targets" }, seats.map((s) =>
      el("button", { class: "btn ww-target" + (o.chosen && o.chosen.includes(s) ? " primary" : ""), type: "button",
        "data-seat": s, "aria-pressed": o.chosen ? String(o.chosen.includes(s)) : null,
        onclick: () => onPick(s) }, names()[s], o.extra ? o.extra(s) : null)));
  }

  /* ---- update ---- */
  function update(v, c) {
    ctx = c;
    const p = v.public;
    const { t } = ctx;
    staleNarration(p);
    const night = p.phase === "night";
    const nightfall = night && !root.classList.contains("ww-night");
    document.body.classList.toggle("ww-dark", night);
    root.classList.toggle("ww-night", night);
    if (p.phase !== "night") notes = notes.filter((n) => n.phase !== "night" || n.night === p.night);

    const phase = root.querySelector("#ww-phase");
    phase.textContent = ({
      setup: t("Setting up"), prelude: t("Before the first night"),
      night: t("Night {n}", { n: p.night }), day: t("Day {n}", { n: p.day }), over: t("Game over"),
    })[p.phase] || p.phase;
    root.querySelector("#ww-step").textContent = p.step ? stepLabel(p.step) : "";
    tick();

    renderMain();
    renderPad();
    renderPlayers();
    renderEnd();
    renderHost();
    if (held !== null) renderSecret();
    // night falls: every phone scrolls to the same place (the step and the pad)
    if (nightfall) root.querySelector("#ww-status").scrollIntoView({ block: "start" });
  }

  /* Before the start (a new village, or the start undone) the narrator has said nothing yet:
     a line the phone still shows ("Everyone, look at your card in secret…") is gone. */
  function staleNarration(p) {
    if (p.phase !== "setup") return;
    narrationLog = [];
    const box = document.getElementById("narration");
    if (box && !box.hidden) { box.hidden = true; box.textContent = ""; }
  }
  // (the page's narration card is written after the game's update: read it again then)
  document.addEventListener("tc:view", (ev) => { if (ev.detail && ev.detail.public) staleNarration(ev.detail.public); });

  function renderPad() {
    const p = pub(), y = me(), { t } = ctx;
    const pad = root.querySelector("#ww-pad");
    const show = !!y && p.phase !== "over" && (p.phase !== "setup" || p.options.deal === "players");
    pad.hidden = !show;
    root.classList.toggle("ww-haspad", show);
    if (!show && held !== null) release({ type: "blur" });
    root.querySelector("#ww-hold-text").textContent = p.phase === "night"
      ? t("Hold here to see your screen") : t("Hold here to see your card");
  }

  /* Public, the same on every phone of the same seat state. */
  function renderMain() {
    const p = pub(), y = me(), { el, t } = ctx;
    const box = root.querySelector("#ww-main");
    box.textContent = "";
    const step = p.step;

    if (p.phase === "setup") return box.append(setupView());

    if (p.phase === "night") {
      box.append(el("section", { class: "card ww-sleep" },
        el("p", { class: "ww-moon", "aria-hidden": "true", text: "☾" }),
        el("p", { class: "big", text: t("The village sleeps. Keep your eyes closed.") }),
        el("p", { class: "muted", text: t("Everyone holds the pad below the same way; only your own screen shows under your finger.") })));
      return;
    }

    if (p.phase === "day") box.append(morning());

    if (!step) return;
    const card = el("section", { class: "card ww-stepcard" });
    box.append(card);
    if (step.name === "look") {
      const acked = p.acks.includes(ctx.seat);
      card.append(el("p", { text: t("Hold the pad to see your card in secret, then put your phone down.") }),
        el("p", { class: "muted", text: t("{n} of {m} have seen their card.", { n: p.acks.length, m: p.players.length }) }));
      if (y && !acked) card.append(el("button", { class: "btn primary wide", id: "ww-ack", type: "button", text: t("I have seen my card"),
        onclick: () => send({ type: "ack" }) }));
      else if (y) card.append(el("p", { class: "ww-ok", text: t("Done. Wait for the others.") }));
    } else if (step.name === "captain" || step.name === "vote") {
      card.append(voteView(step));
    } else if (step.name === "debate") {
      card.append(el("p", { class: "big", text: t("Talk it over: who are the werewolves?") }),
        el("p", { class: "muted", text: t("The vote comes when the time is up.") }));
      if (ctx.isHost) card.append(el("button", { class: "btn wide", type: "button", text: t("End the debate now"),
        onclick: () => send({ type: "skip", step: step.id }) }));
    } else if (step.name === "hunter" || step.name === "successor") {
      card.append(lastWish(step));
    }
  }

  function setupView() {
    const p = pub(), y = me(), { el, t } = ctx;
    const box = el("div");
    const set = p.role_set;
    const total = Object.values(set).reduce((a, b) => a + b, 0);
    const card = el("section", { class: "card" },
      el("h2", { text: t("The cards") }),
      el("ul", { class: "ww-roleset", "data-public": "1" }, ORDER.filter((r) => set[r]).map((r) =>
        el("li", {}, el("strong", { text: "×" + set[r] }), " ", roleName(r)))),
      el("p", { class: "muted", text: set.thief
        ? t("{n} cards for {m} players: the thief brings two spare cards.", { n: total, m: p.players.length })
        : t("{n} cards for {m} players.", { n: total, m: p.players.length }) }),
      el("p", { text: dealLabel(p.options.deal) }),
      p.role_set_note === "invalid_option" ? el("p", { class: "ww-warn", text: t("The role set given at creation could not be dealt; this is the suggested set.") }) : null);
    box.append(card);
    if (p.options.deal !== "companion") {
      box.append(el("section", { class: "card" },
        el("p", { id: "ww-entered", text: t("{n} of {m} cards entered.", { n: p.entered.length, m: p.players.length }) }),
        y && p.options.deal === "players"
          ? el("p", { class: "muted", text: t("Hold the pad below to enter your card in secret.") }) : null));
    }
    if (ctx.isHost) box.append(roleEditor());
    else box.append(el("p", { class: "muted center", text: t("Waiting for the host to start the game.") }));
    return box;
  }

  function roleEditor() {
    const p = pub(), { el, t } = ctx;
    const l = stepLocal();
    if (!l.roles) l.roles = Object.assign({}, p.role_set);
    const n = p.players.length;
    const need = n + (l.roles.thief ? 2 : 0);
    const total = Object.values(l.roles).reduce((a, b) => a + b, 0);
    const sec = el("section", { class: "card ww-editor" }, el("h2", { text: t("Host: the role set") }));
    for (const r of ORDER) {
      const c = l.roles[r] || 0;
      const max = SINGLE.includes(r) ? 1 : n;
      const change = (d) => { l.roles[r] = Math.max(0, Math.min(max, c + d)); if (!l.roles[r]) delete l.roles[r]; renderMain(); };
      sec.append(el("div", { class: "row ww-count", "data-role": r },
        el("span", { class: "grow", text: roleName(r) }),
        el("button", { class: "btn sign", type: "button", "aria-label": t("One fewer {role}", { role: roleName(r) }), disabled: c <= 0, onclick: () => change(-1) }, "−"),
        el("strong", { class: "ww-n", text: c }),
        el("button", { class: "btn sign", type: "button", "aria-label": t("One more {role}", { role: roleName(r) }), disabled: c >= max, onclick: () => change(1) }, "+")));
    }
    sec.append(el("p", { class: total === need ? "ww-ok" : "ww-warn", text: t("{n} cards; {m} needed.", { n: total, m: need }) }),
      el("div", { class: "row" },
        el("button", { class: "btn grow", type: "button", text: t("Suggested set"),
          onclick: async () => { if (await send({ type: "set_roles", roles: null })) { l.roles = null; renderMain(); } } }),
        el("button", { class: "btn grow", type: "button", text: t("Save the cards"),
          onclick: async () => { if (await send({ type: "set_roles", roles: l.roles })) ctx.toast(t("Role set saved.")); } })));
    if (p.options.deal === "host") {
      const hv = ctx.hostView && ctx.hostView.state;
      const inSet = ORDER.filter((r) => p.role_set[r]);
      sec.append(el("h2", { text: t("Who holds which card") }),
        el("details", { class: "ww-assign" }, el("summary", { class: "btn", text: t("Enter the dealt cards (secret: hide this screen)") }),
          p.players.map((pl) => el("label", { class: "row" }, el("span", { class: "grow", text: pl.name }),
            el("select", { "data-seat": pl.seat, onchange: (ev) => send({ type: "assign", seat: pl.seat, role: ev.target.value || null }) },
              el("option", { value: "", text: "—" }),
              inSet.map((r) => el("option", { value: r, selected: hv && hv.roles[pl.seat] === r, text: roleName(r) })))))));
    }
    // (the game starts with the cards the host sees: counts changed and not saved are saved
    // first, or the start is refused with the reason; it started with the old set, silently)
    sec.append(el("button", { class: "btn primary wide", id: "ww-start", type: "button", text: t("Start the game"),
      onclick: async () => {
        const shown = l.roles;
        const same = (a, b) => ORDER.every((r) => (a[r] || 0) === (b[r] || 0));
        if (shown && !same(shown, p.role_set) && !(await send({ type: "set_roles", roles: shown }))) return;
        // (a seat no phone holds: the table asks first, as its card would go to no phone)
        try { await ctx.act({ type: "start" }); } catch (e) {
          if (e.code === "empty_seats" && confirm(e.message)) send({ type: "start", empty_seats: true });
        }
      } }));
    return sec;
  }

  function morning() {
    const p = pub(), { el, t } = ctx;
    const today = p.deaths.filter((d) => d.when === "day " + p.day);
    // the morning's dead (and whoever they took along) come before the first vote's
    const cut = today.findIndex((d) => d.cause === "vote");
    const dawn = cut < 0 ? today : today.slice(0, cut);
    const later = cut < 0 ? [] : today.slice(cut);
    const list = (deaths) => el("ul", { class: "ww-deaths" }, deaths.map((d) =>
      el("li", {}, el("span", { text: TC.spaced(deathLine(d, names()[d.seat])) }),
        el("span", { class: "muted", text: TC.spaced(t("Card:")) }), roleTag(d.seat, d.role, true))));
    const sec = el("section", { class: "card ww-morning", id: "ww-morning" },
      el("h2", { text: t("Morning of day {n}", { n: p.day }) }));
    if (!dawn.length) sec.append(el("p", { class: "big", text: t("Nobody died last night.") }));
    else sec.append(list(dawn));
    if (later.length) sec.append(el("h2", { class: "ww-later", text: t("Later today") }), list(later));
    return sec;
  }

  function voteView(step) {
    const p = pub(), y = me(), { el, t } = ctx;
    const captain = step.name === "captain";
    const box = el("div", { class: "stack" });
    const cands = step.candidates && step.candidates.length ? step.candidates : living();
    const votes = {};
    for (const v of p.votes) if (v.target !== null) (votes[v.target] = votes[v.target] || []).push(v.voter);
    const mine = y ? p.votes.find((v) => v.voter === ctx.seat) : null;
    box.append(el("p", { class: "big", text: captain ? t("Elect a captain: the captain's vote counts double.")
      : (step.round > 1 ? t("A tie: vote again between the tied players.") : t("Who should leave the village?")) }));
    const canVote = (y && y.alive) || ctx.isHost;
    if (y && !y.alive) box.append(el("p", { class: "muted", text: t("You are out of the game: watch in silence.") }));
    box.append(el("div", { class: "stack ww-ballot" }, cands.map((s) => {
      const who = (votes[s] || []).map((v) => names()[v] + (p.captain === v && !captain ? " ×2" : ""));
      return el("button", { class: "btn ww-cand" + (mine && mine.target === s ? " primary" : ""), type: "button",
        "data-seat": s, disabled: !canVote,
        onclick: () => send({ type: captain ? "captain_vote" : "vote", target: s }) },
      el("span", { class: "grow", text: names()[s] }),
      el("small", { class: "ww-voters", text: TC.list(who) }),
      el("strong", { class: "ww-tally", text: who.length ? String(who.length) : "" }));
    })));
    if (!captain && canVote) box.append(el("button", { class: "btn ghost wide", type: "button", "data-seat": "none",
      text: mine && mine.target === null ? t("You abstain") : t("Abstain"), onclick: () => send({ type: "vote", target: null }) }));
    const voted = p.votes.length, all = living().length;
    box.append(el("p", { class: "muted", text: t("{n} of {m} have voted.", { n: voted, m: all }) }));
    if (mine) box.append(el("p", { class: "ww-ok", text: mine.target === null ? t("You abstain.") : t("Your vote: {name}", { name: names()[mine.target] }) }));
    return box;
  }

  function lastWish(step) {
    const p = pub(), { el, t } = ctx;
    const mine = ctx.seat === step.seat || ctx.isHost;
    const box = el("div", { class: "stack" });
    const who = names()[step.seat];
    if (!mine) {
      box.append(el("p", { class: "big", text: step.name === "hunter"
        ? t("{name}, the hunter, chooses who to shoot.", { name: who })
        : t("{name}, the dying captain, names the next captain.", { name: who }) }));
      return box;
    }
    const targets = living().filter((s) => s !== step.seat);
    if (step.name === "hunter") {
      box.append(el("p", { class: "big", text: t("Your last shot: who do you take with you?") }),
        seatButtons(targets, (s) => send({ type: "hunter_shoot", target: s })),
        el("button", { class: "btn ghost wide", type: "button", text: t("Don't shoot"), onclick: () => send({ type: "hunter_shoot", target: null }) }));
    } else {
      box.append(el("p", { class: "big", text: t("Name the next captain.") }),
        seatButtons(targets, (s) => send({ type: "successor", target: s })));
    }
    if (p.captain !== null && p.captain !== undefined) box.append(el("p", { class: "muted", text: t("Captain: {name}", { name: names()[p.captain] }) }));
    return box;
  }

  function renderPlayers() {
    const p = pub(), { el, t } = ctx;
    const ol = root.querySelector("#ww-players");
    ol.textContent = "";
    const over = p.phase === "over";
    root.querySelector("#ww-players-card").hidden = over;
    for (const pl of p.players) {
      ol.append(el("li", { class: pl.alive ? "" : "dead", "data-seat": pl.seat },
        el("span", { class: "grow", text: pl.name + (pl.seat === ctx.seat ? TC.aside(t("(you)")) : "") }),
        pl.captain ? el("span", { class: "ww-badge", title: t("Captain"), text: "★ " + t("Captain") }) : null,
        !pl.alive && pl.role ? roleTag(pl.seat, pl.role, true) : null,
        !pl.alive ? el("span", { class: "muted", text: "✝" }) : null));
    }
    if (p.lovers && !over) ol.append(el("li", { class: "muted", text: t("Lovers: {names}", { names: p.lovers.map((s) => names()[s]).join(" ♥ ") }) }));
  }

  /* ---- the secret screen (only while held) ---- */
  function renderSecret() {
    const box = root.querySelector("#ww-secret");
    box.textContent = "";
    const y = me(), p = pub(), { el, t } = ctx;
    if (!y || held === null) return;
    if (p.phase === "setup") {
      box.append(claimView());
      return;
    }
    box.append(el("div", { class: "ww-card", "data-role": y.role },
      el("small", { class: "muted", text: t("Your card") }),
      el("strong", { class: "ww-card-name" }, roleTag(y.seat, y.role, false)),
      el("p", { class: "ww-blurb", text: roleBlurb(y.role) })));
    const known = el("ul", { class: "ww-known" });
    if (y.original_role) known.append(el("li", { text: t("You were the thief and took this card.") }));
    const pack = (y.known || []).filter((k) => k.how === "pack");
    if (pack.length) known.append(el("li", {}, TC.spaced(t("Your pack:")), ...pack.map((k, i) =>
      el("span", {}, i ? TC.listSep : "", names()[k.seat], TC.brackets[0], roleTag(k.seat, k.role), TC.brackets[1]))));
    else if (y.role === "werewolf") known.append(el("li", { text: t("You are the only werewolf.") }));
    for (const k of (y.known || []).filter((k) => k.how !== "pack")) {
      const label = ({ looked: t("Night {n}, you looked:", { n: k.night }), peeked: t("Night {n}, you peeked:", { n: k.night }),
        caught: t("Caught peeking on night {n}:", { n: k.night }) })[k.how] || "";
      known.append(el("li", {}, TC.spaced(label) + names()[k.seat] + " · ", roleTag(k.seat, k.role)));
    }
    if (y.lovers) {
      const other = y.lovers.filter((s) => s !== y.seat);
      known.append(el("li", { class: "ww-love", text: y.lovers.includes(y.seat)
        ? t("You are in love with {name}. If one of you dies, so does the other.", { name: names()[other[0]] })
        : t("The lovers: {names}", { names: y.lovers.map((s) => names()[s]).join(" ♥ ") }) }));
    }
    if (y.spares && p.night > 1) known.append(el("li", { text: t("The spare cards: {cards}", { cards: TC.list(y.spares.map(roleName)) }) }));
    if (y.potions) known.append(el("li", { text: t("Potions: healing {heal}, poison {poison}", {
      heal: y.potions.heal ? "✓" : "✗", poison: y.potions.poison ? "✓" : "✗" }) }));
    for (const n of notes) if (n.night === p.night) known.append(el("li", { class: "ww-note", text: n.text }));
    if (known.children.length || p.phase === "night") box.append(known);

    // at night what this phone does comes first: below the card it lay under the pad, and a
    // wolf held the pad with one thumb and scrolled to the victims with another finger
    if (p.phase === "night") box.prepend(nightInput(y));
  }

  function claimView() {
    const y = me(), p = pub(), { el, t } = ctx;
    const roles = ORDER.filter((r) => p.role_set[r]);
    return el("div", { class: "stack" },
      el("p", { text: t("Which card did you get?") }),
      el("div", { class: "grid" }, roles.map((r) => el("button", { class: "btn" + (y.role === r ? " primary" : ""), type: "button", "data-role": r,
        onclick: () => send({ type: "claim", role: r }) }, roleName(r)))),
      y.role ? el("p", { class: "ww-ok" }, TC.spaced(t("Entered:")), roleTag(y.seat, y.role)) : null);
  }

  /* The night's held screen: one frame for every role, so a neighbour cannot tell from
     across the table who is acting (an awake seer's grid of names and her role in very large
     type stood out against a sleeper's one line). Always: a prompt of two lines, a button
     for each living player, and a row of two buttons; a chosen button is marked by its
     border only. What a role cannot use there is inert: it looks the same, and does nothing. */
  function nightInput(y) {
    const p = pub(), { el, t } = ctx;
    const step = p.step;
    const l = stepLocal();
    // (a sleeper's prompt as long as an awake role's: the same amount of ink)
    const frame = { prompt: TC.sentences([t("Sleep. Nothing to do now."), t("Keep your eyes closed until you are called.")]), grid: {}, chosen: [], acts: [] };
    const awake = y.awake;
    if (!awake || !step || step.name !== awake) {
      if (y.can_peek) {
        frame.prompt = t("The werewolves are choosing. Peek? They may catch you.");
        frame.acts = [{ id: "ww-peek", text: t("Peek"), on: () => send({ type: "peek" }) }];
      }
    } else if (awake === "thief") {
      const spares = y.spares || [];
      const bothWolves = spares.length === 2 && spares.every((r) => r === "werewolf");
      frame.prompt = bothWolves ? t("Both spare cards are werewolves: you must take one.")
        : t("The spare cards. Take one, or keep your card.");
      frame.slots = spares.map((r, i) => ({ take: String(i), label: [TC.spaced(t("Take:")), roleTag("spare" + i, r)],
        on: () => send({ type: "thief", take: i }) }));
      if (!bothWolves) frame.slots.push({ take: "keep", label: [t("Keep my card")], on: () => send({ type: "thief", take: null }) });
    } else if (awake === "cupid") {
      l.lovers = l.lovers || [];
      frame.prompt = t("Choose two lovers (you may choose yourself).");
      for (const s of living()) frame.grid[s] = () => { l.lovers = l.lovers.includes(s) ? l.lovers.filter((x) => x !== s) : [...l.lovers, s].slice(-2); renderSecret(); };
      frame.chosen = l.lovers;
      frame.acts = [{ id: "ww-confirm", text: t("Make them fall in love"), ready: l.lovers.length === 2, on: () => send({ type: "cupid", lovers: l.lovers }) }];
    } else if (awake === "lovers") {
      frame.prompt = t("Look at your lover, then go back to sleep.");
      frame.acts = [{ id: "ww-confirm", text: t("Seen"), on: () => send({ type: "ack" }) }];
    } else if (awake === "seer") {
      frame.prompt = t("Whose card do you want to see?");
      for (const s of living()) if (s !== y.seat) frame.grid[s] = () => send({ type: "seer", target: s });
    } else if (awake === "werewolves") {
      const votes = {};
      for (const v of y.wolf_votes || []) votes[v.seat] = v.target;
      const mine = votes[y.seat];
      frame.prompt = t("Choose your victim together. The pack must agree.");
      for (const s of living()) frame.grid[s] = () => send({ type: "wolf_vote", target: s });
      frame.chosen = mine === undefined || mine === null ? [] : [mine];
      frame.extra = (s) => {
        const by = Object.keys(votes).filter((w) => votes[w] === s).map((w) => names()[w]);
        return by.length ? el("small", { class: "ww-voters", text: " ← " + TC.list(by) }) : null;
      };
      const none = Object.keys(votes).filter((w) => votes[w] === null).map((w) => names()[w]);
      frame.acts = [{ seat: "none", text: none.length ? t("No victim: {names}", { names: TC.list(none) }) : t("No victim tonight"),
        chosen: mine === null, on: () => send({ type: "wolf_vote", target: null }) }];
    } else if (awake === "witch") {
      const victim = y.victim;
      if (l.heal === undefined) { l.heal = false; l.poison = null; }
      frame.prompt = victim === null || victim === undefined
        ? t("The werewolves chose no victim tonight.") : t("The werewolves' victim: {name}", { name: names()[victim] });
      if (y.potions && y.potions.poison) {
        for (const s of living()) frame.grid[s] = () => { l.poison = l.poison === s ? null : s; renderSecret(); };
        frame.chosen = l.poison === null ? [] : [l.poison];
      }
      const heal = y.potions && y.potions.heal && victim !== null && victim !== undefined;
      frame.acts = [
        heal ? { id: "ww-heal", text: t("Heal {name}", { name: names()[victim] }), chosen: l.heal, pressed: true,
          on: () => { l.heal = !l.heal; renderSecret(); } } : null,
        { id: "ww-confirm", text: !l.heal && l.poison === null ? t("Use no potion") : t("Confirm"),
          on: () => send({ type: "witch", heal: l.heal, poison: l.poison }) }];
    }
    return nightFrame(frame);
  }

  function nightFrame(f) {
    const { el, t } = ctx;
    const inert = (text, attrs) => el("button", { class: "btn ww-act grow", type: "button", "aria-disabled": "true", ...(attrs || {}) }, text);
    const seats = living();
    const slots = f.slots || [];
    const grid = el("div", { class: "grid ww-targets" }, seats.map((s, k) => {
      const slot = slots[k];
      if (slot) {
        return el("button", { class: "btn ww-target", type: "button", "data-take": slot.take, onclick: slot.on }, ...slot.label);
      }
      const on = f.grid[s];
      const chosen = f.chosen.includes(s);
      return el("button", { class: "btn ww-target" + (chosen ? " on" : ""), type: "button", "data-seat": s,
        "aria-pressed": on && f.chosen.length ? String(chosen) : null, "aria-disabled": on ? null : "true",
        onclick: on || null }, names()[s], f.extra ? f.extra(s) : null);
    }));
    const acts = [0, 1].map((k) => {
      const a = f.acts[k];
      if (!a) return inert(t("Keep your eyes closed"));
      return el("button", { class: "btn ww-act grow" + (a.chosen ? " on" : ""), type: "button", id: a.id || null,
        "data-seat": a.seat || null, "aria-pressed": a.pressed ? String(!!a.chosen) : null,
        "aria-disabled": a.ready === false ? "true" : null,
        onclick: () => { if (a.ready !== false) a.on(); } }, a.text);
    });
    return el("div", { class: "ww-input ww-frame stack" },
      el("p", { class: "ww-prompt", text: f.prompt }), grid, el("div", { class: "row ww-acts" }, acts));
  }

  /* ---- the end ---- */
  function renderEnd() {
    const p = pub(), { el, t } = ctx;
    const sec = root.querySelector("#ww-end");
    sec.hidden = p.phase !== "over";
    if (p.phase !== "over") { sec.textContent = ""; return; }
    sec.textContent = "";
    const [won, why] = victoryLine(p.result || {}, names());
    const winners = (p.result && p.result.winners) || [];
    sec.append(el("p", { class: "banner", id: "ww-winner", text: won }), el("p", { text: why }));
    if (ctx.seat !== null && ctx.seat !== undefined && p.result && p.result.winner) {
      sec.append(el("p", { class: "big", text: winners.includes(ctx.seat) ? t("You won!") : t("You lost.") }));
    }
    const ul = el("ul", { class: "ww-final" });
    for (const r of p.roles || []) {
      const orig = (p.original_roles || [])[r.seat];
      const pl = p.players[r.seat];
      ul.append(el("li", { class: (pl.alive ? "" : "dead") + (winners.includes(r.seat) ? " won" : "") },
        el("span", { class: "grow", text: pl.name + (pl.captain ? " ★" : "") }),
        orig && orig.role !== r.role ? el("span", { class: "muted" }, roleTag(r.seat, orig.role, true), " → ") : null,
        roleTag(r.seat, r.role, true),
        pl.alive ? null : el("span", { class: "muted", text: " ✝" })));
    }
    sec.append(el("h2", { text: t("Everyone's card") }), ul);
    if (p.lovers && p.lovers.length) sec.append(el("p", { text: t("Lovers: {names}", { names: p.lovers.map((s) => names()[s]).join(" ♥ ") }) }));
    if (p.spares && p.spares.length) sec.append(el("p", { text: t("The spare cards: {cards}", { cards: TC.list(p.spares.map(roleName)) }) }));
    sec.append(el("h2", { text: t("The story of the game") }), story(p.journal || []));
  }

  function whenLabel(w) {
    const { t } = ctx;
    const m = /^(night|day) (\d+)$/.exec(w || "");
    if (!m) return t("Before the first night");
    return m[1] === "night" ? t("Night {n}", { n: m[2] }) : t("Day {n}", { n: m[2] });
  }

  /* What the result's picture adds (app.js): the story, a line a sentence, each night and
     day named. */
  function share() {
    const p = pub(), lines = [];
    let last = null;
    for (const e of p.journal || []) {
      if (e.key === "night_falls") continue;
      const w = whenLabel(e.when);
      if (w !== last) { last = w; lines.push({ head: w }); }
      const line = journalLine(e);
      if (line) lines.push({ text: line });
    }
    return { lines };
  }

  function story(journal) {
    const { el } = ctx;
    const box = el("div", { class: "ww-story", id: "ww-story" });
    let last = null, ol = null;
    for (const e of journal) {
      if (e.key === "night_falls") continue;
      const w = whenLabel(e.when);
      if (w !== last) { last = w; box.append(el("h3", { text: w })); ol = el("ol", {}); box.append(ol); }
      const line = journalLine(e);
      if (line) ol.append(el("li", { text: line }));
    }
    return box;
  }

  /* The engine's journal as sentences (companion/games/werewolf/script.py render_journal),
     in this phone's language. */
  function journalLine(e) {
    const { t } = ctx;
    const p = e.params || {};
    const nm = names();
    const name = (s) => (Number.isInteger(s) && s >= 0 && s < nm.length ? nm[s] : t("nobody"));
    const causes = { night: t("at night"), werewolves: t("devoured"), poison: t("poisoned"), vote: t("voted out"),
      shot: t("shot"), lover: t("heartbroken"), starved: t("starved") };
    const hows = { elected: t("elected"), lot: t("by lot"), named: t("named by the last captain") };
    switch (e.key) {
      case "dealt": {
        const cards = TC.list((p.roles || []).map((r, i) => t("{name}: {role}", { name: nm[i], role: roleName(r) })));
        return p.spares && p.spares.length
          ? t("Cards dealt: {cards}. Spare cards: {spares}.", { cards, spares: TC.list(p.spares.map(roleName)) })
          : t("Cards dealt: {cards}.", { cards });
      }
      case "thief_kept": return t("{name}, the thief, kept the thief card.", { name: name(p.seat) });
      case "thief_took": return t("{name}, the thief, took a card: {role}.", { name: name(p.seat), role: roleName(p.role) });
      case "lovers": return t("Cupid made {names} fall in love.", { names: (p.seats || []).map(name).join(" ♥ ") });
      case "seer_saw": return t("{by}, the seer, looked at {name}: {role}.", { by: name(p.by), name: name(p.seat), role: roleName(p.role) });
      case "peeked": return p.caught ? t("{name}, the little girl, peeked and was caught.", { name: name(p.seat) })
        : t("{name}, the little girl, peeked without being seen.", { name: name(p.seat) });
      case "caught": return t("The werewolves caught {name}, the little girl, peeking.", { name: name(p.seat) });
      case "wolves_drawn": return t("The werewolves did not agree; the lot chose {victim}.", { victim: name(p.victim) });
      case "wolves_chose": return p.victim === null || p.victim === undefined ? t("The werewolves chose no victim.")
        : t("The werewolves chose {victim}.", { victim: name(p.victim) });
      case "witch": {
        const v = { victim: name(p.victim), poison: name(p.poison) };
        const poison = p.poison !== null && p.poison !== undefined;
        if (p.heal && poison) return t("The witch healed {victim} and poisoned {poison}.", v);
        if (p.heal) return t("The witch healed {victim}.", v);
        if (poison) return t("The witch poisoned {poison}.", v);
        return t("The witch used no potion.");
      }
      case "died": return t("{name} died ({cause}); card: {role}.", { name: name(p.seat), cause: causes[p.cause] || p.cause, role: roleName(p.role) });
      case "hunter_shot": return t("{name}, the hunter, shot {target}.", { name: name(p.seat), target: name(p.target) });
      case "hunter_no_shot": return t("{name}, the hunter, did not shoot.", { name: name(p.seat) });
      case "captain": return t("{name} became captain ({how}).", { name: name(p.seat), how: hows[p.how] || p.how });
      case "vote_result": {
        const totals = TC.list((p.totals || []).map((x) => name(x.seat) + " " + x.votes));
        return totals ? t("Vote, round {round}: {totals}.", { round: p.round, totals }) : t("Vote, round {round}: nobody voted.", { round: p.round });
      }
      case "no_elimination": return t("Nobody was eliminated.");
      case "timeout": return t("Time ran out ({step}); the default was applied.", { step: stepWord(p.step) });
      case "ended_early": return t("The host ended it early ({step}); the default was applied.", { step: stepWord(p.step) });
      case "starved": return t("The werewolves starved.");
      case "game_over": return TC.sentences(victoryLine({ winner: p.winner, reason: p.reason, winners: p.seats || [] }, nm));
      default: return e.key;
    }
  }
  function stepWord(s) {
    const { t } = ctx;
    return ({ look: t("looking at cards"), thief: roleName("thief"), cupid: roleName("cupid"), lovers: t("lovers"),
      seer: roleName("seer"), werewolves: t("werewolves"), witch: roleName("witch"), captain: t("captain election"),
      debate: t("debate"), vote: t("vote"), hunter: roleName("hunter"), successor: t("successor") })[s] || s;
  }

  /* ---- the host: moderator view and controls ---- */
  function renderHost() {
    const sec = root.querySelector("#ww-host");
    sec.hidden = !ctx.isHost;
    if (!ctx.isHost) return;
    const p = pub(), { el, t } = ctx;
    const hv = ctx.hostView;
    const wasOpen = sec.querySelector(".ww-mod-view") ? sec.querySelector(".ww-mod-view").open : false;
    const tOld = sec.querySelector(".ww-timers");
    const tKeep = tOld ? { open: tOld.open, step: tOld.querySelector("select").value, secs: tOld.querySelector("input").value } : null;
    sec.textContent = "";
    const det = el("details", { class: "ww-mod-view", open: wasOpen || null }, el("summary", { class: "btn", text: t("Moderator view (secret: all cards)") }));
    sec.append(el("h2", { text: t("Host") }));
    const step = p.step;
    if (step && p.phase !== "over") {
      sec.append(el("div", { class: "row" },
        el("button", { class: "btn grow", type: "button", id: "ww-skip", text: t("End this step now"),
          onclick: () => send({ type: "skip", step: step.id }) })));
    }
    if (p.phase !== "over" && p.phase !== "setup") {
      sec.append(el("button", { class: "btn ghost wide", type: "button", text: t("End the game"),
        onclick: () => { if (confirm(t("End the game now?"))) send({ type: "end_game" }); } }));
    }
    sec.append(voiceBox());
    if (narrationLog.length) {
      sec.append(el("h3", { text: t("Narrator") }),
        el("ol", { class: "ww-narration" }, narrationLog.slice(-8).map((x) => el("li", { text: x }))));
    }
    if (p.phase !== "over") sec.append(timerEditor(tKeep));
    sec.append(det);
    if (!hv) return;
    const st = hv.state || {};
    if (p.phase !== "setup" && st.roles) {
      det.append(el("ul", { class: "ww-final" }, st.roles.map((r, i) => el("li", { class: st.alive[i] ? "" : "dead" },
        el("span", { class: "grow", text: p.players[i].name }),
        el("span", { class: "ww-modrole", text: roleName(r) }),
        (hv.awake || []).includes(i) && step && NIGHT_STEPS.includes(step.name) ? el("span", { class: "ww-badge", text: t("awake") }) : null))));
      if (st.spares && st.spares.length) det.append(el("p", { text: t("The spare cards: {cards}", { cards: TC.list(st.spares.map(roleName)) }) }));
      if (st.lovers) det.append(el("p", { text: t("Lovers: {names}", { names: st.lovers.map((s) => names()[s]).join(" ♥ ") }) }));
      if (st.potions) det.append(el("p", { text: t("Potions: healing {heal}, poison {poison}", { heal: st.potions.heal ? "✓" : "✗", poison: st.potions.poison ? "✓" : "✗" }) }));
    }
    if (p.phase === "night" && step && p.options.input === "host") det.append(moderatorNight(step, st));
    else if (p.phase === "night" && step) det.append(nightSoFar(st, false));
    // (the witch's move ends the night: what she did shows the morning after)
    else if (p.phase === "day" && st.tonight && p.options.input !== "host") det.append(nightSoFar(st, true));
  }

  /* Where the narrator's voice comes from, said on the host's page, with a sound check and
     the last line again: off a Pi the host's phone is the table's speaker, and narration
     that went silent (the phone's volume, a browser that cannot speak) went unnoticed. */
  function voiceBox() {
    const { el, t } = ctx;
    const speech = document.getElementById("table").dataset.speech || "";
    const canSpeak = !!(window.speechSynthesis && window.SpeechSynthesisUtterance);
    const where = {
      espeak: t("The narrator speaks through the table's speaker."),
      browser: canSpeak ? t("No speaker at the table: the narrator speaks through this phone. Keep it at the table, volume up.")
        : t("No speaker at the table, and this browser cannot speak: read the narrator's lines aloud from this screen."),
      silent: t("The narrator is silent on this companion: read its lines aloud from this screen."),
    }[speech] || t("Nothing narrates on this companion.");
    const say = (what) => ctx.call("POST", "speech", { say: what }).catch((e) => ctx.toast(e.message, "error"));
    const box = el("div", { class: "ww-voice stack", id: "ww-voice", "data-speech": speech },
      el("p", { id: "ww-voice-where", text: where }),
      voiceTrouble ? el("p", { class: "ww-warn", id: "ww-voice-trouble", text: voiceTrouble }) : null);
    if (speech === "espeak" || (speech === "browser" && canSpeak)) {
      box.append(el("div", { class: "row" },
        el("button", { class: "btn grow", type: "button", id: "ww-voice-test", text: t("Test the sound"), onclick: () => { voiceTrouble = null; say("test"); } }),
        el("button", { class: "btn grow", type: "button", id: "ww-voice-again", text: t("Say it again"), onclick: () => say("again") })));
    }
    return box;
  }
  let voiceTrouble = null;
  document.addEventListener("tc:speech", (ev) => {
    const d = ev.detail || {};
    const was = voiceTrouble;
    voiceTrouble = d.error ? ctx.t("This phone could not speak the last line ({error}). Tap \"Test the sound\" and turn the volume up.", { error: d.error }) : null;
    if (was !== voiceTrouble && ctx && ctx.isHost && root) renderHost();
  });

  /* The night as the phones enter it (input on the phones), for the moderator's eyes: the
     moderator view showed the cards but none of the night's moves. */
  function nightSoFar(st, over) {
    const { el, t } = ctx;
    const tn = st.tonight || {}, n = names();
    const who = (s) => (s === null || s === undefined ? t("nobody") : n[s]);
    const items = [];
    const votes = Object.entries(tn.wolf_votes || {});
    if (votes.length) items.push(t("The werewolves' votes: {votes}", { votes: TC.list(votes.map(([s, v]) => n[s] + " → " + who(v))) }));
    if (tn.seer !== null && tn.seer !== undefined) items.push(t("The seer looked at {name}.", { name: n[tn.seer] }));
    if (tn.victim !== null && tn.victim !== undefined) items.push(t("The werewolves' victim: {name}.", { name: n[tn.victim] }));
    if (tn.peeked) items.push(tn.caught ? t("The little girl peeked and was caught.") : t("The little girl peeked."));
    if (tn.witch_done) {
      items.push(tn.heal ? t("The witch healed the victim.") : t("The witch did not heal."));
      if (tn.poison !== null && tn.poison !== undefined) items.push(t("The witch poisoned {name}.", { name: n[tn.poison] }));
    }
    return el("div", { class: "stack ww-mod", id: "ww-tonight" }, el("h3", { text: over ? t("Last night") : t("Tonight so far") }),
      items.length ? el("ul", {}, items.map((x) => el("li", { text: x }))) : el("p", { class: "muted", text: t("Nothing yet.") }));
  }

  function timerEditor(keep) {
    const p = pub(), { el, t } = ctx;
    const steps = ["look", "thief", "cupid", "lovers", "seer", "werewolves", "witch", "captain", "debate", "vote", "hunter", "successor"]
      .filter((s) => s in p.timers);
    const cur = keep ? keep.step : (p.step && steps.includes(p.step.name) ? p.step.name : "debate");
    const sel = el("select", { id: "ww-timer-step", "aria-label": t("Step"),
      onchange: () => { secs.value = p.timers[sel.value]; } },
    steps.map((s) => el("option", { value: s, selected: s === cur, text: stepWord(s) })));
    const secs = el("input", { id: "ww-timer-secs", inputmode: "numeric", value: keep ? keep.secs : p.timers[cur], "aria-label": t("Seconds") });
    return el("details", { class: "ww-timers", open: keep && keep.open ? true : null }, el("summary", { class: "btn", text: t("Timers") }),
      // (the step on a line of its own: beside the seconds and the button it showed "suc")
      el("div", { class: "stack" }, sel, el("div", { class: "row" }, secs,
        el("button", { class: "btn grow", type: "button", text: t("Set the timer"), onclick: () => {
          const n = Number(secs.value);
          if (!Number.isFinite(n)) { ctx.toast(t("A timer is 5 to 3600 seconds."), "error"); return; }
          send({ type: "set_timer", step: sel.value, seconds: n });
        } }))));
  }

  function moderatorNight(step, st) {
    const { el, t } = ctx;
    const box = el("div", { class: "stack ww-mod" }, el("h3", { text: stepLabel(step) }));
    const tonight = st.tonight || {};
    const l = stepLocal();
    const all = living();
    if (step.name === "thief") {
      box.append(el("div", { class: "grid" }, (st.spares || []).map((r, i) => el("button", { class: "btn", type: "button",
        onclick: () => send({ type: "thief", take: i }) }, TC.spaced(t("Take:")) + roleName(r)))),
      el("button", { class: "btn ghost", type: "button", text: t("Keep my card"), onclick: () => send({ type: "thief", take: null }) }));
    } else if (step.name === "cupid") {
      l.mlovers = l.mlovers || [];
      box.append(seatButtons(all, (s) => { l.mlovers = l.mlovers.includes(s) ? l.mlovers.filter((x) => x !== s) : [...l.mlovers, s].slice(-2); renderHost(); }, { chosen: l.mlovers }),
        el("button", { class: "btn primary", type: "button", disabled: l.mlovers.length !== 2, text: t("Make them fall in love"),
          onclick: () => send({ type: "cupid", lovers: l.mlovers }) }));
    } else if (step.name === "lovers") {
      box.append(el("button", { class: "btn primary", type: "button", text: t("Seen"), onclick: () => send({ type: "ack" }) }));
    } else if (step.name === "seer") {
      if (tonight.seer !== null && tonight.seer !== undefined) {
        box.append(el("p", { class: "big", text: t("Show the seer: {name} is {role}.", { name: names()[tonight.seer], role: roleName(st.roles[tonight.seer]) }) }));
      } else box.append(seatButtons(all, (s) => send({ type: "seer", target: s })));
    } else if (step.name === "werewolves") {
      box.append(seatButtons(all, (s) => send({ type: "wolf_vote", target: s })),
        el("button", { class: "btn ghost", type: "button", text: t("No victim tonight"), onclick: () => send({ type: "wolf_vote", target: null }) }));
      if ((st.roles || []).some((r, i) => r === "little_girl" && st.alive[i]) && !tonight.caught) {
        box.append(el("button", { class: "btn", type: "button", text: t("The werewolves caught the little girl"),
          onclick: () => send({ type: "catch_little_girl" }) }));
      }
    } else if (step.name === "witch") {
      const victim = tonight.victim;
      if (l.heal === undefined) { l.heal = false; l.poison = null; }
      box.append(el("p", { text: victim === null || victim === undefined ? t("The werewolves chose no victim tonight.")
        : t("The werewolves' victim: {name}", { name: names()[victim] }) }));
      if (st.potions && st.potions.heal && victim !== null && victim !== undefined) {
        box.append(el("button", { class: "btn" + (l.heal ? " primary" : ""), type: "button", "aria-pressed": String(l.heal),
          text: t("Heal {name}", { name: names()[victim] }), onclick: () => { l.heal = !l.heal; renderHost(); } }));
      }
      if (st.potions && st.potions.poison) {
        box.append(el("p", { text: t("Poison someone?") }),
          seatButtons(all, (s) => { l.poison = l.poison === s ? null : s; renderHost(); }, { chosen: l.poison === null ? [] : [l.poison] }));
      }
      box.append(el("button", { class: "btn primary", type: "button", text: !l.heal && l.poison === null ? t("Use no potion") : t("Confirm"),
        onclick: () => send({ type: "witch", heal: l.heal, poison: l.poison }) }));
    }
    return box;
  }

  /* ---- events ---- */
  function onEvents(events, c) {
    ctx = c;
    const { t } = ctx;
    for (const e of events) {
      if (e.type === "step") {
        // every phone, whatever its card, vibrates exactly the same way, once per step (an
        // action's answer and the live stream both carry the step that action started)
        const key = e.id + ":" + e.deadline;  // an undone step comes back with a new deadline
        if (!buzzed.has(key)) {
          buzzed.add(key);
          if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
        }
      } else if (e.type === "narration" && e.text) {
        if (e.again && narrationLog.length) continue;  // (the stream came back: logged already)
        narrationLog.push(TC.narration(e));  // (in this phone's language)
        narrationLog = narrationLog.slice(-30);
        if (ctx.isHost) renderHost();
      } else if (!ctx.view) {
        continue;
      } else if (e.type === "wolves_done" && e.to) {
        note(e.victim === null || e.victim === undefined ? t("The pack chose no victim.")
          : t("The pack's victim: {name}", { name: names()[e.victim] }));
      } else if (e.type === "caught" && e.to && e.seat === ctx.seat) {
        note(t("The werewolves caught you peeking: you die tonight instead of their victim."));
      } else if (e.type === "witch_done" && e.to) {
        const bits = [];
        if (e.heal) bits.push(t("you healed the victim"));
        if (e.poison !== null && e.poison !== undefined) bits.push(t("you poisoned {name}", { name: names()[e.poison] }));
        note(bits.length ? t("Done: {what}.", { what: TC.clauses(bits) }) : t("Done: no potion tonight."));
      } else if (e.type === "seer_result" && e.to) {
        if (held !== null) renderSecret();
      }
    }
  }

  function describe(entry, c) {
    const { t } = c;
    const b = entry.body || {};
    const nm = c.view ? c.view.public.players.map((p) => p.name) : [];
    const name = (s) => (s === null || s === undefined ? t("nobody") : nm[s] || String(s));
    const open = c.isHost || (c.view && c.view.public.phase === "over");
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "set_roles": return t("set the role set");
      case "start": return t("started the game");
      case "captain_vote": return t("voted for {name} as captain", { name: name(b.target) });
      case "vote": return b.target === null || b.target === undefined ? t("abstained") : t("voted against {name}", { name: name(b.target) });
      case "hunter_shoot": return b.target === null || b.target === undefined ? t("did not shoot") : t("shot {name}", { name: name(b.target) });
      case "successor": return t("named {name} captain", { name: name(b.target) });
      case "timeout": return t("time ran out");
      case "skip": return t("ended the step");
      case "set_timer": return t("set the timer of {step} to {n} s", { step: stepWord(b.step), n: b.seconds });
      case "end_game": return t("ended the game");
      default: break;
    }
    // night actions: a phone sees only its own, and even then it stays vague unless the game
    // is over, so that a glance at the history tells nothing
    if (!open) return t("a secret action");
    switch (b.type) {
      case "assign": return b.roles ? t("entered the cards") : t("entered {name}'s card: {role}", { name: name(b.seat), role: b.role ? roleName(b.role) : "—" });
      case "claim": return t("entered their card: {role}", { role: b.role ? roleName(b.role) : "—" });
      case "thief": return b.take === null || b.take === undefined ? t("kept the thief card") : t("took a spare card");
      case "cupid": return t("named the lovers: {names}", { names: (b.lovers || []).map(name).join(" ♥ ") });
      case "seer": return t("looked at {name}'s card", { name: name(b.target) });
      case "wolf_vote": return t("chose the victim: {name}", { name: name(b.target) });
      case "ack": return t("has seen the card");
      case "peek": return t("peeked");
      case "catch_little_girl": return t("caught the little girl");
      case "witch": return t("used the potions: heal {heal}, poison {poison}", { heal: b.heal ? "✓" : "✗", poison: name(b.poison) });
      default: return b.type || "";
    }
  }

  TC.registerGame("werewolf", { mount, update, onEvents, describe, share });
})();
