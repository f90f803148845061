/* Camera setup on a phone: pick the table, drag the zones on a snapshot, save (host PIN). */
(async function () {
  "use strict";
  await TC.loadCatalog();
  const t = TC.t, el = TC.el;
  const sel = document.getElementById("cam-table");
  const stage = document.getElementById("cam-stage");
  const shot = document.getElementById("cam-shot");
  let zones = [];

  function pinFor(id) { return TC.store.get("tc.pin." + id); }
  // The host's PIN for a table, asked the first time it is needed: the camera may already
  // watch the table when the page opens (it follows the latest camera game), so choosing
  // the table is not the only moment to ask. Kept at once; forgotten if the server refuses.
  function hostPin(id) {
    let pin = pinFor(id);
    if (!pin) {
      pin = prompt(t("Host PIN"));
      if (pin) TC.store.set("tc.pin." + id, pin);
    }
    return pin;
  }
  function refused(id, e) {
    if (e.status === 403) TC.store.del("tc.pin." + id);
    TC.toast(e.message, "error");
  }

  async function status() {
    try {
      const s = await TC.api("GET", "/api/camera");
      document.getElementById("cam-status").textContent = s.running ?
        t("Camera: {source}", { source: s.source }) : t("The camera is not running.");
      document.getElementById("cam-colourless").hidden = !s.colourless;
      // what to fix in the picture (too dark, blown out, blurred, cards too small)
      document.querySelectorAll("[data-view-hint]").forEach((p) => {
        p.hidden = !(s.view || []).includes(p.dataset.viewHint);
      });
      if (s.table && !sel.value) sel.value = s.table;
    } catch (e) { document.getElementById("cam-status").textContent = e.message; }
  }

  let tries = 0;
  function refresh() { tries = 0; shot.src = "/camera/snapshot.jpg?t=" + Date.now(); }
  shot.onload = status;  // a frame is there now: what the camera shows (no colour?) is known
  shot.onerror = () => {  // the camera may still be starting: try again a few times
    if (++tries <= 5) setTimeout(() => { shot.src = "/camera/snapshot.jpg?t=" + Date.now(); }, 1000);
  };

  function draw() {
    stage.querySelectorAll(".zone").forEach((n) => n.remove());
    zones.forEach((z, i) => {
      const [x0, y0, x1, y1] = z.rect;
      const box = el("div", { class: "zone", style: `left:${x0 * 100}%;top:${y0 * 100}%;width:${(x1 - x0) * 100}%;height:${(y1 - y0) * 100}%` },
        el("input", { class: "zone-name", value: z.name, "aria-label": t("Zone name"),
          onchange: (e) => { zones[i].name = e.target.value.trim(); } }),
        el("span", { class: "zone-handle", "aria-hidden": "true" }));
      drag(box, i);
      stage.append(box);
    });
  }

  function drag(box, i) {
    box.addEventListener("pointerdown", (ev) => {
      if (ev.target.tagName === "INPUT") return;
      const resize = ev.target.classList.contains("zone-handle");
      const r = stage.getBoundingClientRect();
      const start = zones[i].rect.slice(), sx = ev.clientX, sy = ev.clientY;
      box.setPointerCapture(ev.pointerId);
      const move = (e) => {
        const dx = (e.clientX - sx) / r.width, dy = (e.clientY - sy) / r.height;
        let [x0, y0, x1, y1] = start;
        if (resize) { x1 = Math.min(1, Math.max(x0 + 0.05, x1 + dx)); y1 = Math.min(1, Math.max(y0 + 0.05, y1 + dy)); }
        else {
          const w = x1 - x0, h = y1 - y0;
          x0 = Math.min(1 - w, Math.max(0, x0 + dx)); y0 = Math.min(1 - h, Math.max(0, y0 + dy));
          x1 = x0 + w; y1 = y0 + h;
        }
        zones[i].rect = [x0, y0, x1, y1].map((v) => Math.round(v * 1000) / 1000);
        box.style.cssText = `left:${zones[i].rect[0] * 100}%;top:${zones[i].rect[1] * 100}%;width:${(zones[i].rect[2] - zones[i].rect[0]) * 100}%;height:${(zones[i].rect[3] - zones[i].rect[1]) * 100}%`;
      };
      const up = () => { box.removeEventListener("pointermove", move); box.removeEventListener("pointerup", up); };
      box.addEventListener("pointermove", move);
      box.addEventListener("pointerup", up);
    });
  }

  async function loadZones() {
    if (!sel.value) { zones = []; draw(); return; }
    try { zones = (await TC.api("GET", "/api/tables/" + sel.value + "/zones")).zones; draw(); }
    catch (e) { TC.toast(e.message, "error"); }
  }

  sel.onchange = async () => {
    if (!sel.value) return;
    const id = sel.value;
    // (kept before the camera answers: starting it can take a second, and the host may
    // teach a card or save zones meanwhile)
    const pin = hostPin(id);
    if (!pin) return;
    try {
      await TC.api("POST", "/api/tables/" + id + "/camera", {}, { pin });
      TC.toast(t("The camera now watches this table."));
    } catch (e) { refused(id, e); }
    loadZones(); status();
  };
  document.getElementById("cam-refresh").onclick = refresh;
  document.getElementById("cam-add").onclick = () => {
    zones.push({ name: t("zone") + "-" + (zones.length + 1), rect: [0.35, 0.35, 0.65, 0.65] }); draw();
  };
  document.getElementById("cam-save").onclick = async () => {
    if (!sel.value) { TC.toast(t("Choose the table first."), "error"); return; }
    const id = sel.value, pin = hostPin(id);
    if (!pin) return;
    try {
      zones = (await TC.api("PUT", "/api/tables/" + id + "/zones", { zones }, { pin })).zones;
      draw(); TC.toast(t("Zones saved."));
    } catch (e) { refused(id, e); }
  };

  // teaching the table's own cards: the largest card in view, named by the host
  const teachList = document.getElementById("teach-list");
  const teachLabel = document.getElementById("teach-label");
  function showTaught(res) {
    const names = document.getElementById("teach-names");  // the deck's own spellings
    names.replaceChildren(...(res.names || []).map((n) => el("option", { value: n })));
    teachList.replaceChildren(...(Object.keys(res.cards).length ? Object.entries(res.cards).map(([card, n]) =>
      el("li", { class: "row" },
        el("span", { class: "grow" }, t("Photos of {card}: {count}", { card, count: n })),
        el("button", { class: "btn", onclick: () => forget(card) }, t("Forget")))) :
      [el("li", { class: "muted" }, t("Nothing taught yet."))]));
  }
  async function loadTaught() {
    if (!sel.value) { teachList.replaceChildren(); return; }
    try { showTaught(await TC.api("GET", "/api/tables/" + sel.value + "/camera/taught")); }
    catch (e) { TC.toast(e.message, "error"); }
  }
  async function forget(card) {
    const id = sel.value, pin = hostPin(id);
    if (!pin) return;
    try {
      showTaught(await TC.api("DELETE", "/api/tables/" + id + "/camera/taught/" + encodeURIComponent(card), undefined, { pin }));
    } catch (e) { refused(id, e); }
  }
  document.getElementById("teach-go").onclick = async () => {
    if (!sel.value) { TC.toast(t("Choose the table first."), "error"); return; }
    const id = sel.value, pin = hostPin(id);
    if (!pin) return;
    try {
      const res = await TC.api("POST", "/api/tables/" + id + "/camera/taught", { label: teachLabel.value }, { pin });
      TC.toast(t("Learned {card}. Photos of it: {count}.", { card: res.label, count: res.photos }));
      teachLabel.value = ""; showTaught(res); refresh();
    } catch (e) { refused(id, e); }
  };
  sel.addEventListener("change", loadTaught);

  await status(); refresh(); loadZones(); loadTaught();
  // the hints follow the picture while the host moves a lamp or turns the focus ring
  setInterval(() => { if (!document.hidden) status(); }, 2000);
})();
