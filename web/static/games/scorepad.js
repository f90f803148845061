/* Score pad on the phone: totals, a round entry form, the rounds (editable by the host),
   and a chart of the running totals drawn as SVG (no chart library, no CDN). */
(function () {
  "use strict";
  const COLOURS = ["#ff6b6b", "#4dabf7", "#ffd43b", "#51cf66", "#cc5de8", "#ff922b", "#22b8cf", "#f06595",
    "#94d82d", "#845ef7", "#fab005", "#20c997"];
  let root, ctx, editing = null;

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    root.append(
      el("section", { class: "card" }, el("div", { id: "sp-result" }), el("ol", { id: "sp-totals", class: "totals" })),
      el("section", { class: "card", id: "sp-entry" },
        el("h2", { id: "sp-entry-title", text: t("Add a round") }),
        el("form", { id: "sp-form", class: "stack", novalidate: true },
          el("div", { id: "sp-inputs" }),
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
  }

  function buildInputs(players, values) {
    const { el, t } = ctx;
    const box = root.querySelector("#sp-inputs");
    box.textContent = "";
    players.forEach((name, i) => {
      const v = values ? values[i] : "";
      box.append(el("div", { class: "row score-row" },
        el("label", { for: "sp-in-" + i, class: "grow", text: name }),
        el("button", { type: "button", class: "btn sign", "aria-label": t("Make negative"),
          onclick: () => { const inp = box.querySelector("#sp-in-" + i); inp.value = inp.value.startsWith("-") ? inp.value.slice(1) : "-" + inp.value; } }, "±"),
        el("input", { id: "sp-in-" + i, class: "score", inputmode: "numeric", pattern: "-?[0-9]*", autocomplete: "off",
          value: v === "" ? "" : String(v), placeholder: "0", "data-seat": i })));
    });
  }

  async function submit(ev) {
    ev.preventDefault();
    const inputs = [...root.querySelectorAll("#sp-inputs input")];
    const scores = [];
    for (const inp of inputs) {
      const s = inp.value.trim() === "" ? "0" : inp.value.trim();
      if (!/^-?\d+$/.test(s)) { ctx.toast(ctx.t("Scores must be whole numbers."), "error"); inp.focus(); return; }
      scores.push(parseInt(s, 10));
    }
    const action = editing === null ? { type: "add_round", scores } : { type: "edit_round", round: editing, scores };
    try {
      await ctx.act(action);
      ctx.toast(editing === null ? ctx.t("Round saved.") : ctx.t("Round corrected."));
      stopEdit(true);
    } catch (e) { /* the toast already says why */ }
  }

  function startEdit(i) {
    editing = i;
    const pub = ctx.view.public;
    root.querySelector("#sp-entry-title").textContent = ctx.t("Correct round {n}", { n: i + 1 });
    root.querySelector("#sp-cancel").hidden = false;
    buildInputs(pub.players, pub.rounds[i]);
    root.querySelector("#sp-entry").hidden = false;
    root.querySelector("#sp-entry").scrollIntoView({ behavior: "smooth" });
  }

  function stopEdit(clear) {
    editing = null;
    root.querySelector("#sp-entry-title").textContent = ctx.t("Add a round");
    root.querySelector("#sp-cancel").hidden = true;
    if (clear !== false) buildInputs(ctx.view.public.players);
    update(ctx.view, ctx);
  }

  function update(view, c) {
    ctx = c;
    const { el, t } = ctx;
    const pub = view.public;
    const lowest = pub.options && pub.options.winner === "lowest";
    const best = pub.totals.length ? (lowest ? Math.min(...pub.totals) : Math.max(...pub.totals)) : 0;

    const totals = root.querySelector("#sp-totals");
    totals.textContent = "";
    pub.players.forEach((name, i) => totals.append(el("li", { class: pub.rounds.length && pub.totals[i] === best ? "lead" : "" },
      el("span", { class: "swatch", style: "background:" + COLOURS[i % COLOURS.length] }),
      el("span", { class: "grow", text: name }), el("strong", { class: "total", "data-seat": i, text: pub.totals[i] }))));

    const result = root.querySelector("#sp-result");
    result.textContent = "";
    if (pub.ended) {
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

    const rounds = root.querySelector("#sp-rounds");
    rounds.textContent = "";
    if (!pub.rounds.length) rounds.append(el("p", { class: "muted", text: t("No rounds yet.") }));
    else {
      const table = el("table", { class: "rounds" },
        el("thead", {}, el("tr", {}, el("th", { text: "#" }), pub.players.map((p) => el("th", { text: p })), ctx.isHost ? el("th") : null)));
      const tbody = el("tbody");
      pub.rounds.forEach((r, i) => tbody.append(el("tr", {}, el("td", { text: i + 1 }), r.map((s) => el("td", { text: s })),
        ctx.isHost ? el("td", {}, el("button", { class: "btn small", "data-round": i, onclick: () => startEdit(i), text: t("Edit") })) : null)));
      table.append(tbody);
      rounds.append(table);
    }
    root.querySelector("#sp-chart").replaceChildren(chart(pub));
    root.querySelector("#sp-end").hidden = !ctx.isHost || pub.ended;
  }

  function chart(pub) {
    const { el, t } = ctx;
    const W = 340, H = 200, P = 28;
    const series = pub.players.map((_, i) => [0, ...pub.history.map((row) => row[i])]);
    const all = series.flat();
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const n = Math.max(1, series[0] ? series[0].length - 1 : 1);
    const x = (k) => P + (k * (W - 2 * P)) / n;
    const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("Totals over the rounds"));
    const line = (x1, y1, x2, y2, cls) => { const l = document.createElementNS(NS, "line");
      Object.entries({ x1, y1, x2, y2, class: cls }).forEach(([k, v]) => l.setAttribute(k, v)); svg.append(l); };
    line(P, y(0), W - P, y(0), "axis");
    line(P, P, P, H - P, "axis");
    const label = (tx, ty, text, anchor) => { const e = document.createElementNS(NS, "text");
      e.setAttribute("x", tx); e.setAttribute("y", ty); e.setAttribute("text-anchor", anchor || "end"); e.setAttribute("class", "tick"); e.textContent = text; svg.append(e); };
    label(P - 4, y(hi) + 4, hi); label(P - 4, y(lo) + 4, lo);
    label(W - P, H - 8, t("round {n}", { n }), "end");
    series.forEach((pts, i) => {
      const pl = document.createElementNS(NS, "polyline");
      pl.setAttribute("points", pts.map((v, k) => x(k) + "," + y(v)).join(" "));
      pl.setAttribute("stroke", COLOURS[i % COLOURS.length]);
      pl.setAttribute("class", "series");
      svg.append(pl);
    });
    return svg;
  }

  function describe(entry, c) {
    const b = entry.body;
    if (entry.kind === "undo") return c.t("undid #{n}", { n: b.undo });
    if (b.type === "add_round") return c.t("added a round: {scores}", { scores: TC.list(b.scores || []) });
    if (b.type === "edit_round") return c.t("corrected round {n}: {scores}", { n: b.round + 1, scores: TC.list(b.scores || []) });
    if (b.type === "end_game") return c.t("ended the game");
    return b.type;
  }

  TC.registerGame("scorepad", { mount, update, describe });
})();
