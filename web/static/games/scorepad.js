/* Score pad on the phone: totals, a round entry form, the rounds (editable by the host),
   and a chart of the running totals drawn as SVG (no chart library, no CDN). */
(function () {
  "use strict";
  let root, ctx;
  let editing = null;   // the round (from 0) the host is correcting, or null: a new round
  let draft = null;     // a new round half typed when Edit was tapped: back after the correction
  let saving = false;   // this phone's round is on its way: the round it makes is no news
  let seen = 0;         // rounds this phone's form has known of (others' later ones are news)
  let news = null;      // { round } another phone saved while this form was being filled
  let noticeAsk = 0;    // (the latest notice wins over a slower one asked before it)

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    root.append(
      el("section", { class: "card" }, el("div", { id: "sp-result" }), el("ol", { id: "sp-totals", class: "totals" })),
      el("section", { class: "card", id: "sp-entry" },
        el("h2", { id: "sp-entry-title", text: t("Add a round") }),
        el("p", { id: "sp-notice", class: "alert", role: "status", "aria-live": "polite", hidden: true }),
        el("form", { id: "sp-form", class: "stack", novalidate: true },
          el("div", { id: "sp-inputs" }),
          el("p", { id: "sp-hint", class: "muted", text: t("A box left empty counts as 0.") }),
          el("div", { class: "row" },
            el("button", { class: "btn primary wide", id: "sp-save", type: "submit", text: t("Save the round") }),
            el("button", { class: "btn ghost", id: "sp-cancel", type: "button", hidden: true, text: t("Cancel"),
              onclick: () => stopEdit() })))),
      el("section", { class: "card" }, el("h2", { text: t("Totals over the rounds") }), el("div", { id: "sp-chart" })),
      el("section", { class: "card" }, el("h2", { text: t("Rounds") }), el("div", { id: "sp-rounds" })),
      // a pad with no target and no round count ends when the host says so
      el("button", { class: "btn wide", id: "sp-end", type: "button", hidden: true, text: t("End the game"),
        onclick: async () => {
          if (!confirm(t("End the game now?"))) return;
          try { await ctx.act({ type: "end_game" }); } catch (e) { /* toasted */ }
        } }),
    );
    root.querySelector("#sp-form").addEventListener("submit", submit);
    // (the chart is drawn at the width it is shown: again when the phone turns)
    let pending = false;
    window.addEventListener("resize", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; if (ctx.view) drawChart(ctx.view.public); });
    });
  }

  /* A typed score as a whole number, or null. What a phone's keyboard gives for one is
     taken too: full-width digits ("５", a Chinese keyboard's), "+5", a typographic minus. */
  function parseScore(text) {
    const s = String(text).normalize("NFKC").trim().replace(/[\u2212\u2012\u2013\u2014\uFE63]/g, "-");
    if (!/^[-+]?\d+$/.test(s)) return null;
    return parseInt(s, 10) || 0;  // (|| 0: "-0" is 0)
  }

  const inputsNow = () => [...root.querySelectorAll("#sp-inputs input")];
  const typed = () => inputsNow().some((inp) => inp.value.trim() !== "");

  function buildInputs(players, values) {
    const { el, t } = ctx;
    const box = root.querySelector("#sp-inputs");
    box.textContent = "";
    players.forEach((name, i) => {
      const v = values ? values[i] : "";
      box.append(el("div", { class: "row score-row" },
        el("label", { for: "sp-in-" + i, class: "grow", text: name }),
        el("button", { type: "button", class: "btn sign", "aria-label": t("Make negative"),
          onclick: () => {
            const inp = box.querySelector("#sp-in-" + i);
            const v = inp.value.trim().replace(/^\+/, "");
            inp.value = v.startsWith("-") ? v.slice(1) : "-" + v;
          } }, "±"),
        el("input", { id: "sp-in-" + i, class: "score", inputmode: "numeric", pattern: "[-+]?[0-9]*", autocomplete: "off",
          value: v === "" || v === undefined || v === null ? "" : String(v), placeholder: "0", "data-seat": i })));
    });
  }

  async function submit(ev) {
    ev.preventDefault();
    const { t } = ctx;
    const inputs = inputsNow();
    // (an empty form saved a round of zeros: with 3 rounds to play, three stray taps ended it)
    if (!inputs.some((inp) => inp.value.trim() !== "")) {
      ctx.toast(t("Enter the round's scores first."), "error");
      if (inputs[0]) inputs[0].focus();
      return;
    }
    const scores = [];
    for (const inp of inputs) {
      const s = inp.value.trim() === "" ? 0 : parseScore(inp.value);
      if (s === null) { ctx.toast(t("Scores must be whole numbers."), "error"); inp.focus(); return; }
      scores.push(s);
    }
    const round = editing;
    // the very round another phone has just saved (the notice above says so): not twice
    if (round === null && sameAsNews(scores)) { alreadySaved(); return; }
    const action = round === null ? { type: "add_round", scores } : { type: "edit_round", round, scores };
    const before = ctx.view.public.rounds.length;
    const sent = inputs.map((inp) => inp.value);
    saving = true;
    try {
      await ctx.act(action);
    } catch (e) {
      saving = false;
      // (the toast says why; a round another phone saved meanwhile is told in the form: the
      // refusal brought the table as it is now)
      if (e && e.code === "stale_version" && round === null && editing === null && ctx.view) {
        checkNews();
        if (sameAsNews(scores)) alreadySaved();
      }
      return;
    }
    saving = false;
    if (round === null) {
      ctx.toast(t("Round saved."));
      // (only what was saved is cleared: the live stream may bring the new totals before this
      // answer, and a player who began the next round then would have lost it)
      buildInputs(ctx.view.public.players, inputsNow().map((inp, i) => (inp.value === sent[i] ? "" : inp.value)));
      forgetNews();
      // (this phone's own round, when the live stream brings it, is no news)
      seen = Math.max(seen, before + 1);
    } else {
      ctx.toast(t("Round corrected."));
      if (editing === round) stopEdit();
    }
  }

  /* ---- another phone's round, while this one was being typed ---- */
  // Two phones at one sheet typed the same round; the second was refused as stale, kept
  // its scores, and its next tap on Save added the round twice. A round another phone adds
  // while this form has scores typed is said in the form: whose phone, which round, its
  // scores; the same scores saved again are refused here, and the form cleared.

  function showNotice(text) {
    const box = root.querySelector("#sp-notice");
    box.textContent = text;
    box.hidden = !text;
  }

  function forgetNews() {
    news = null;
    noticeAsk++;
    seen = ctx.view ? ctx.view.public.rounds.length : 0;
    showNotice("");
  }

  function sameAsNews(scores) {
    if (news === null || news.same) return false;
    const r = ctx.view.public.rounds[news.round];
    return !!r && r.length === scores.length && r.every((s, i) => s === scores[i]);
  }

  function checkNews() {
    if (editing !== null || saving || !ctx.view) return;
    const n = ctx.view.public.rounds.length;
    let changed = false;
    if (news !== null && news.round >= n) { news = null; changed = true; }  // (undone since)
    if (n > seen) {
      if (typed()) { news = { round: n - 1, same: false }; changed = true; }
      seen = n;
    } else if (n < seen) seen = n;
    if (changed) {
      if (news) tellNews(news);
      else { noticeAsk++; showNotice(""); }
    }
  }

  function alreadySaved() {
    news = { round: news.round, same: true };
    buildInputs(ctx.view.public.players);
    seen = Math.max(seen, ctx.view.public.rounds.length);
    tellNews(news);
  }

  async function tellNews(item) {
    const { t } = ctx;
    const ask = ++noticeAsk;
    const scores = ctx.view.public.rounds[item.round] || [];
    const who = await whoSaved(item.round);
    if (ask !== noticeAsk) return;
    const params = { who, n: item.round + 1, scores: TC.list(scores) };
    showNotice(item.same
      ? t("{who} already saved these scores as round {n} ({scores}): yours were not saved again. If it is another round, enter it again.", params)
      : t("{who} just saved round {n} ({scores}). Save yours only if it is another round.", params));
  }

  /* Whose phone added the round (from 0): the table's history says, the k-th round still
     in force being its k-th add_round not undone. */
  async function whoSaved(k) {
    const { t } = ctx;
    try {
      const res = await ctx.call("GET", "history");
      const added = res.history.filter((e) => e.kind !== "undo" && !e.undone && e.body && e.body.type === "add_round");
      const entry = added[k];
      if (entry && entry.actor) {
        if (entry.actor.host) return t("The host's phone");
        const name = ctx.view.public.players[entry.actor.seat];
        if (name !== undefined) return t("{name}'s phone", { name });
      }
    } catch (e) { /* said without the name */ }
    return t("Another phone");
  }

  /* ---- corrections (the host's) ---- */

  function startEdit(i) {
    if (editing === null) {
      // a new round half typed is kept for after the correction (Cancel had thrown it away)
      draft = typed() ? inputsNow().map((inp) => inp.value) : null;
    }
    editing = i;
    const pub = ctx.view.public;
    root.querySelector("#sp-entry-title").textContent = ctx.t("Correct round {n}", { n: i + 1 });
    root.querySelector("#sp-cancel").hidden = false;
    noticeAsk++;
    showNotice("");
    buildInputs(pub.players, pub.rounds[i]);
    root.querySelector("#sp-entry").hidden = false;
    root.querySelector("#sp-entry").scrollIntoView({ behavior: "smooth" });
  }

  function stopEdit(notice) {
    editing = null;
    root.querySelector("#sp-entry-title").textContent = ctx.t("Add a round");
    root.querySelector("#sp-cancel").hidden = true;
    buildInputs(ctx.view.public.players, draft);
    draft = null;
    update(ctx.view, ctx);
    if (notice) { noticeAsk++; showNotice(notice); } else if (news) tellNews(news);
  }

  function update(view, c) {
    ctx = c;
    const { el, t } = ctx;
    const pub = view.public;
    const lowest = pub.options && pub.options.winner === "lowest";
    const best = pub.totals.length ? (lowest ? Math.min(...pub.totals) : Math.max(...pub.totals)) : 0;

    // the round being corrected is gone (the host undid it): the form says so and closes,
    // where it had offered "Correct round 3" and answered "There is no round 2."
    if (editing !== null && editing >= pub.rounds.length) {
      const gone = editing + 1;
      stopEdit(t("Round {n} was undone: there is nothing to correct.", { n: gone }));
      return;
    }

    const totals = root.querySelector("#sp-totals");
    totals.textContent = "";
    pub.players.forEach((name, i) => totals.append(el("li", { class: pub.rounds.length && pub.totals[i] === best ? "lead" : "" },
      el("span", { class: "swatch", style: "background:" + TC.chartColour(i) }),
      el("span", { class: "grow", text: name }), el("strong", { class: "total", "data-seat": i, text: pub.totals[i] }))));

    const result = root.querySelector("#sp-result");
    result.textContent = "";
    if (pub.ended && !pub.rounds.length) {
      // (ended by the host before any round: all at 0 is no shared win)
      result.append(el("p", { class: "banner", text: t("Game over: no rounds were played.") }));
    } else if (pub.ended) {
      const winners = pub.players.filter((_, i) => pub.totals[i] === best);
      result.append(el("p", { class: "banner", text: t("Game over: {names} won.", { names: TC.names(winners) }) }));
    } else {
      const bits = [];
      if (pub.options.target !== null && pub.options.target !== undefined) bits.push(t("to {n} points", { n: pub.options.target }));
      if (pub.options.rounds) bits.push(t("{n} rounds", { n: pub.options.rounds }));
      bits.push(lowest ? t("lowest wins") : t("highest wins"));
      result.append(el("p", { class: "muted", text: bits.join(" · ") }));
    }

    const canEnter = (ctx.seat !== null || ctx.isHost) && (!pub.ended || editing !== null);
    const entry = root.querySelector("#sp-entry");
    entry.hidden = !canEnter;
    const inputs = root.querySelector("#sp-inputs");
    if (canEnter && inputs.children.length !== pub.players.length) buildInputs(pub.players);
    checkNews();

    const rounds = root.querySelector("#sp-rounds");
    const left = (rounds.querySelector(".rounds-scroll") || {}).scrollLeft;
    rounds.textContent = "";
    if (!pub.rounds.length) rounds.append(el("p", { class: "muted", text: t("No rounds yet.") }));
    else {
      // numbers whole on one line; the table scrolls sideways in its card where it must
      // (with 5 players at 360 px "2100" was "210/0"), the round and Edit kept in sight
      const name = (p) => el("th", { scope: "col", title: p }, el("span", { class: "name", text: p }));
      const table = el("table", { class: "rounds" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "no", text: "#" }), pub.players.map(name),
          ctx.isHost ? el("th", { class: "act" }, el("span", { class: "sr", text: t("Edit") })) : null)));
      const tbody = el("tbody");
      pub.rounds.forEach((r, i) => tbody.append(el("tr", {}, el("th", { scope: "row", class: "no", text: i + 1 }),
        r.map((s) => el("td", { class: "num", text: s })),
        ctx.isHost ? el("td", { class: "act" }, el("button", { class: "btn small", "data-round": i,
          "aria-label": t("Correct round {n}", { n: i + 1 }), onclick: () => startEdit(i), text: t("Edit") })) : null)));
      table.append(tbody);
      rounds.append(...TC.sideScroll(el("div", { class: "rounds-scroll", tabindex: "0", role: "region", "aria-label": t("Rounds") }, table), left));
    }
    drawChart(pub);
    root.querySelector("#sp-end").hidden = !ctx.isHost || pub.ended;
  }

  const totals = (pub) => pub.players.map((_, i) => [0, ...pub.history.map((row) => row[i])]);
  /* What the result's picture adds to the scores (app.js): the chart of the totals. */
  function share(view) { return { series: totals(view.public) }; }

  function drawChart(pub) {
    const box = root.querySelector("#sp-chart");
    const series = totals(pub);
    box.replaceChildren(...TC.chart({ series, names: pub.players, width: box.clientWidth,
      font: getComputedStyle(root).fontFamily }));
  }

  function describe(entry, c) {
    const b = entry.body;
    if (entry.kind === "undo") return c.t("undid #{n}", { n: b.undo });
    if (b.type === "add_round") return c.t("added a round: {scores}", { scores: TC.list(b.scores || []) });
    if (b.type === "edit_round") return c.t("corrected round {n}: {scores}", { n: b.round + 1, scores: TC.list(b.scores || []) });
    if (b.type === "end_game") return c.t("ended the game");
    return b.type;
  }

  TC.registerGame("scorepad", { mount, update, describe, share });
})();
