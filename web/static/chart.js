/* Running totals as an SVG line chart, with a legend of whose line is whose (the score pad,
   UNO's match): no chart library, no CDN. Drawn at the width it is shown (its viewBox is its
   width), so its words are TICK_PX on any phone: a chart drawn 340 units wide and scaled to
   a 360 px phone had 9.7 px ticks, and its fixed margin cut the minus off "-1200". */
(function () {
  "use strict";
  const TC = window.TC;
  TC.CHART_COLOURS = ["#ff6b6b", "#4dabf7", "#ffd43b", "#51cf66", "#cc5de8", "#ff922b", "#22b8cf",
    "#f06595", "#94d82d", "#845ef7", "#fab005", "#20c997"];
  TC.chartColour = (i) => TC.CHART_COLOURS[i % TC.CHART_COLOURS.length];
  const TICK_PX = 14;
  const NS = "http://www.w3.org/2000/svg";

  let measurer = null;
  function textWidth(text, font) {
    measurer = measurer || document.createElement("canvas").getContext("2d");
    measurer.font = TICK_PX + "px " + font;
    return measurer.measureText(String(text)).width;
  }

  /* The chart of ``series`` (per player, the totals after each round, from 0) for a box
     ``width`` px wide; ``target`` (optional) is drawn as a dashed line where it is in view;
     ``xLabel`` (optional) words the horizontal axis's end (default "round n").
     Returns [svg, legend]. */
  TC.chart = function ({ series, names, width, target, font, xLabel }) {
    const t = TC.t;
    const W = Math.max(200, Math.round(width || 300));
    const H = Math.round(Math.min(280, Math.max(190, W * 0.62)));
    const all = series.flat();
    const lo = Math.min(0, ...all);
    const hi = Math.max(1, target && all.some((v) => v > target / 2) ? target : 1, ...all);
    const n = Math.max(1, series[0] ? series[0].length - 1 : 1);
    // the values written on the axis: the highest, the lowest, and 0 between them where
    // there is room
    const ticks = [hi, lo];
    const T = Math.ceil(TICK_PX * 0.8), B = TICK_PX + 14;
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
    if (lo < 0 && hi > 0 && y(0) - y(hi) > TICK_PX * 1.3 && y(lo) - y(0) > TICK_PX * 1.3) ticks.push(0);
    const face = font || getComputedStyle(document.body).fontFamily;
    const L = Math.ceil(Math.max(...ticks.map((v) => textWidth(v, face)))) + 12, R = 10;
    const x = (k) => L + (k * (W - L - R)) / n;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("Totals over the rounds"));
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    add("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "axis" });
    add("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" });
    if (target && target <= hi) add("line", { x1: L, y1: y(target), x2: W - R, y2: y(target), class: "axis target" });
    const label = (tx, ty, text, anchor) => {
      const e = add("text", { x: tx, y: ty, "text-anchor": anchor || "end", class: "tick" }, text);
      e.style.fontSize = TICK_PX + "px";
      return e;
    };
    for (const v of ticks) label(L - 6, y(v) + TICK_PX * 0.35, v).setAttribute("data-value", v);
    // (``xLabel(n)``: a game whose points are not rounds names its own, Kingsburg's year)
    label(W - R, H - 6, xLabel ? xLabel(n) : t("round {n}", { n }), "end");
    // Lines that run together (two players on the same score over a round) are drawn side
    // by side, a line's width apart: one of them was hidden under the other.
    const STEP = 3.5;
    const off = series.map((pts) => pts.map(() => 0));
    const along = (p, q, k) => p[k] === q[k] && ((k > 0 && p[k - 1] === q[k - 1]) || (k + 1 < p.length && p[k + 1] === q[k + 1]));
    for (let k = 0; k <= n; k++) {
      const groups = new Map();
      series.forEach((pts, i) => {
        if (!series.some((q, j) => j !== i && along(pts, q, k))) return;
        const g = groups.get(pts[k]) || [];
        g.push(i);
        groups.set(pts[k], g);
      });
      for (const g of groups.values()) g.forEach((i, j) => { off[i][k] = (j - (g.length - 1) / 2) * STEP; });
    }
    series.forEach((pts, i) => add("polyline", {
      points: pts.map((v, k) => x(k) + "," + (y(v) + off[i][k])).join(" "),
      stroke: TC.chartColour(i), class: "series", "data-seat": i,
    }));
    const legend = TC.el("ul", { class: "legend" }, names.map((name, i) => TC.el("li", { "data-seat": i },
      TC.el("span", { class: "key", style: "background:" + TC.chartColour(i) }), TC.el("span", { text: name }))));
    return [svg, legend];
  };
})();
