/* Players who last (web/players.py): a player's colour, chosen on the player's page and
   remembered by this phone (tc.colours: {key: colour}) and by the companion, shown beside
   the names on the leaderboard, the player's page and a table's page (the seats, "You are");
   the import of another companion's players file on the players' page. */
(function () {
  "use strict";
  const TC = window.TC;
  const t = TC.t;
  const key = (name) => String(name).split(/\s+/).filter(Boolean).join(" ").toLowerCase();
  const remembered = () => TC.store.get("tc.colours") || {};
  function remember(k, colour) {
    const all = remembered();
    if (colour) all[k] = colour; else delete all[k];
    TC.store.set("tc.colours", all);
  }
  function dot(colour) {
    return TC.el("span", { class: "pdot" + (colour ? " pc-" + colour : ""), "aria-hidden": "true" });
  }

  /* ---- the player's page: the colour picker ---- */
  async function playerPage(box) {
    const k = box.dataset.key;
    const buttons = [...box.querySelectorAll("#colour-pick [data-colour]")];
    function show(colour) {
      box.dataset.colour = colour || "";
      buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.colour === (colour || ""))));
      document.getElementById("player-dot").className = "pdot" + (colour ? " pc-" + colour : "");
    }
    async function choose(colour, quiet) {
      try {
        await TC.api("PUT", "/api/players/" + encodeURIComponent(k) + "/colour", { colour: colour || null });
        remember(k, colour);
        show(colour);
        if (!quiet) TC.toast(t("Colour saved."));
      } catch (e) { TC.toast(e.message, "error"); }
    }
    buttons.forEach((b) => { b.onclick = () => choose(b.dataset.colour); });
    // the phone remembers a colour the companion does not know yet (another companion's,
    // or chosen before this one kept colours): it brings it
    const mine = remembered()[k];
    if (mine && !box.dataset.colour) await choose(mine, true);
    else if (box.dataset.colour) remember(k, box.dataset.colour);
  }

  /* ---- the players' page: importing a players file ---- */
  function importForm(form) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = form.file.files[0];
      if (!file) { TC.toast(t("Choose a players file first."), "error"); return; }
      let data;
      try { data = JSON.parse(await file.text()); } catch (err) {
        TC.toast(t("This file is not a players file (it is not JSON)."), "error");
        return;
      }
      try {
        const res = await TC.api("POST", "/api/players/import", data,
          form.pin ? { pin: form.pin.value.trim() } : undefined);
        TC.toast(t("Imported: {n} players.", { n: res.players }));
        setTimeout(() => location.reload(), 600);
      } catch (err) { TC.toast(err.message, "error"); }
    });
  }

  /* ---- a table's page: a dot beside each seat's name and "You are ..." ---- */
  async function tablePage(root) {
    let colours = {};
    let players = [];
    try {
      colours = (await TC.api("GET", "/api/players/colours")).colours || {};
      players = (await TC.api("GET", "/api/tables/" + root.dataset.id)).table.players || [];
    } catch (e) { return; }  // (offline: names without their colours)
    const colourOf = (name) => colours[key(name)];
    function decorate() {
      document.querySelectorAll("#seats .seat").forEach((b) => {
        const name = players[Number(b.dataset.seat)];
        if (name === undefined || b.querySelector(".pdot") || !colourOf(name)) return;
        b.prepend(dot(colourOf(name)), " ");
      });
      const who = document.getElementById("whoami");
      if (!who || who.querySelector(".pdot")) return;
      const mine = players.find((n) => who.textContent === t("You are {name}", { name: n }));
      if (mine !== undefined && colourOf(mine)) who.prepend(dot(colourOf(mine)), " ");
    }
    decorate();
    new MutationObserver(decorate).observe(root.querySelector(".head"), { childList: true, subtree: true });
    const seats = document.getElementById("seats");
    if (seats) new MutationObserver(decorate).observe(seats, { childList: true });
  }

  document.addEventListener("DOMContentLoaded", async () => {
    await TC.loadCatalog();
    const player = document.getElementById("player");
    if (player) playerPage(player);
    const form = document.getElementById("import-form");
    if (form) importForm(form);
    const table = document.getElementById("table");
    if (table) tablePage(table);
    // (the buttons are the server's; a tap before this line was heard by no one)
    document.documentElement.dataset.playersReady = "1";
  });
})();
