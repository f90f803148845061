/* The fallback for a game without a phone UI of its own: its public view, this phone's own
   view, and its actions (from /api/games) as buttons that open a prefilled form. */
(function () {
  "use strict";
  let root, ctx, specs = [];

  function mount(r, c) {
    root = r; ctx = c;
    const { el, t } = ctx;
    root.append(
      el("section", { class: "card" }, el("h2", { text: t("Table") }), el("div", { id: "g-public" })),
      el("section", { class: "card", id: "g-you-card" }, el("h2", { text: t("Only you see this") }), el("div", { id: "g-you" })),
      el("section", { class: "card", id: "g-actions-card" }, el("h2", { text: t("Actions") }), el("div", { id: "g-actions", class: "stack" })),
    );
    TC.api("GET", "/api/games").then(({ games }) => {
      const g = games.find((x) => x.id === document.getElementById("table").dataset.game);
      specs = g ? g.actions : [];
      renderActions();
    });
  }

  function show(value) {
    const { el } = ctx;
    if (value === null || value === undefined) return el("span", { class: "muted", text: "—" });
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v !== "object" || v === null)) return el("span", { text: TC.list(value.map(String)) });
      return el("ol", {}, value.map((v) => el("li", {}, show(v))));
    }
    if (typeof value === "object") {
      return el("dl", { class: "kv" }, Object.entries(value).flatMap(([k, v]) => [el("dt", { text: k.replace(/_/g, " ") }), el("dd", {}, show(v))]));
    }
    return el("span", { text: String(value) });
  }

  function renderActions() {
    const { el, t } = ctx;
    const box = root.querySelector("#g-actions");
    box.textContent = "";
    const canAct = ctx.seat !== null || ctx.isHost;
    root.querySelector("#g-actions-card").hidden = !canAct;
    for (const spec of specs) {
      if (spec.host_only && !ctx.isHost) continue;
      const area = el("textarea", { rows: 3, class: "json", "aria-label": spec.type }, JSON.stringify(spec.example));
      const form = el("form", { class: "stack action-form", hidden: true },
        el("p", { class: "muted", text: t(spec.summary) }), area,
        el("button", { class: "btn primary", type: "submit", text: t("Send") }));
      form.onsubmit = async (ev) => {
        ev.preventDefault();
        let action;
        try { action = JSON.parse(area.value); } catch (e) { ctx.toast(t("That is not valid JSON."), "error"); return; }
        try { await ctx.act(action); form.hidden = true; } catch (e) { /* toast shown */ }
      };
      box.append(el("button", { class: "btn", type: "button", onclick: () => (form.hidden = !form.hidden), text: spec.type.replace(/_/g, " ") }), form);
    }
  }

  function update(view, c) {
    ctx = c;
    root.querySelector("#g-public").replaceChildren(show(view.public));
    const you = view.you ? view.you.view : null;
    root.querySelector("#g-you-card").hidden = !you;
    if (you) root.querySelector("#g-you").replaceChildren(show(you));
    if (specs.length) renderActions();
  }

  function onEvents(events, c) {
    for (const e of events) {
      if (e.to && navigator.vibrate) navigator.vibrate(200);
      if (e.text) c.toast(e.text);
    }
  }

  TC.registerGame(document.getElementById("table").dataset.game, { mount, update, onEvents });
})();
