/* Table Companion phone client: API calls, live updates (SSE), translations, game plugins.
   No framework and no CDN: the companion works on a LAN with no internet. */
(function () {
  "use strict";
  const TC = (window.TC = {});
  const lang = document.body.dataset.lang || "en";
  let catalog = {};

  TC.t = function (msg, params) {
    let s = catalog[msg] || msg;
    if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));
    return s;
  };
  const t = TC.t;

  /* Lists in the phone's language: names or things "Ana, Bruno" / "Ana、Bruno"; the clauses
     of one sentence "..., ..." / "...，..."; a text and the space before what follows it:
     "Card: " and "Done. ", but no space after full-width punctuation ("牌：", "完成。"). */
  const zh = lang.startsWith("zh");
  TC.list = (items) => items.join(TC.listSep);
  TC.listSep = zh ? "、" : ", ";
  // people named in a sentence: "Ana and Bruno slapped wrong" / "Ana e Bruno" / "Ana、Bruno"
  TC.names = (items) => (items.length < 2 ? String(items[0] ?? "")
    : t("{names} and {last}", { names: TC.list(items.slice(0, -1)), last: items[items.length - 1] }));
  TC.brackets = zh ? ["（", "）"] : [" (", ")"];  // "Fay (werewolf)" / "Fay（狼人）"
  TC.clauses = (items) => items.join(zh ? "，" : ", ");
  TC.spaced = (text) => (/[：，。；！？）、]$/.test(text) ? text : text + " ");
  TC.aside = (text) => (/^[（：，。、；]/.test(text) ? text : " " + text);  // " (you)" / "（你）"
  TC.sentences = (items) => items.map((s, i) => (i < items.length - 1 ? TC.spaced(s) : s)).join("");

  TC.loadCatalog = async function () {
    if (lang === "en") return;
    try {
      const r = await fetch("/api/i18n/" + lang + ".json");
      if (r.ok) catalog = await r.json();
    } catch (e) { /* offline: English it is */ }
  };

  TC.el = function (tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      // (through the CSSOM: a style attribute is inline style, which the pages' CSP refuses)
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  };
  const el = TC.el;

  let toastTimer = null;
  TC.toast = function (msg, kind) {
    const box = document.getElementById("toast");
    box.textContent = msg;
    box.className = "show " + (kind || "");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (box.className = ""), kind === "error" ? 6000 : 2500);
  };

  /* A box that scrolls sideways (a rounds table wider than the phone) says so: a shadow on
     the side that has more, and a line under it while anything is out of sight (the last
     player's column was off-screen with no sign). Returns [box, hint]. ``left``: where the
     box it replaces was scrolled to, kept (a new round redrew the table at its first column
     under the eyes of a player reading the last). */
  TC.sideScroll = function (box, left) {
    const hint = el("p", { class: "scroll-hint", hidden: true, text: t("More columns: swipe the table sideways →") });
    const mark = () => {
      const more = box.scrollWidth - box.clientWidth;
      box.classList.toggle("more-left", more > 1 && box.scrollLeft > 1);
      box.classList.toggle("more-right", more > 1 && box.scrollLeft < more - 1);
      hint.hidden = !(more > 1);
    };
    box.addEventListener("scroll", mark, { passive: true });
    requestAnimationFrame(() => { if (left) box.scrollLeft = left; mark(); });
    if (window.ResizeObserver) new ResizeObserver(mark).observe(box);
    return [box, hint];
  };

  /* A toast that says ``msg`` goes now (what it said is no longer so). */
  TC.clearToast = function (msg) {
    const box = document.getElementById("toast");
    if (box && box.className.includes("show") && box.textContent === msg) {
      clearTimeout(toastTimer);
      box.className = "";
    }
  };

  /* How a typed card name is matched with the names shown: case, spaces and word order
     forgiven ("azul 5" and "Azul 5" for "5 azul", "蓝色 5" for "蓝色5"), and a Chinese colour
     word with or without its 色 ("蓝 5"). */
  TC.nameKey = (s) => (String(s).normalize("NFKC").toLowerCase()
    .match(/\p{N}+|[^\p{N}\s\-_.,:;·、，]+/gu) || [])
    .map((w) => (w.length > 1 && w.endsWith("色") ? w.slice(0, -1) : w)).sort().join("|");

  /* A card's name in the phone's language, from its id in a camera deck: UNO "red-7" ->
     "Red 7" / "7 vermelho" (the words the UNO screen uses); other decks' ids as they are. */
  TC.cardName = function (deck, id) {
    if (!id) return "";
    if (deck !== "uno") return id;
    const wild = { wild: t("Wild"), "wild-draw4": t("Wild Draw Four"), "wild-swap": t("Wild Swap Hands"),
      "wild-custom": t("Custom Wild") }[id];
    if (wild) return wild;
    const i = id.indexOf("-");
    const colour = id.slice(0, i), value = id.slice(i + 1);
    const v = { skip: t("Skip"), reverse: t("Reverse"), draw2: t("Draw Two") }[value] || value;
    switch (colour) {
      case "red": return t("Red {value}", { value: v });
      case "yellow": return t("Yellow {value}", { value: v });
      case "green": return t("Green {value}", { value: v });
      case "blue": return t("Blue {value}", { value: v });
    }
    return id;
  };

  /* ---- credentials kept on this phone ---- */
  const store = {
    get(key) { try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; } },
    set(key, v) { localStorage.setItem(key, JSON.stringify(v)); },
    del(key) { localStorage.removeItem(key); },
  };
  TC.store = store;

  /* A narration line as this phone shows it: in its own language, where the speaker says it
     in the table's (a Portuguese phone read "Time to elect a captain."). */
  TC.narration = (e) => (e.texts && e.texts[lang]) || e.text;

  /* The host phone as the table's voice (no speaker at the table): a line said, kept for
     "Say it again"; whether it was heard is told by a "tc:speech" event (ok, or the error:
     narration went silent unnoticed). */
  TC.lastSpoken = null;
  TC.speak = function (line, again) {
    if (!again && line.key !== "test") TC.lastSpoken = line;
    const tell = (detail) => document.dispatchEvent(new CustomEvent("tc:speech", { detail }));
    if (!window.speechSynthesis || !window.SpeechSynthesisUtterance) { tell({ error: "unsupported" }); return; }
    const u = new SpeechSynthesisUtterance(line.text);
    u.lang = line.lang;
    u.onstart = () => tell({ ok: true, text: line.text });
    u.onerror = (ev) => tell({ error: ev.error || "error", text: line.text });
    window.speechSynthesis.speak(u);
  };

  /* A sender of one request at a time per key: the same key again before the first is
     answered (a double tap) gets the first's answer, and nothing is sent twice (the second
     had been refused, "It's Chen's turn", as if the move had failed). */
  TC.single = function () {
    let last = null;  // { key, promise } until answered
    return (key, start) => {
      if (last && last.key === key) return last.promise;
      const promise = start();
      last = { key, promise };
      const done = () => { if (last && last.promise === promise) last = null; };
      promise.then(done, done);
      return promise;
    };
  };

  TC.api = async function (method, path, body, creds) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (creds && creds.token) headers["Authorization"] = "Bearer " + creds.token;
    if (creds && creds.pin) headers["X-Host-Pin"] = creds.pin;
    let r;
    try {
      r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      throw { status: 0, code: "offline", message: t("The companion cannot be reached. Check the Wi-Fi.") };
    }
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (!r.ok) {
      const err = (data && data.error) || { code: "http_" + r.status, message: t("The request failed.") };
      throw { status: r.status, code: err.code, message: err.message };
    }
    return data;
  };

  /* A view patched (web/stream.py ``diff``): {"=": v} replaced; an object's {"~": {key:
     patch}, "-": [keys gone]}; a list's {"+": [appended]}, {"len": n} or {"@": {i: patch}}.
     The old value is left as it was. */
  TC.patch = function (old, p) {
    if ("=" in p) return p["="];
    if ("+" in p) return old.concat(p["+"]);
    if ("len" in p) return old.slice(0, p.len);
    if ("@" in p) {
      const out = old.slice();
      for (const [i, q] of Object.entries(p["@"])) out[Number(i)] = TC.patch(out[Number(i)], q);
      return out;
    }
    const out = Object.assign({}, old);
    for (const [k, q] of Object.entries(p["~"] || {})) out[k] = TC.patch(out[k], q);
    for (const k of p["-"] || []) delete out[k];
    return out;
  };

  /* ---- game plugins ---- */
  TC.games = {};
  TC.registerGame = function (id, plugin) { TC.games[id] = plugin; };

  /* ---- the table page ---- */
  TC.tablePage = async function () {
    await TC.loadCatalog();
    const root = document.getElementById("table");
    const id = root.dataset.id;
    const game = TC.games[root.dataset.game];
    const keyTok = "tc.token." + id, keyPin = "tc.pin." + id;
    let me = store.get(keyTok); // {token, seat}
    let pin = store.get(keyPin);
    let view = null, hostView = null;
    const sending = TC.single();  // this phone's actions, each once
    // The newest version this phone knows: its view's, or the one its own last move made
    // where that move came right after the version it sent (nothing it missed came between).
    // A second tap before the live stream brings the first one's result is not stale.
    let ownVersion = 0;
    const known = () => (view ? Math.max(view.version, ownVersion) : undefined);
    const learn = (sent, res) => {
      if (typeof sent === "number" && res && res.version === sent + 1) ownVersion = Math.max(ownVersion, res.version);
    };
    const gameRoot = document.getElementById("game");

    const creds = () => ({ token: me && me.token, pin: pin });
    const asSeatSel = document.getElementById("as-seat");

    // The server's wall clock, as its latest stream message told it (a step's deadline is
    // on it; an offline Pi's clock need not match the phone's), carried on by this phone's
    // monotonic clock. null until the stream has spoken.
    let serverTime = null;
    const ctx = {
      t, el, toast: TC.toast, tableId: id,
      serverNow() {
        return serverTime && serverTime.wall + (performance.now() - serverTime.at) / 1000;
      },
      get seat() { return me ? me.seat : null; },
      get isHost() { return !!pin; },
      get view() { return view; },
      get hostView() { return hostView; },
      /* The names of the zones the camera watches at this table (null: it watches none). */
      get cameraZones() { return cameraZones; },
      /* A move a game sent by ``call`` (its own queue, as UNO's) answered: the version it
         made is this phone's, for the host's Undo as for a move sent by ``act``. Unlearned,
         a host's Undo right after their own UNO play, before the live stream brought it,
         was refused as stale. */
      learn(sent, res) { learn(sent, res); },
      /* Any other call on this table with this phone's credentials (e.g. "slap", "history"). */
      call(method, sub, body) {
        return TC.api(method, "/api/tables/" + id + (sub ? "/" + sub : ""), body, creds());
      },
      /* Submit an action. The version the phone saw goes with it (a stale view is refused);
         time-critical moves judged by the rules on their own (a slap, a buzz, a host's
         verdict on it) pass { version: false } so a move a moment earlier cannot bounce them. */
      act(action, opts) {
        const versioned = !(opts && opts.version === false);
        // (a host who holds a seat acts as that seat unless the menu names another: sent
        // without one, "(my own seat)" acted as the host alone, and a wolf's tap chose for
        // the whole pack)
        const asSeat = !pin ? undefined : asSeatSel.value !== "" ? Number(asSeatSel.value) : me ? me.seat : undefined;
        return sending(JSON.stringify([action, versioned, asSeat]), async () => {
          const body = { action, version: versioned ? known() : undefined };
          if (asSeat !== undefined) body.as_seat = asSeat;
          try {
            const res = await TC.api("POST", "/api/tables/" + id + "/actions", body, creds());
            learn(body.version, res);
            if (game && game.onEvents) game.onEvents(res.events || [], ctx);
            return res;
          } catch (e) {
            TC.toast(e.message, "error");
            if (navigator.vibrate) navigator.vibrate([80, 60, 80]);
            // (the version this phone knew is behind or not its own: a host's PIN, or a
            // seat, came or went; the view's is the one to send)
            if (e.code === "stale_version") { ownVersion = 0; await refresh(); }
            throw e;
          }
        });
      },
    };

    function renderWho() {
      const who = document.getElementById("whoami");
      const players = view.table.players;
      who.textContent = me ? t("You are {name}", { name: players[me.seat] }) : (pin ? t("Host") : t("Watching"));
      document.getElementById("join-url").textContent = view.join_url || "";
    }

    function renderSeats(force) {
      const box = document.getElementById("seat-picker");
      const seats = document.getElementById("seats");
      const show = force || (!me && !store.get("tc.watch." + id));
      box.hidden = !show;
      if (!show) return;
      seats.textContent = "";
      view.table.players.forEach((name, i) => {
        const taken = view.table.seats_taken.includes(i);
        seats.append(el("button", {
          class: "btn seat" + (taken ? " taken" : ""), "data-seat": i,
          onclick: () => join(i, taken),
        }, name, taken ? el("small", { text: " · " + t("joined") }) : null));
      });
    }

    async function join(seat, taken) {
      let body = { seat };
      if (taken) {
        const p = pin || prompt(t("That seat is taken. The host's PIN moves it to this phone:"));
        if (!p) return;
        body.pin = p;
      }
      try {
        let res;
        try {
          // (the host's phone says it is the host's, the PIN in its headers: the seat it
          // first joins is the one the host plays in, where the game asks, Werewolf)
          res = await TC.api("POST", "/api/tables/" + id + "/join", body, pin ? { pin } : undefined);
        } catch (e) {
          // (a seat whose secret card was dealt while no phone held it: the host's PIN)
          if (e.code !== "seat_locked" || body.pin) throw e;
          const p = pin || prompt(e.message);
          if (!p) return;
          res = await TC.api("POST", "/api/tables/" + id + "/join", { seat, pin: p });
        }
        me = { token: res.token, seat: res.seat };
        store.set(keyTok, me);
        document.getElementById("seat-picker").hidden = true;
        connect();
      } catch (e) { TC.toast(e.message, "error"); }
    }
    document.getElementById("just-watch").onclick = () => {
      store.set("tc.watch." + id, true);
      document.getElementById("seat-picker").hidden = true;
    };

    function hostTools() {
      document.getElementById("host-tools").hidden = !pin;
      document.getElementById("host-login").hidden = !!pin;
      // (a game that picks whom the host acts for on its own screen, UNO's host bar, has no
      // use for this menu: it did nothing there)
      asSeatSel.closest("label").hidden = !!(game && game.actsFor);
      asSeatSel.options[0].text = me ? t("(my own seat)") : t("(the host)");
      if (pin && view && asSeatSel.options.length === 1) {
        view.table.players.forEach((n, i) => asSeatSel.append(el("option", { value: i, text: n })));
      }
    }
    document.getElementById("host-login").onsubmit = async (ev) => {
      ev.preventDefault();
      const p = ev.target.pin.value.trim();
      try {
        await TC.api("POST", "/api/tables/" + id + "/host", {}, { pin: p });
        pin = p; store.set(keyPin, p); ownVersion = 0; hostTools(); await refresh(); connect();
      } catch (e) { TC.toast(e.message, "error"); }
    };
    document.getElementById("undo").onclick = async () => {
      try {
        const sent = known();
        learn(sent, await TC.api("POST", "/api/tables/" + id + "/undo", { version: sent }, creds()));
        TC.toast(t("Undone."));
      } catch (e) { TC.toast(e.message, "error"); }
    };

    const histBox = document.getElementById("history-box");
    async function renderHistory() {
      if (!histBox.open) return;
      try {
        const res = await TC.api("GET", "/api/tables/" + id + "/history", undefined, creds());
        const ol = document.getElementById("history");
        ol.textContent = "";
        for (const e of res.history.slice().reverse()) {
          const who = e.actor.host && e.actor.seat === null ? t("Host") :
            (e.actor.seat !== null && e.actor.seat !== undefined ? view.table.players[e.actor.seat] : "");
          const what = game && game.describe ? game.describe(e, ctx) : (e.kind === "undo" ? t("Undo") : e.body.type);
          ol.append(el("li", { class: e.undone ? "undone" : "" },
            el("span", { class: "muted", text: "#" + e.seq + " " + new Date(e.t * 1000).toLocaleTimeString() + " " }),
            el("strong", { text: who + " " }), what));
        }
      } catch (e) { TC.toast(e.message, "error"); }
    }
    histBox.addEventListener("toggle", renderHistory);

    let mounted = false;
    let cameraZones = null;  // (ctx.cameraZones)
    async function show(newView, events) {
      view = newView;
      // the host moved this seat to another phone: this one watches from now on (the view
      // that came with the news is already a watcher's)
      const revoked = me && (events || []).some((e) => e.type === "seat_revoked");
      if (revoked) { me = null; store.del(keyTok); }
      if (pin) {
        try { hostView = (await TC.api("GET", "/api/tables/" + id, undefined, creds())).host; }
        catch (e) { if (e.status === 403) { pin = null; store.del(keyPin); } }
      }
      renderWho(); hostTools();
      if (game) {
        if (!mounted) { game.mount(gameRoot, ctx); mounted = true; }
        game.update(view, ctx);
        if (events && events.length && game.onEvents) game.onEvents(events, ctx);
      }
      for (const e of events || []) {
        if (e.type === "camera_lost") cameraLost(true);
        else if (e.type === "camera_back") cameraLost(false);
        else if (e.type === "camera_paused") cameraPaused(e.seconds);
        else if (e.type === "camera_resumed") cameraPaused(0);
        else if (e.type === "narration") {
          const box = document.getElementById("narration");
          box.hidden = false; box.textContent = TC.narration(e);
        } else if (e.type === "table_deleted") {
          TC.toast(t("The host deleted this table."), "error");
          setTimeout(() => { location.href = "/"; }, 1500);
        } else if (e.type === "rematch" && typeof e.table === "string") {
          followRematch(e);
        } else if (e.type === "speak" && pin) {
          // no speaker at the table: the host phone speaks (a player's phone never does)
          TC.speak(e);
        }
      }
      renderHistory();
      if (revoked) {
        renderSeats(true); connect();
        TC.toast(t("Your seat was moved to another phone."), "error");
      }
      document.dispatchEvent(new CustomEvent("tc:view", { detail: view }));
    }

    /* The host started a rematch: this phone follows it to the new table, at its own seat
       (or watching), the host's PIN kept. */
    let following = false;
    async function followRematch(e) {
      if (following) return;
      following = true;
      try {
        if (me) {
          const res = await TC.api("POST", "/api/tables/" + e.table + "/join", { seat: me.seat });
          store.set("tc.token." + e.table, { token: res.token, seat: res.seat });
        } else store.set("tc.watch." + e.table, true);
      } catch (err) { /* (the seat taken meanwhile: the new page asks who this phone is) */ }
      if (pin) store.set("tc.pin." + e.table, pin);
      location.href = e.url;
    }
    /* The host tidies the list of tables: rename, archive, delete. */
    const renameForm = document.getElementById("rename");
    if (renameForm) renameForm.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const res = await TC.api("PATCH", "/api/tables/" + id, { title: renameForm.title.value }, creds());
        document.querySelector("#table h1").textContent = res.table.title;
        TC.toast(t("Renamed."));
      } catch (e) { TC.toast(e.message, "error"); }
    });
    const archiveBtn = document.getElementById("archive");
    if (archiveBtn) archiveBtn.onclick = async () => {
      const on = archiveBtn.dataset.archived !== "true";
      try {
        const res = await TC.api("PATCH", "/api/tables/" + id, { archived: on }, creds());
        archiveBtn.dataset.archived = String(res.archived);
        archiveBtn.textContent = res.archived ? t("Take it out of the archive") : t("Archive this table");
        TC.toast(res.archived ? t("Archived: the home page lists it apart.") : t("Out of the archive."));
      } catch (e) { TC.toast(e.message, "error"); }
    };
    const deleteBtn = document.getElementById("delete-table");
    if (deleteBtn) deleteBtn.onclick = async () => {
      if (!confirm(t("Delete this table and all its moves for good?"))) return;
      try {
        await TC.api("DELETE", "/api/tables/" + id, undefined, creds());
        location.href = "/";
      } catch (e) { TC.toast(e.message, "error"); }
    };
    /* The end of a game as a picture the phone can share (or save): the title, the
       winners and each player's score, drawn on a canvas; below them what the game adds
       (its plugin's share(view)): the chart of the totals (score pad, UNO, Kingsburg), or
       the story of the game (Werewolf). Such a picture is 1080 x 1350 (portrait, as the
       apps people share to show it whole), else 1080 x 1080. */
    const shareBox = document.getElementById("result-share");
    function showShare() {
      if (shareBox) shareBox.hidden = !(view && view.table && view.table.outcome);
    }
    function resultPicture() {
      let extra = {};
      try { extra = (game && game.share && game.share(view)) || {}; } catch (e) { extra = {}; }
      const series = Array.isArray(extra.series) && extra.series.length && extra.series[0].length > 1 ? extra.series : null;
      const lines = Array.isArray(extra.lines) && extra.lines.length ? extra.lines : null;
      const W = 1080, H = series || lines ? 1350 : 1080, c = document.createElement("canvas");
      c.width = W; c.height = H;
      const g = c.getContext("2d");
      const face = getComputedStyle(document.body).fontFamily;
      const o = view.table.outcome, names = view.table.players;
      g.fillStyle = "#14161b"; g.fillRect(0, 0, W, H);
      g.fillStyle = "#4dabf7"; g.fillRect(0, 0, W, 16);
      g.textAlign = "center"; g.fillStyle = "#e9ecef";
      const fit = (text, size, weight, y, colour) => {
        let px = size;
        g.font = weight + " " + px + "px " + face;
        while (px > 24 && g.measureText(text).width > W - 120) { px -= 4; g.font = weight + " " + px + "px " + face; }
        g.fillStyle = colour || "#e9ecef";
        g.fillText(text, W / 2, y);
      };
      fit(document.querySelector("#table h1").textContent.trim(), 64, "800", 140);
      const winners = (o.winners || []).map((s) => names[s]);
      fit(winners.length ? t("{names} won!", { names: TC.names(winners) }) : t("Game over"), 84, "900", 290, "#ffd43b");
      const scores = Array.isArray(o.scores) ? o.scores : null;
      const rows = names.map((n, i) => [n, scores ? scores[i] : null, (o.winners || []).includes(i), i]);
      if (scores) rows.sort((a, b) => (b[2] - a[2]) || 0);
      const top = 400;
      const rowsH = series || lines ? Math.min(rows.length * 64, 400) : H - top - 120;
      const step = Math.min(90, rowsH / Math.max(1, rows.length));
      rows.forEach(([n, v, won, i], k) => {
        const y = top + k * step;
        if (series) { g.fillStyle = TC.chartColour(i); g.fillRect(96, y - step * 0.38, 24, 24); }
        g.font = (won ? "800 " : "600 ") + Math.round(step * 0.55) + "px " + face;
        g.fillStyle = won ? "#ffd43b" : "#e9ecef";
        g.textAlign = "left"; g.fillText(n, 140, y, W - 420);
        if (v !== null) { g.textAlign = "right"; g.fillText(String(v), W - 140, y); }
      });
      const y0 = top + rowsH, y1 = H - 120;
      if (series) drawSeries(g, series, 120, y0, W - 120, y1);
      else if (lines) drawLines(g, lines, face, 120, y0, W - 120, y1);
      g.textAlign = "center"; g.font = "500 32px " + face; g.fillStyle = "#868e96";
      g.fillText(t("Table Companion") + " · " + new Date().toLocaleDateString(document.documentElement.lang), W / 2, H - 60);
      return new Promise((ok) => c.toBlob(ok, "image/png"));
    }
    /* The totals as lines, each in its player's colour (the chart's, and the swatch by the
       name above), on a zero line. */
    function drawSeries(g, series, x0, y0, x1, y1) {
      const all = series.flat().filter((v) => typeof v === "number");
      const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
      const n = Math.max(...series.map((s) => s.length));
      const X = (k) => x0 + (x1 - x0) * k / Math.max(1, n - 1);
      const Y = (v) => y1 - (y1 - y0) * (v - lo) / (hi - lo);
      g.strokeStyle = "#495057"; g.lineWidth = 3;
      g.beginPath(); g.moveTo(x0, Y(0)); g.lineTo(x1, Y(0)); g.stroke();
      g.lineJoin = "round"; g.lineCap = "round";
      series.forEach((s, i) => {
        g.strokeStyle = TC.chartColour(i); g.lineWidth = 8;
        g.beginPath();
        s.forEach((v, k) => (k ? g.lineTo(X(k), Y(v)) : g.moveTo(X(k), Y(v))));
        g.stroke();
      });
    }
    /* The story's lines, wrapped between words (or, in Chinese, anywhere), as many as fit,
       then an ellipsis. */
    function drawLines(g, lines, face, x0, y0, x1, y1) {
      const width = x1 - x0, size = 30, gap = 40;
      let y = y0;
      g.textAlign = "left";
      const out = [];
      for (const line of lines) {
        const head = line.head !== undefined;
        g.font = (head ? "800 " : "400 ") + size + "px " + face;
        const text = head ? line.head : line.text;
        const words = /\s/.test(text) ? text.split(/(?<=\s)/) : Array.from(text);
        let cur = "";
        for (const w of words) {
          if (cur && g.measureText(cur + w).width > width) { out.push([cur.trimEnd(), head]); cur = w.trimStart(); }
          else cur += w;
        }
        if (cur) out.push([cur, head]);
      }
      for (let k = 0; k < out.length; k++) {
        if (y + gap > y1 && k < out.length) {
          g.font = "400 " + size + "px " + face; g.fillStyle = "#adb5bd"; g.fillText("…", x0, y);
          break;
        }
        const [text, head] = out[k];
        g.font = (head ? "800 " : "400 ") + size + "px " + face;
        g.fillStyle = head ? "#4dabf7" : "#e9ecef";
        g.fillText(text, x0, y, width);
        y += gap;
      }
    }
    const shareBtn = document.getElementById("share-result");
    if (shareBtn) shareBtn.onclick = async () => {
      const blob = await resultPicture();
      const file = new File([blob], "result.png", { type: "image/png" });
      try {
        if (navigator.canShare && navigator.canShare({ files: [file] })) {
          await navigator.share({ files: [file], title: document.querySelector("#table h1").textContent.trim() });
          return;
        }
      } catch (e) { if (e && e.name === "AbortError") return; }
      // (no share sheet: the picture is saved instead)
      const a = el("a", { href: URL.createObjectURL(blob), download: "result.png" });
      document.body.append(a); a.click(); a.remove();
    };
    document.addEventListener("tc:view", showShare);
    const rematchBtn = document.getElementById("rematch");
    if (rematchBtn) rematchBtn.onclick = async () => {
      const over = view && view.table && view.table.outcome;
      if (!over && !confirm(t("The game is not over. Start the same game again anyway?"))) return;
      try {
        const res = await TC.api("POST", "/api/tables/" + id + "/rematch", {}, creds());
        followRematch({ table: res.table.id, url: res.url });
      } catch (e) { TC.toast(e.message, "error"); }
    };

    async function refresh(quiet) {
      try {
        const v = await TC.api("GET", "/api/tables/" + id, undefined, creds());
        await show(v, []);
      } catch (e) {
        if (e.code === "bad_token") { me = null; store.del(keyTok); renderSeats(true); }
        // (the host deleted the table: this phone goes home, where it is no longer listed)
        if (e.code === "no_table" && view) {
          TC.toast(t("The host deleted this table."), "error");
          setTimeout(() => { location.href = "/"; }, 1500);
          return;
        }
        // (a PIN kept on this phone that the table refuses: dropped, and the page read
        // again as the player's or a watcher's; it stayed blank)
        if (e.status === 403 && pin) { pin = null; store.del(keyPin); hostTools(); return refresh(quiet); }
        if (!quiet) TC.toast(e.message, "error");
      }
    }

    /* The camera that watches this table stopped: the players tap their cards instead.
       Told by the live stream (camera_lost, camera_back); once each stream is heard, and
       while the banner shows, the camera's own status is asked too (a camera restarted
       watches afresh; news before the stream was heard would be missed). */
    const lostBox = document.getElementById("camera-lost");
    let lostTimer = null;
    function cameraLost(on) {
      if (!lostBox) return;
      lostBox.hidden = !on;
      clearInterval(lostTimer);
      if (on) lostTimer = setInterval(checkCamera, 10000);
    }
    /* The host paused the camera's plays (to teach a card mid-game): the players tap their
       cards meanwhile. The pause ends by itself after its seconds. */
    const pausedBox = document.getElementById("camera-paused");
    let pausedTimer = null;
    function cameraPaused(seconds) {
      if (!pausedBox) return;
      clearTimeout(pausedTimer);
      pausedBox.hidden = !(seconds > 0);
      if (seconds > 0) pausedTimer = setTimeout(() => { pausedBox.hidden = true; }, seconds * 1000);
    }
    async function checkCamera(first) {
      if (root.dataset.camera === "off") return;  // no camera on this companion
      let s;
      try { s = await TC.api("GET", "/api/camera"); } catch (e) { return; }
      if (!s || s.table !== id) { if (!first) cameraLost(false); cameraPaused(0); return; }
      if (s.paused_s > 0 || !first) cameraPaused(s.paused_s || 0);
      const names = (s.zones || []).map((z) => z.name);
      if (String(names) !== String(cameraZones)) {
        cameraZones = names;
        if (game && mounted && view) game.update(view, ctx);
      }
      if (s.lost === true) { if (lostBox.hidden) cameraLost(true); }
      else if (s.lost === false && !first) cameraLost(false);
    }

    let source = null;
    let retry = null;
    let cameraAsked = false;
    let opening = 0;  // (the latest connect: one started before it opens nothing)
    async function connect() {
      clearTimeout(retry);
      const mine = ++opening;
      // (the host's stream, with the PIN, carries the host's view and version: a player's
      // version moves only with what that player may see). The pass and the PIN stay in
      // headers: the stream is opened with a single-use ticket, as an EventSource sends no
      // headers and an address is kept in logs and the history.
      // (diff=1: after the first view, each message is what changed, TC.patch: the whole
      // view of a long score pad was 60 kB a message)
      let q = "?diff=1";
      if (me || pin) {
        try {
          const res = await TC.api("POST", "/api/tables/" + id + "/stream-ticket", undefined, creds());
          q += "&ticket=" + encodeURIComponent(res.ticket);
        } catch (e) {
          if (mine !== opening) return;
          document.getElementById("live").className = "dot off";
          retry = setTimeout(reopen, STREAM_RETRY_MS);
          return;
        }
      }
      if (mine !== opening) return;
      if (source) source.close();
      const here = source = new EventSource("/api/tables/" + id + "/stream" + q);
      const dot = document.getElementById("live");
      let opened = false;
      let wire = null;  // the last view this stream told (its patches apply to it)
      const heard = (kind) => (ev) => {
        const msg = JSON.parse(ev.data);
        if (typeof msg.now === "number") serverTime = { wall: msg.now, at: performance.now() };
        if (kind === "patch" && !wire) return;
        wire = kind === "patch" ? TC.patch(wire, msg.patch) : msg.view;
        // (the page is given a copy: a game that changes its view in place changes no
        // patch's base)
        msg.view = JSON.parse(JSON.stringify(wire));
        // (the connection is back: "cannot be reached" said meanwhile stayed on screen)
        if (dot.className !== "dot on") {
          TC.clearToast(t("The companion cannot be reached. Check the Wi-Fi."));
          document.dispatchEvent(new CustomEvent("tc:online"));
        }
        dot.className = "dot on";
        show(msg.view, msg.events);
        // (the camera's news from here on comes by this stream; what it said before the
        // stream was heard, a camera back or a pause while the phone opened the page or
        // was off the Wi-Fi, is asked once the stream is)
        if (!opened) { opened = true; checkCamera(!cameraAsked); cameraAsked = true; }
      };
      here.addEventListener("state", heard("state"));
      here.addEventListener("patch", heard("patch"));
      here.onerror = () => {
        dot.className = "dot off";
        // The browser retries a dropped stream by itself, but not one answered with an
        // error (the companion restarting behind the Wi-Fi) nor one the phone closed while
        // asleep: such a phone stayed stale, its dot grey, until reloaded. Open it again.
        if (here === source && here.readyState === EventSource.CLOSED) {
          retry = setTimeout(reopen, STREAM_RETRY_MS);
        }
      };
    }
    const STREAM_RETRY_MS = 2000;
    async function reopen() {
      // (quietly: a phone off the Wi-Fi would toast every two seconds; but a pass the host
      // gave to another phone meanwhile is dropped, or the stream is refused for ever)
      await refresh(true);
      connect();
    }
    // (back on the network, or the screen on again: a closed stream is opened at once)
    const wake = () => { if (source && source.readyState === EventSource.CLOSED) connect(); };
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) wake(); });

    // The screen stays on during a game (Screen Wake Lock): a phone laid on the table went
    // dark between turns. Asked again when the page is shown again (the lock goes with it).
    let wakeLock = null;
    async function keepAwake() {
      if (!navigator.wakeLock || document.hidden || wakeLock) return;
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        wakeLock.addEventListener("release", () => { wakeLock = null; });
      } catch (e) { wakeLock = null; }  // (refused: a battery saver; the phone sleeps as usual)
    }
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();

    await refresh();
    if (!view) return;
    const params = new URLSearchParams(location.search);
    renderSeats(params.get("join") === "1" && !me);
    connect();
  };

  /* ---- every page: no inline script or handler (the Content-Security-Policy allows only
     the companion's own script files) ---- */
  // a form that only a page script sends is never sent by the browser itself (a tap before
  // the script was ready reloaded the page with the PIN in its address)
  document.addEventListener("submit", (ev) => {
    if (ev.target.matches("form[data-script]")) ev.preventDefault();
  }, true);
  document.querySelectorAll("select[data-autosubmit]").forEach((s) => {
    s.addEventListener("change", () => s.form.submit());
  });
  // the app installed to the home screen opens like an app, and with its last pages when
  // the companion cannot be reached (the offline shell, /sw.js)
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => navigator.serviceWorker.register("/sw.js").catch(() => null));
  }
  // the offline page comes back by itself once the companion answers
  if (document.getElementById("offline")) {
    setInterval(() => fetch("/", { cache: "no-store" }).then((r) => { if (r.ok) location.reload(); }, () => null), 3000);
  }
  // each page starts once every script of it has run (a table page's game script too)
  document.addEventListener("DOMContentLoaded", () => {
    if (document.getElementById("table")) TC.tablePage();
    else if (document.getElementById("new-table")) TC.newTablePage();
    const print = document.getElementById("print-sheet");
    if (print) print.addEventListener("click", () => window.print());
  });

  /* ---- the new-table page ---- */
  TC.newTablePage = async function () {
    await TC.loadCatalog();
    const form = document.getElementById("new-table");
    const sel = document.getElementById("game");
    const players = document.getElementById("players");
    const optBox = document.getElementById("options");
    const { games } = await TC.api("GET", "/api/games");
    for (const g of games) sel.append(el("option", { value: g.id, text: t(g.name) }));

    // (a name stops at the table's MAX_NAME letters, which the page carries: the input's
    // maxlength; say so where one is full, as typing on simply did nothing)
    const NAME_MAX = Number(players.dataset.maxName);
    const fullNote = document.getElementById("name-full");
    function nameFull() {
      fullNote.hidden = ![...players.querySelectorAll("input[name=player]")].some((i) => i.value.length >= NAME_MAX);
    }
    function addPlayer(value) {
      const n = players.children.length + 1;
      players.append(el("div", { class: "row" },
        el("input", { name: "player", maxlength: NAME_MAX, value: value || "", list: "known-players", autocomplete: "off", placeholder: t("Player {n}", { n }), "aria-label": t("Player {n}", { n }), oninput: nameFull }),
        el("button", { type: "button", class: "btn ghost", "aria-label": t("Remove"), onclick: (e) => { e.target.closest(".row").remove(); nameFull(); } }, "✕")));
    }
    // (the players this phone seated before, offered as a name is typed: a player is the
    // same name from table to table, and the players' page keeps their results)
    const known = (store.get("tc.players") || []).filter((n) => typeof n === "string");
    form.append(el("datalist", { id: "known-players" }, known.map((n) => el("option", { value: n }))));
    document.getElementById("add-player").onclick = () => addPlayer();
    for (let i = 0; i < 3; i++) addPlayer();

    function renderOptions() {
      const g = games.find((x) => x.id === sel.value);
      // how many players the game takes, said before the form is sent (Werewolf's 8 came
      // only as the refusal), and rows enough for the fewest
      document.getElementById("player-count").textContent =
        t("{game}: {min} to {max} players.", { game: t(g.name), min: g.min_players, max: g.max_players });
      while (players.children.length < g.min_players) addPlayer();
      // (a game of many options, UNO's 21, shows the rules sheet's as one line and opens
      // them on "Change the rules": its form was one 3,750 px page of open options)
      optBox.querySelectorAll(":scope > :not(legend)").forEach((n) => n.remove());
      const shown = g.options.filter((o) => o.kind !== "dict");  // (Werewolf's roles: its own page)
      const many = shown.length > 4;
      const summary = el("p", { id: "rules-summary", class: "muted" });
      const rules = el("details", { id: "rules", class: "rules" }, el("summary", { class: "btn", text: t("Change the rules") }));
      const into = many ? rules : optBox;
      if (many) optBox.append(summary, rules);
      for (const o of shown) {
        let input, box;
        const help = el("span", { class: "opt-help", text: t(o.help) });
        const kind = o.seat ? "seat" : o.choices ? "choice" : o.kind === "text" || typeof o.default === "string" ? "text" : typeof o.default;
        if (o.seat) {
          // a seat: the players by name (the form's order is the seats'), not a number from 0
          input = el("select", { name: o.name, "data-seat": "1" });
          fillSeats(input, o.default);
        } else if (o.choices && o.name !== "language" && o.choices.length <= 4) {
          // (a few choices: each whole on its own line, where a select cut them off)
          box = el("fieldset", { class: "opt opt-choices", "data-option": o.name }, el("legend", { text: t(o.help) }),
            o.choices.map((c, i) => el("label", { class: "check" },
              el("input", { type: "radio", name: o.name, value: JSON.stringify(c), checked: c === o.default, "data-kind": "choice", "data-default": JSON.stringify(o.default) }),
              el("span", { text: t(o.labels ? o.labels[i] : String(c)) }))));
        } else if (o.choices) {
          // a narration language: the host's own (the companion's default is English, and
          // a Portuguese table heard and read its Werewolf nights in English)
          const pick = o.name === "language" && o.choices.includes(lang) ? lang : o.default;
          input = el("select", { name: o.name }, o.choices.map((c, i) => el("option", { value: JSON.stringify(c), selected: c === pick, text: t(o.labels ? o.labels[i] : String(c)) })));
        } else if (typeof o.default === "boolean") {
          // (the box with its own words, on one line: it sat between two options' labels)
          input = el("input", { type: "checkbox", name: o.name, checked: o.default });
          box = el("label", { class: "opt check", "data-option": o.name }, input, help);
        } else if (o.kind === "text" || typeof o.default === "string") {
          input = el("input", { name: o.name, maxlength: 200, autocomplete: "off", value: o.default || "" });
        } else {
          input = el("input", { name: o.name, inputmode: o.kind === "number" ? "decimal" : "numeric", value: o.default === null ? "" : o.default, placeholder: t("none") });
        }
        if (input) {
          input.dataset.kind = kind;
          input.dataset.optional = String(o.default === null);
          input.dataset.default = kind === "boolean" ? String(o.default) : o.choices ? input.value : (o.default === null ? "" : String(o.default));
        }
        into.append(box || el("label", { class: "opt", "data-option": o.name }, help, input));
      }
      const changed = () => [...optBox.querySelectorAll("input, select")].filter((i) => {
        if (i.type === "radio") return i.checked && i.value !== i.dataset.default;
        if (i.type === "checkbox") return String(i.checked) !== i.dataset.default;
        if (i.dataset.kind === "seat") return false;
        return i.dataset.default !== undefined && i.value.trim() !== i.dataset.default;
      }).length;
      const say = () => {
        const n = changed();
        summary.textContent = n === 0 ? t("The rules as the rules sheet has them ({m} options).", { m: shown.length })
          : n === 1 ? t("1 rule changed from the rules sheet.") : t("{n} rules changed from the rules sheet.", { n });
      };
      if (many) { say(); rules.addEventListener("input", say); rules.addEventListener("change", say); }
    }
    function fillSeats(select, fallback) {
      // (the seats are the names typed, in order: an empty row is no player; the choice
      // follows the player's row, not its place, as rows are cleared, added and removed)
      const rows = [...players.querySelectorAll("input[name=player]")];
      const seatRows = seatRowsNow();
      if (select.seatRow === undefined) {  // (first filled: the option's default seat)
        select.seatRow = fallback === null || fallback === undefined ? null : seatRows[fallback] || null;
        select.onchange = () => { select.seatRow = select.value === "" ? null : seatRowsNow()[Number(select.value)]; };
      }
      select.replaceChildren(el("option", { value: "", text: t("The last player") }),
        ...seatRows.map((row, i) => el("option", { value: String(i), text: row.value.trim() || t("Player {n}", { n: rows.indexOf(row) + 1 }) })));
      const at = seatRows.indexOf(select.seatRow);
      select.value = at >= 0 ? String(at) : "";
    }
    function seatRowsNow() {
      const rows = [...players.querySelectorAll("input[name=player]")];
      const named = rows.filter((r) => r.value.trim());
      return named.length ? named : rows;
    }
    // the seat choices follow the players as they are typed, added and removed
    const refreshSeats = () => optBox.querySelectorAll("select[data-seat]").forEach((s) => fillSeats(s, null));
    players.addEventListener("input", refreshSeats);
    new MutationObserver(refreshSeats).observe(players, { childList: true });
    sel.onchange = renderOptions;
    renderOptions();

    form.onsubmit = async (ev) => {
      ev.preventDefault();
      const names = [...form.querySelectorAll("input[name=player]")].map((i) => i.value.trim()).filter(Boolean);
      const options = {};
      for (const input of optBox.querySelectorAll("input, select")) {
        if (input.type === "radio" && !input.checked) continue;
        const k = input.dataset.kind;
        const v = input.value.trim();
        const n = Number(v.replace(",", "."));  // (a Portuguese phone types 0,9)
        if (k === "choice") options[input.name] = JSON.parse(input.value);
        else if (k === "seat") { if (v !== "") options[input.name] = Number(v); }
        else if (k === "boolean") options[input.name] = input.checked;
        else if (k === "text") options[input.name] = v;
        else if (v === "") { if (input.dataset.optional === "true") options[input.name] = null; }  // (empty: the default)
        // (not a number: sent as typed, and the server names the option to fix)
        else options[input.name] = Number.isFinite(n) ? n : v;
      }
      try {
        const res = await TC.api("POST", "/api/tables", {
          game: sel.value, title: form.title.value.trim() || null, players: names,
          pin: form.pin.value.trim(), options,
        });
        store.set("tc.pin." + res.table.id, form.pin.value.trim());
        store.set("tc.players", [...new Set([...names, ...known])].slice(0, 40));
        location.href = res.url;
      } catch (e) { TC.toast(e.message, "error"); }
    };
  };
})();
