/* Quiz buzzers on the phone: a big BUZZ button (pressed on pointerdown, stamped on arrival
   and judged in the same race as the GPIO buttons), who has the floor (everyone else is
   locked out), the press order with the gaps, the scores, and the host's marks: right,
   wrong (the question reopens for the rest), pick a player, next question, adjust, end. */
(function () {
  "use strict";
  let root, ctx;
  let busy = false;
  let flashed = null;

  function name(seat) {
    const p = ctx.view.public.players;
    return seat !== null && seat !== undefined && p[seat] !== undefined ? p[seat] : "?";
  }
  function gap(ns) {
    const lang = document.documentElement.lang || "en";
    const fmt = (v, d) => v.toLocaleString(lang, { minimumFractionDigits: d, maximumFractionDigits: d });
    const ms = Math.abs(ns) / 1e6;
    if (ms < 0.01) return fmt(ms * 1000, 1) + " µs";  // (a 4 µs gap read "0.00 ms")
    if (ms < 1) return fmt(ms, 2) + " ms";
    if (ms < 10) return fmt(ms, 1) + " ms";
    if (ms < 1000) return fmt(ms, 0) + " ms";
    return fmt(ms / 1000, 2) + " s";
  }

  /* Host moves go without the seen version: the rules check the phase themselves, and a
     buzz arriving a moment earlier must not make the host's "right" bounce. A mark names
     whose answer it judges (the player this screen showed answering): a second tap that
     lands after someone else took the floor is refused, not counted against him. */
  function send(action) { return ctx.act(action, { version: false }); }

  async function buzz() {
    const btn = root.querySelector("#qz-buzz");
    if (busy || btn.disabled) return;
    busy = true;
    btn.classList.add("down");
    if (navigator.vibrate) navigator.vibrate(35);
    setTimeout(() => { busy = false; btn.classList.remove("down"); }, 300);
    try {
      const res = await ctx.call("POST", "slap", {});
      if (res && res.events) onEvents(res.events, ctx);
    } catch (e) {
      ctx.toast(e.message, "error");
    }
  }

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    const btn = el("button", { id: "qz-buzz", class: "qz-buzz", type: "button" },
      el("span", { class: "qz-buzz-word", id: "qz-buzz-word", text: t("BUZZ!") }),
      el("small", { class: "qz-buzz-sub", id: "qz-buzz-sub" }));
    btn.addEventListener("pointerdown", (ev) => { if (ev.button === 0 || ev.pointerType !== "mouse") { ev.preventDefault(); buzz(); } });
    btn.addEventListener("keydown", (ev) => { if ((ev.key === " " || ev.key === "Enter") && !ev.repeat) { ev.preventDefault(); buzz(); } });
    btn.addEventListener("contextmenu", (ev) => ev.preventDefault());
    root.append(
      el("section", { class: "card qz-state", id: "qz-state", "aria-live": "polite" }),
      el("div", { class: "qz-buzz-box", id: "qz-buzz-box", hidden: true }, btn),
      el("section", { class: "card qz-host", id: "qz-host", hidden: true }),
      el("section", { class: "card" }, el("h2", { text: t("Scores") }), el("ol", { id: "qz-scores", class: "totals qz-scores" })),
      el("section", { class: "card" }, el("h2", { text: t("Press order") }), el("div", { id: "qz-order" })),
      el("section", { class: "card" }, el("h2", { text: t("Earlier questions") }), el("div", { id: "qz-history" })),
    );
  }

  function update(view, c) {
    ctx = c;
    const pub = view.public;
    renderState(pub);
    renderBuzz(pub);
    renderHost(pub);
    renderScores(pub);
    renderOrder(pub);
    renderHistory(pub);
  }

  function renderState(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#qz-state");
    let head, cls;
    if (pub.ended) {
      const o = pub.outcome || { winners: [] };
      head = t("Quiz over: {names} won.", { names: TC.names(o.winners.map(name)) }); cls = "over";
    } else if (pub.phase === "locked") {
      head = pub.floor === ctx.seat ? t("You have the floor: answer!") : t("{name} has the floor", { name: name(pub.floor) });
      cls = "locked";
    } else if (pub.phase === "tie") {
      head = t("Tie: {names}. The host picks who answers.", { names: TC.names(pub.tied.map(name)) }); cls = "tie";
    } else if (pub.phase === "closed") {
      head = t("Question closed."); cls = "closed";
    } else {
      head = pub.locked_out.length ? t("Wrong! Open again for the rest: buzz!") : t("Open: buzz when you know!"); cls = "open";
    }
    box.className = "card qz-state ph-" + cls + (pub.phase === "locked" && pub.floor === ctx.seat ? " mine" : "");
    box.dataset.phase = pub.phase;
    box.replaceChildren(
      el("p", { class: "qz-q muted", text: t("Question {n}", { n: pub.question }) }),
      el("p", { class: "qz-head", id: "qz-head", text: head }),
      pub.locked_out.length && !pub.ended && pub.phase !== "closed"
        ? el("p", { class: "muted", id: "qz-locked", text: t("Already answered: {names}", { names: TC.list(pub.locked_out.map(name)) }) }) : "");
    const key = pub.question + ":" + pub.phase + ":" + pub.floor;
    if (flashed !== key) { flashed = key; box.classList.remove("flash"); void box.offsetWidth; box.classList.add("flash"); }
  }

  function renderBuzz(pub) {
    const { t } = ctx;
    const box = root.querySelector("#qz-buzz-box");
    box.hidden = ctx.seat === null;
    if (box.hidden) return;
    const btn = root.querySelector("#qz-buzz");
    const me = ctx.seat;
    let word = t("BUZZ!"), sub = t("First press takes the floor."), state = "open";
    if (pub.ended) { word = t("Quiz over"); sub = ""; state = "off"; }
    else if (pub.phase === "locked" && pub.floor === me) { word = t("Your answer!"); sub = t("You have the floor."); state = "mine"; }
    else if (pub.phase === "locked") { word = t("Locked"); sub = t("{name} has the floor", { name: name(pub.floor) }); state = "off"; }
    else if (pub.phase === "tie") { word = t("Tie"); sub = t("The host picks who answers."); state = "off"; }
    else if (pub.phase === "closed") { word = t("Wait"); sub = t("Next question soon."); state = "off"; }
    else if (pub.locked_out.includes(me)) { word = t("Locked out"); sub = t("You already answered this one."); state = "off"; }
    btn.disabled = state !== "open";
    btn.dataset.state = state;
    btn.className = "qz-buzz st-" + state;
    root.querySelector("#qz-buzz-word").textContent = word;
    root.querySelector("#qz-buzz-sub").textContent = sub;
  }

  function renderHost(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#qz-host");
    box.hidden = !ctx.isHost;
    if (!ctx.isHost) return;
    if (box.contains(document.activeElement) && document.activeElement.tagName === "SELECT") return;
    const parts = [el("h2", { text: t("Host controls") })];
    if (!pub.ended && pub.phase === "locked") {
      const floor = pub.floor;
      parts.push(el("p", { class: "qz-host-who", text: t("{name} answers:", { name: name(pub.floor) }) }),
        el("div", { class: "qz-marks" },
          el("button", { class: "btn qz-right", id: "qz-right", type: "button", onclick: () => send({ type: "mark", right: true, seat: floor }).catch(() => {}) },
            "✓ ", t("Right")),
          el("button", { class: "btn qz-wrong", id: "qz-wrong", type: "button", onclick: () => send({ type: "mark", right: false, seat: floor }).catch(() => {}) },
            "✗ ", t("Wrong"))));
    }
    if (!pub.ended && pub.phase === "tie") {
      parts.push(el("div", { class: "stack", id: "qz-tie" }, pub.tied.map((s) => el("button", {
        class: "btn primary wide", type: "button", "data-seat": s, onclick: () => send({ type: "pick", seat: s }).catch(() => {}),
        text: t("{name} answers", { name: name(s) }) }))));
    }
    if (!pub.ended) {
      parts.push(el("button", { class: "btn wide " + (pub.phase === "closed" ? "primary" : ""), id: "qz-next", type: "button",
        onclick: () => send({ type: "next" }).catch(() => {}), text: t("Next question") }));
      if (pub.phase !== "closed") {
        const sel = el("select", { id: "qz-pick-seat", "aria-label": t("Give the floor to") },
          pub.players.map((n, i) => el("option", { value: i, text: n })));
        parts.push(el("div", { class: "row qz-pick" }, sel,
          el("button", { class: "btn", type: "button", onclick: () => send({ type: "pick", seat: Number(sel.value) }).catch(() => {}),
            text: t("Give the floor") })));
      }
    }
    parts.push(el("details", { class: "qz-adjust" }, el("summary", { class: "btn wide", text: t("Adjust the scores") }),
      el("div", { class: "stack" }, pub.players.map((n, i) => el("div", { class: "row" },
        el("span", { class: "grow", text: n + " · " + pub.scores[i] }),
        el("button", { class: "btn sign", type: "button", "aria-label": t("Take a point from {name}", { name: n }),
          onclick: () => send({ type: "adjust", seat: i, points: -1 }).catch(() => {}) }, "−1"),
        el("button", { class: "btn sign", type: "button", "aria-label": t("Give {name} a point", { name: n }),
          onclick: () => send({ type: "adjust", seat: i, points: 1 }).catch(() => {}) }, "+1"))))));
    if (!pub.ended) {
      parts.push(el("button", { class: "btn wide qz-end", type: "button", id: "qz-end", text: t("End the quiz"), onclick: async () => {
        if (!confirm(t("End the quiz now?"))) return;
        try { await ctx.act({ type: "end_game" }); } catch (e) { /* toasted */ }
      } }));
    }
    const wasOpen = box.querySelector(".qz-adjust") && box.querySelector(".qz-adjust").open;
    box.replaceChildren(...parts);
    if (wasOpen) box.querySelector(".qz-adjust").open = true;
  }

  function renderScores(pub) {
    const { el, t } = ctx;
    const list = root.querySelector("#qz-scores");
    const best = Math.max(...pub.scores);
    list.replaceChildren(...pub.players.map((n, i) => el("li", {
      class: (best > 0 && pub.scores[i] === best ? "lead" : "") + (i === pub.floor && pub.phase === "locked" ? " floor" : "")
        + (pub.locked_out.includes(i) && pub.phase !== "closed" ? " out" : "") },
      el("span", { class: "grow" }, n, i === ctx.seat ? el("span", { class: "muted", text: " · " + t("you") }) : null,
        i === pub.floor && pub.phase === "locked" ? el("span", { class: "qz-mic", text: " " + t("answering") }) : null),
      el("strong", { class: "total qz-score", "data-seat": i, text: pub.scores[i] }))));
  }

  function orderList(order, answered) {
    const { el, t } = ctx;
    if (!order || !order.length) return el("p", { class: "muted", text: t("Nobody has pressed yet.") });
    // (a gap across a reopening is no gap: the next race began after a wrong answer)
    const same = (i) => (order[i].race || 0) === (order[i - 1].race || 0);
    const pairs = order.slice(1).map((b, i) => [order[i], b, i + 1]).filter(([, , i]) => same(i));
    const sentence = pairs.length ? TC.clauses(pairs.map(([a, b]) => t("{a} by {gap} over {b}",
      { a: name(a.seat), gap: gap(b.gap_ns), b: name(b.seat) }))) : null;
    return el("div", {},
      sentence ? el("p", { class: "qz-sentence", text: sentence }) : null,
      el("ol", { class: "qz-order" }, order.map((e, i) => el("li", { "data-seat": e.seat },
        el("span", { class: "grow", text: name(e.seat) }),
        el("span", { class: "qz-gap", text: i === 0 ? t("first") : same(i) ? "+" + gap(e.gap_ns) : t("after a wrong answer") }),
        answered && answered.includes(e.seat) ? el("span", { class: "qz-tag", text: t("answered") }) : null))));
  }

  function renderOrder(pub) {
    root.querySelector("#qz-order").replaceChildren(orderList(pub.order, pub.locked_out));
  }

  function renderHistory(pub) {
    const { el, t } = ctx;
    const box = root.querySelector("#qz-history");
    const hist = (pub.history || []).slice().reverse();
    box.parentElement.hidden = !hist.length;
    box.replaceChildren(...hist.map((h) => el("details", { class: "qz-past" },
      el("summary", {}, t("Question {n}", { n: h.question }), " · ",
        h.answered.length ? t("answered: {names}", { names: TC.list(h.answered.map(name)) }) : t("nobody answered")),
      orderList(h.order, h.answered))));
  }

  /* The acting phone hears its events twice (the reply, then the stream): feel them once. */
  const recent = new Map();
  function seenJustNow(e) {
    const key = JSON.stringify(e), now = Date.now();
    for (const [k, t0] of recent) if (now - t0 > 2000) recent.delete(k);
    if (recent.has(key)) return true;
    recent.set(key, now);
    return false;
  }

  function onEvents(events, c) {
    ctx = c;
    for (const e of events) {
      if (seenJustNow(e)) continue;
      if (e.type === "verdict" && e.kind === "lock" && e.seat === ctx.seat && navigator.vibrate) navigator.vibrate([60, 40, 60]);
      if (e.type === "verdict" && e.kind === "answer") {
        const who = name(e.seat);
        const pts = e.points > 0 ? "+" + e.points : String(e.points);
        const msg = e.right
          ? (e.points ? ctx.t("{name}: right! ({points})", { name: who, points: pts }) : ctx.t("{name}: right!", { name: who }))
          : (e.points ? ctx.t("{name}: wrong. ({points})", { name: who, points: pts }) : ctx.t("{name}: wrong.", { name: who }));
        ctx.toast(msg, e.right ? "" : "error");
      }
    }
  }

  function describe(entry, c) {
    const t = c.t, b = entry.body;
    const pl = c.view.public.players;
    const nm = (s) => (pl[s] !== undefined ? pl[s] : "?");
    if (entry.kind === "undo") return t("undid #{n}", { n: b.undo });
    switch (b.type) {
      case "buzz": return t("buzzed: {names}", { names: TC.list(b.presses ? b.presses.map((p) => nm(p.seat)) : [nm(b.seat)]) });
      case "mark": return b.right ? t("marked the answer right") : t("marked the answer wrong");
      case "pick": return t("gave the floor to {name}", { name: nm(b.seat) });
      case "next": return t("opened the next question");
      case "adjust": return t("adjusted {name}'s score by {points}", { name: nm(b.seat), points: b.points });
      case "end_game": return t("ended the quiz");
      default: return b.type;
    }
  }

  TC.registerGame("quiz", { mount, update, onEvents, describe });
})();
