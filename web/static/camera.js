/* Camera setup on a phone: pick the table, drag the zones on a snapshot (or the live view),
   save (host PIN), set them from printed markers, teach the table's own cards.

   The page shows one table at a time: the one in the dropdown, whose zones and taught cards
   are listed, and which every button acts on. Choosing another table is one step: asked the
   host's PIN, the camera is pointed at it; cancelled or refused, the dropdown, the zones and
   the taught cards all go back to the table the camera watches. */
(async function () {
  "use strict";
  // A table chosen before the page is ready (its language's words still coming over a slow
  // link) is kept and acted on at the start, not lost with no handler to hear it.
  const $ = (id) => document.getElementById(id);
  const sel = $("cam-table");
  let early = null;
  const keep = () => { early = sel.value; };
  sel.addEventListener("change", keep);
  await TC.loadCatalog();
  const t = TC.t, el = TC.el;
  const stage = $("cam-stage");
  const shot = $("cam-shot");
  const zoneList = $("zone-list");

  let shown = null;        // the table the page shows (the dropdown's), or null
  let switching = 0;       // a table chosen, its camera answer not in yet
  let epoch = 0;           // counts the starts and ends of those choices
  let zones = [];          // the zones shown, of zonesFor
  let zonesFor = null;     // the table those zones were loaded for (null: loading)
  let zonesLoad = Promise.resolve();
  let gameZones = null;    // the names the game reacts to ([]: any name; null: not said)
  let zoneLabels = {};     // name -> what people call it (a player's name)
  let dirty = false;       // zones changed on the page and not saved
  let deck = null;         // the shown table's camera deck (for card names)
  let camOn = null;        // the camera runs (true), there is none (false), not known (null)
  let live = false;        // the live view is shown instead of the snapshot

  /* ---- the host's PIN, per table ---- */
  function pinFor(id) { return TC.store.get("tc.pin." + id); }
  function titleOf(id) {
    const o = [...sel.options].find((x) => x.value === id);
    return o ? o.textContent.trim() : id;
  }
  // Asked on the page the first time it is needed (the camera may already watch the table
  // when the page opens), checked, then kept; forgotten if the server refuses it. A promise:
  // the PIN, or "" where the host cancels. (It was a browser prompt.)
  const pinForm = $("cam-pin"), pinInput = $("cam-pin-input");
  let pinAsk = null;  // { id, resolve } while the form asks
  function hostPin(id) {
    const known = pinFor(id);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      if (pinAsk) pinAsk.resolve("");
      pinAsk = { id, resolve };
      $("cam-pin-ask").textContent = t("Host PIN for {table}", { table: titleOf(id) });
      pinForm.hidden = false;
      pinInput.value = "";
      pinForm.scrollIntoView({ block: "nearest" });
      pinInput.focus({ preventScroll: true });
    });
  }
  function pinDone(pin) {
    const ask = pinAsk;
    pinAsk = null;
    pinForm.hidden = true;
    hostState();
    if (ask) ask.resolve(pin);
  }
  pinForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const ask = pinAsk, pin = pinInput.value.trim();
    if (!ask || !pin) return;
    try {
      await TC.api("POST", "/api/tables/" + ask.id + "/host", {}, { pin });
    } catch (e) { TC.toast(e.message, "error"); pinInput.select(); return; }  // (asked again)
    if (pinAsk !== ask) return;
    TC.store.set("tc.pin." + ask.id, pin);
    pinDone(pin);
  });
  $("cam-pin-cancel").onclick = () => pinDone("");
  $("cam-unlock").onclick = () => { if (shown) hostPin(shown); };
  /* The host's controls (save, markers, restart, teach, pause) only where this phone holds
     the shown table's PIN; anyone else sees the picture and the zones. */
  function hostState() {
    const host = !!(shown && pinFor(shown));
    document.body.classList.toggle("cam-host", host);
    $("cam-unlock").hidden = !shown || host || camOn === false || !!pinAsk;
  }
  function refused(id, e) {
    if (e.status === 403) { TC.store.del("tc.pin." + id); hostState(); }
    TC.toast(e.message, "error");
  }
  function hasOption(id) { return [...sel.options].some((o) => o.value === id); }

  /* ---- the camera's state ---- */
  function sourceText(s) {
    let kind = s.kind;
    if (!kind) {  // an older companion: guess from the source's name
      const src = String(s.source || "");
      kind = /replay/i.test(src) ? "replay" : /picam/i.test(src) ? "picamera2" :
        /opencv|webcam/i.test(src) ? "webcam" : null;
    }
    switch (kind) {
      case "picamera2": return t("Camera: Raspberry Pi camera");
      case "webcam": return t("Camera: webcam");
      case "video": return t("Camera: a video file");
      case "replay":  // (the host's own photos or video, set as replay:<folder>, or the samples)
        return !s.fallback && /^replay:./.test(s.wanted || "") ?
          t("Camera: a replay of {folder}", { folder: s.wanted.slice(7) }) :
          t("Camera: sample photos (no camera)");
    }
    return s.source ? t("Camera: {source}", { source: s.source }) : "";
  }

  function cameraOff(off, message) {
    camOn = !off;
    $("cam-off").hidden = !off;
    hostState();
    if (message && off) $("cam-off").querySelector("strong").textContent = message;
    for (const id of ["cam-zones-card", "cam-teach-card", "cam-choose", "cam-hints"]) $(id).hidden = off;
    if (off) {
      $("cam-status").textContent = "";
      $("cam-lost").hidden = true; $("cam-fallback").hidden = true;
      stopLive();
      shot.removeAttribute("src");
    }
  }

  async function status() {
    const asked = epoch;
    let s;
    try { s = await TC.api("GET", "/api/camera"); }
    catch (e) {
      if (e.code === "no_camera") cameraOff(true, e.message);
      else $("cam-status").textContent = e.message;
      return null;
    }
    const wasOff = camOn !== true;
    cameraOff(false);
    $("cam-status").textContent = s.running ? sourceText(s) :
      t("The camera is not running.") + (s.error ? " (" + s.error + ")" : "");
    const fb = $("cam-fallback");
    fb.hidden = !s.fallback;
    if (s.fallback) {
      fb.textContent = s.wanted ?
        t("The camera {camera} did not start: these are sample photos, not your table.", { camera: s.wanted }) :
        t("The camera did not start: these are sample photos, not your table.");
    }
    $("cam-lost").hidden = !(s.running && s.lost === true);
    $("cam-restart").hidden = !shown;
    $("cam-colourless").hidden = !s.colourless;
    // what to fix in the picture (too dark, blown out, blurred, cards too small)
    document.querySelectorAll("[data-view-hint]").forEach((p) => {
      p.hidden = !(s.view || []).includes(p.dataset.viewHint);
    });
    // the camera watches another table now (chosen on another phone, or it follows the
    // latest camera game): the page follows, unless the host is editing zones here
    if (!switching && asked === epoch && !dirty && s.table && s.table !== shown && hasOption(s.table)) show(s.table);
    showPause(s);
    if (wasOff) refresh();
    return s;
  }

  /* ---- the picture: a snapshot, or the live view ---- */
  let tries = 0;
  function refresh() {
    if (camOn === false) return;
    tries = 0;
    if (!live) shot.src = "/camera/snapshot.jpg?t=" + Date.now();
  }
  shot.onload = () => { if (!live) status(); };  // a frame is there: what it shows is known
  shot.onerror = () => {
    if (live) return;
    // the camera may still be starting: try again a few times
    if (++tries <= 5 && camOn !== false) setTimeout(() => { if (!live) shot.src = "/camera/snapshot.jpg?t=" + Date.now(); }, 1000);
  };

  // The live view: the MJPEG preview read by fetch, each JPEG shown in the picture, so the
  // page knows when the stream ends (a camera restart ends it) and opens it again.
  const liveBtn = $("cam-live");
  let liveCtl = null, liveUrl = null;
  function indexOfMarker(buf, second, from) {
    for (let i = from; i < buf.length - 1; i++) if (buf[i] === 0xff && buf[i + 1] === second) return i;
    return -1;
  }
  function showFrame(jpeg) {
    const url = URL.createObjectURL(new Blob([jpeg], { type: "image/jpeg" }));
    const old = liveUrl;
    liveUrl = url;
    shot.src = url;
    if (old) setTimeout(() => URL.revokeObjectURL(old), 1000);
  }
  async function runLive() {
    while (live) {
      const ctl = new AbortController();
      liveCtl = ctl;
      try {
        const r = await fetch("/camera/preview.mjpg?t=" + Date.now(), { signal: ctl.signal, cache: "no-store" });
        if (!r.ok || !r.body) throw new Error("HTTP " + r.status);
        const reader = r.body.getReader();
        let buf = new Uint8Array(0);
        for (;;) {
          const { done, value } = await reader.read();
          if (done || !live) break;
          const joined = new Uint8Array(buf.length + value.length);
          joined.set(buf); joined.set(value, buf.length);
          buf = joined;
          let jpeg = null;  // every whole JPEG (FF D8 ... FF D9) taken out; the newest shown
          for (;;) {
            const s0 = indexOfMarker(buf, 0xd8, 0);
            if (s0 < 0) { buf = buf.slice(-1); break; }
            const e0 = indexOfMarker(buf, 0xd9, s0 + 2);
            if (e0 < 0) { buf = buf.slice(s0); break; }
            jpeg = buf.slice(s0, e0 + 2);
            buf = buf.slice(e0 + 2);
          }
          if (jpeg) showFrame(jpeg);
        }
      } catch (e) { /* stopped, or the camera is restarting */ }
      if (!live) return;
      await new Promise((ok) => setTimeout(ok, 1500));  // the stream ended: open it again
    }
  }
  function startLive() {
    if (live || camOn === false) return;
    live = true;
    liveBtn.textContent = t("Stop the live preview");
    liveBtn.setAttribute("aria-pressed", "true");
    $("cam-refresh").disabled = true;
    runLive();
  }
  function stopLive() {
    if (!live) return;
    live = false;
    if (liveCtl) liveCtl.abort();
    liveBtn.textContent = t("Live preview");
    liveBtn.setAttribute("aria-pressed", "false");
    $("cam-refresh").disabled = false;
    refresh();
  }
  liveBtn.onclick = () => (live ? stopLive() : startLive());
  $("cam-refresh").onclick = refresh;
  document.addEventListener("visibilitychange", () => { if (document.hidden) stopLive(); });

  /* ---- zones ---- */
  function labelOf(name) {
    if (zoneLabels[name]) return zoneLabels[name];
    const known = { discard: t("Discard"), hand: t("Hand"), "play-area": t("Play area") }[name];
    if (known) return known;
    const m = /^discard-(\d+)$/.exec(name);
    if (m) return t("Discard pile {n}", { n: Number(m[1]) + 1 });
    return name;
  }
  const freeNames = () => !gameZones || gameZones.length === 0;
  const ignored = (name) => !freeNames() && !gameZones.includes(name);
  const rectStyle = (r) => `left:${r[0] * 100}%;top:${r[1] * 100}%;width:${(r[2] - r[0]) * 100}%;height:${(r[3] - r[1]) * 100}%`;

  function draw() {
    stage.querySelectorAll(".zone").forEach((n) => n.remove());
    zones.forEach((z, i) => {
      const box = el("div", { class: "zone" + (ignored(z.name) ? " ignored" : ""), style: rectStyle(z.rect),
        "data-zone": z.name },
      el("span", { class: "zone-tag", text: labelOf(z.name) }),
      el("span", { class: "zone-handle", "aria-hidden": "true" }));
      drag(box, i);
      stage.append(box);
    });
    drawList();
  }

  function drawList() {
    const items = zones.map((z, i) => {
      const label = labelOf(z.name);
      const name = freeNames() ?
        el("input", { class: "grow", value: z.name, "aria-label": t("Zone name"), maxlength: 40,
          onchange: (e) => {
            const v = e.target.value.trim();
            if (v && !zones.some((o, j) => j !== i && o.name === v)) { zones[i].name = v; dirty = true; }
            draw();
          } }) :
        el("span", { class: "grow" }, el("strong", { text: (i + 1) + ". " + label }),
          ignored(z.name) ? el("small", { class: "warning", text: " · " + t("the game does not use it") }) : null);
      return el("li", { class: "row" }, name,
        el("button", { class: "btn sign", type: "button", "aria-label": t("Remove the zone {zone}", { zone: label }),
          title: t("Remove the zone {zone}", { zone: label }),
          onclick: () => { zones.splice(i, 1); dirty = true; draw(); } }, "✕"));
    });
    if (zonesFor !== null) {
      if (freeNames()) {
        items.push(el("li", { class: "row" }, el("button", { class: "btn", type: "button", id: "cam-add",
          onclick: () => addZone(freeName()) }, "+ " + t("Add a zone"))));
      } else {
        for (const name of gameZones.filter((n) => !zones.some((z) => z.name === n))) {
          items.push(el("li", { class: "row missing" },
            el("span", { class: "grow muted", text: labelOf(name) }),
            el("button", { class: "btn", type: "button", "data-add": name,
              "aria-label": t("Add the zone {zone}", { zone: labelOf(name) }),
              onclick: () => addZone(name) }, "+ " + t("Add"))));
        }
      }
    }
    zoneList.replaceChildren(...items);
  }

  function freeName() {
    for (let n = zones.length + 1; ; n++) {
      const name = t("zone") + "-" + n;
      if (!zones.some((z) => z.name === name)) return name;
    }
  }
  // A new zone where none starts yet: each one a step down and right of the last.
  function addZone(name) {
    const w = 0.3, h = 0.3;
    let k = 0, x0, y0;
    do {
      x0 = 0.1 + (k * 0.08) % 0.6; y0 = 0.1 + (k * 0.08) % 0.6;
      k++;
    } while (k < 40 && zones.some((z) => Math.abs(z.rect[0] - x0) < 0.04 && Math.abs(z.rect[1] - y0) < 0.04));
    const r = (v) => Math.round(v * 1000) / 1000;
    zones.push({ name, rect: [r(x0), r(y0), r(x0 + w), r(y0 + h)] });
    dirty = true;
    draw();
  }

  function drag(box, i) {
    box.addEventListener("pointerdown", (ev) => {
      const resize = ev.target.classList.contains("zone-handle");
      const r = stage.getBoundingClientRect();
      const start = zones[i].rect.slice(), sx = ev.clientX, sy = ev.clientY;
      box.setPointerCapture(ev.pointerId);
      box.classList.add("moving");
      const move = (e) => {
        const dx = (e.clientX - sx) / r.width, dy = (e.clientY - sy) / r.height;
        let [x0, y0, x1, y1] = start;
        if (resize) { x1 = Math.min(1, Math.max(x0 + 0.1, x1 + dx)); y1 = Math.min(1, Math.max(y0 + 0.1, y1 + dy)); }
        else {
          const w = x1 - x0, h = y1 - y0;
          x0 = Math.min(1 - w, Math.max(0, x0 + dx)); y0 = Math.min(1 - h, Math.max(0, y0 + dy));
          x1 = x0 + w; y1 = y0 + h;
        }
        zones[i].rect = [x0, y0, x1, y1].map((v) => Math.round(v * 1000) / 1000);
        box.style.cssText = rectStyle(zones[i].rect);
        dirty = true;
      };
      const up = () => {
        box.classList.remove("moving");
        box.removeEventListener("pointermove", move); box.removeEventListener("pointerup", up);
        box.removeEventListener("pointercancel", up);
      };
      box.addEventListener("pointermove", move);
      box.addEventListener("pointerup", up);
      box.addEventListener("pointercancel", up);
      ev.preventDefault();
    });
  }

  function loadZones(id) {
    zones = []; zonesFor = null; gameZones = null; zoneLabels = {}; dirty = false;
    $("cam-unused").hidden = true;
    draw();
    if (!id) { zoneList.replaceChildren(); return (zonesLoad = Promise.resolve()); }
    zonesLoad = (async () => {
      try {
        const res = await TC.api("GET", "/api/tables/" + id + "/zones");
        if (shown !== id) return;
        zones = res.zones || [];
        gameZones = Array.isArray(res.game_zones) ? res.game_zones : null;
        zoneLabels = res.zone_labels || {};
        zonesFor = id;
        draw();
      } catch (e) { if (shown === id) TC.toast(e.message, "error"); }
    })();
    return zonesLoad;
  }

  function showUnused(names) {
    const box = $("cam-unused");
    box.hidden = !(names && names.length);
    if (!box.hidden) {
      box.textContent = t("The game does not use these zones: {zones}. Remove them, or cards there are ignored.",
        { zones: TC.list(names.map(labelOf)) });
    }
  }

  $("cam-save").onclick = async () => {
    if (!shown) { TC.toast(t("Choose the table first."), "error"); return; }
    const id = shown;
    await zonesLoad;
    if (shown !== id || zonesFor !== id) return;  // (another table was chosen meanwhile)
    const pin = await hostPin(id);
    if (!pin) return;
    try {
      const res = await TC.api("PUT", "/api/tables/" + id + "/zones", { zones }, { pin });
      if (shown !== id) return;
      zones = res.zones; dirty = false; draw();
      showUnused(res.unused);
      TC.toast(t("Zones saved."));
    } catch (e) { refused(id, e); }
  };

  $("cam-markers").onclick = async () => {
    if (!shown) { TC.toast(t("Choose the table first."), "error"); return; }
    // (the markers replace the zones on the page, as choosing another table would)
    if (dirty && !confirm(t("The zones you changed are not saved. Leave them?"))) return;
    const id = shown, pin = await hostPin(id);
    if (!pin) return;
    try {
      const res = await TC.api("POST", "/api/tables/" + id + "/zones/markers", {}, { pin });
      if (shown !== id) return;
      zones = res.zones || []; zonesFor = id; dirty = false; draw();
      showUnused(res.unused);
      TC.toast(t("Zones set from the markers: {n} found.", { n: res.found !== undefined ? res.found : zones.length }));
      refresh();
    } catch (e) { refused(id, e); }
  };

  $("cam-restart").onclick = async () => {
    if (!shown) return;
    const id = shown, pin = await hostPin(id);
    if (!pin) return;
    try {
      await TC.api("POST", "/api/tables/" + id + "/camera", { restart: true }, { pin });
      TC.toast(t("The camera was restarted."));
      setTimeout(refresh, 1000);
    } catch (e) { refused(id, e); }
  };

  /* ---- teaching the table's own cards: the largest card in view, named by the host ---- */
  const teachList = $("teach-list");
  const teachLabel = $("teach-label");
  let byName = new Map();  // a card's name as shown (TC.nameKey) -> its id
  const cardName = (id) => TC.cardName(deck, id);
  function showTaught(res) {
    deck = res.deck || deck;
    const ids = res.names || [];
    byName = new Map(ids.map((id) => [TC.nameKey(cardName(id)), id]));
    // the suggestions: the deck's cards in the phone's language (a taught deck: its names)
    const suggest = ids.length ? ids.map(cardName) : Object.keys(res.cards || {});
    $("teach-names").replaceChildren(...suggest.map((n) => el("option", { value: n })));
    const cards = Object.entries(res.cards || {});
    teachList.replaceChildren(...(cards.length ? cards.map(([card, n]) =>
      el("li", { class: "row" },
        el("span", { class: "grow" }, t("Photos of {card}: {count}", { card: cardName(card), count: n })),
        el("button", { class: "btn", onclick: () => forget(card) }, t("Forget")))) :
      [el("li", { class: "muted" }, t("Nothing taught yet."))]));
  }
  // (the deck's names come with the taught list: a name typed before they came was sent as
  // typed, and "7 vermelho" was refused as no card of the deck)
  let taughtLoaded = Promise.resolve();
  function loadTaught(id) {
    teachList.replaceChildren();
    $("teach-names").replaceChildren();
    if (!id) return;
    taughtLoaded = TC.api("GET", "/api/tables/" + id + "/camera/taught")
      .then((res) => { if (shown === id) showTaught(res); })
      .catch((e) => { if (shown === id) TC.toast(e.message, "error"); });
  }
  const forgetting = TC.single();  // (a double tap forgets once, and asks once)
  function forget(card) {
    const id = shown;
    return forgetting(id + "\n" + card, async () => {
      // every photo of the card goes at once, with no undo: asked first
      if (!window.confirm(t("Forget every photo of {card}?", { card: cardName(card) }))) return;
      const pin = await hostPin(id);
      if (!pin) return;
      try {
        const res = await TC.api("DELETE", "/api/tables/" + id + "/camera/taught/" + encodeURIComponent(card), undefined, { pin });
        if (shown === id) showTaught(res);
      } catch (e) { refused(id, e); }
    });
  }
  const teachGo = $("teach-go");
  teachGo.onclick = async () => {
    if (!shown) { TC.toast(t("Choose the table first."), "error"); return; }
    if (teachGo.disabled) return;  // (a second tap while the first is on its way or asked)
    const id = shown, pin = await hostPin(id);
    if (!pin) return;
    const typed = teachLabel.value.trim();
    teachGo.disabled = true;
    try {
      await taughtLoaded;
      if (shown !== id) return;
      const label = byName.get(TC.nameKey(typed)) || typed;  // the name shown -> the card's id
      const send = (confirm) => TC.api("POST", "/api/tables/" + id + "/camera/taught",
        confirm ? { label, confirm: true } : { label }, { pin });
      let res;
      try {
        res = await send(false);
      } catch (e) {
        // the model reads another card there: nothing taught until the host says so (the
        // companion keeps the card asked about, and teaches that one on the answer)
        if (e.code !== "model_reads_other" || shown !== id) throw e;
        if (!window.confirm(e.message)) { TC.toast(t("Nothing taught.")); return; }
        res = await send(true);
      }
      if (shown !== id) return;
      showTaught(res);
      const shot = $("teach-shot");
      if (res.picture) {
        shot.replaceChildren(el("img", { src: res.picture, alt: t("The card as taught: {card}", { card: cardName(res.label) }) }),
          el("span", { class: "muted", text: t("The card as taught: {card}", { card: cardName(res.label) }) }));
        shot.hidden = false;
      }
      TC.toast(t("Learned {card}. Photos of it: {count}.", { card: cardName(res.label), count: res.photos }));
      teachLabel.value = ""; refresh();
    } catch (e) { refused(id, e); } finally { teachGo.disabled = false; }
  };

  /* The camera's plays paused while the host teaches mid-game: a card held up over a pile
     would be a play or a flip. Shown for the table the camera watches. */
  const pauseBtn = $("teach-pause");
  let pausedFor = null;  // the table paused, as the last status said
  function showPause(s) {
    const here = !!shown && s.table === shown;
    pauseBtn.hidden = !here;
    const paused = here && s.paused_s > 0;
    pausedFor = paused ? shown : null;
    pauseBtn.setAttribute("aria-pressed", String(paused));
    pauseBtn.classList.toggle("primary", paused);
    pauseBtn.textContent = paused ?
      t("Resume the camera's plays ({minutes} min left)", { minutes: Math.max(1, Math.ceil(s.paused_s / 60)) }) :
      t("Pause the camera's plays");
  }
  pauseBtn.onclick = async () => {
    if (!shown) return;
    const id = shown, pin = await hostPin(id);
    if (!pin) return;
    const on = pausedFor !== id;
    try {
      const s = await TC.api("POST", "/api/tables/" + id + "/camera/pause", { on }, { pin });
      if (shown === id) showPause(s);
      TC.toast(on ? t("Paused: no card the camera sees counts until you resume.") : t("The camera counts the cards again."));
    } catch (e) { refused(id, e); }
  };

  /* ---- which table ---- */
  function show(id) {
    shown = id || null;
    sel.value = shown || "";
    $("cam-restart").hidden = !shown;
    hostState();
    $("cam-print").href = "/camera/markers" + (shown ? "?table=" + encodeURIComponent(shown) : "");
    loadZones(shown);
    loadTaught(shown);
  }

  sel.onchange = async () => {
    const id = sel.value, prev = shown;
    if (id === prev) return;
    // the camera always watches some table: "—" is no choice once it does
    if (!id || (dirty && !confirm(t("The zones you changed are not saved. Leave them?")))) { sel.value = prev || ""; return; }
    // the page shows the new table at once (its PIN asked on the page, the camera can take a
    // second to start, and the host may teach a card meanwhile); cancelled or refused, it
    // goes back to the table it showed
    const mine = ++switching;
    epoch++;
    show(id);
    const pin = await hostPin(id);
    if (!pin) {  // cancelled: nothing changes
      if (mine === switching) { switching = 0; epoch++; if (shown === id) show(prev); }
      return;
    }
    try {
      await TC.api("POST", "/api/tables/" + id + "/camera", {}, { pin });
      TC.toast(t("The camera now watches this table."));
    } catch (e) {
      refused(id, e);
      if (shown === id) show(prev);
    } finally {
      if (mine === switching) switching = 0;
      epoch++;
      status();
    }
  };

  /* ---- start ---- */
  sel.removeEventListener("change", keep);  // (from now on sel.onchange hears a choice)
  await status();  // (shows the table the camera watches, and its picture)
  // a table chosen while the page opened, or opened from a table's host tools (?table=):
  // point the camera at that table
  const asked = early || new URLSearchParams(location.search).get("table");
  if (asked && asked !== shown && hasOption(asked)) { sel.value = asked; sel.onchange(); }
  // the hints follow the picture while the host moves a lamp or turns the focus ring; with
  // no camera on this companion, a slow look in case it comes
  let last = Date.now();
  setInterval(() => {
    if (document.hidden) return;
    if (camOn === false && Date.now() - last < 20000) return;
    last = Date.now();
    status();
  }, 2000);
})();
