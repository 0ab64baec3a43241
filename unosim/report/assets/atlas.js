// The rules atlas's script (reports/atlas/atlas.js, copied there by
// unosim/report/atlas_page.py). It reads the grid's description (#atlas-config) and the
// figures' Vega-Lite specifications (#atlas-specs), builds the controls, keeps the
// choice in the URL fragment (#rules=<compare syntax>&players=N&strategies=random|table),
// loads the data files a choice needs by <script> (so the page works from file://) and
// writes the answer. Every number it shows sits in an element with data-metric and
// data-value (unrounded); every text goes in through textContent.
(function () {
"use strict";
const CFG = JSON.parse(document.getElementById("atlas-config").textContent);
const SPECS = JSON.parse(document.getElementById("atlas-specs").textContent);
const SW = CFG.switches, NS = SW.length;
const F = {}; CFG.fields.forEach((f, i) => { F[f] = i; });
const NF = CFG.fields.length;
const ED = {}; CFG.editions.forEach(e => { ED[e.id] = e; });
// a permalink's values are outside text: they are looked up as own keys only (never
// through the prototype: "toString", "constructor", "__proto__" are no keys here)
const own = (obj, key) => obj != null && Object.prototype.hasOwnProperty.call(obj, key);
const QUESTIONS = ["stacking", "first", "seven_zero", "length", "editions"];
const store = {}, packed = {}, loading = {};
window.atlasPut = function (name, text) { packed[name] = text; };

function need(name) {
  if (store[name]) return Promise.resolve(store[name]);
  if (!loading[name]) {
    loading[name] = new Promise((ok, fail) => {
      const s = document.createElement("script");
      s.src = "atlas/data/" + name + ".js";
      s.onload = () => (typeof packed[name] === "string" ? ok(unpack(packed[name]))
                                                          : fail(new Error("no data in " + name)));
      s.onerror = () => fail(new Error("data file missing: " + name));
      document.head.appendChild(s);
    }).then(cells => { store[name] = cells; delete packed[name]; return cells; });
  }
  return loading[name];
}

// ------------------------------------------------------------------ packed data
// A data file holds its group's cells packed (unosim/report/atlas_data.py says how):
// base64 of zlib-deflated unsigned LEB128 numbers; a header (format, cells, the widths
// of fields, wins, turns bins and points bins), the keys as differences, then the rows
// column by column as zigzag differences from each cell's parent. Numbers stay below
// 2**53, so they are read with arithmetic, not 32-bit bit operations.
const PACK_FORMAT = 1;
function parentKey(key) {
  for (let i = key.length - 1; i > 0; i--)
    if (key[i] !== "0") return key.slice(0, i) + "0" + key.slice(i + 1);
  return null;
}
async function unpack(text) {
  const bin = atob(text), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const raw = new Uint8Array(await new Response(inflated).arrayBuffer());
  let at = 0;
  const next = () => {
    let value = 0, scale = 1, b;
    do {
      if (at >= raw.length) throw new Error("packed data cut short");
      b = raw[at++]; value += (b & 127) * scale; scale *= 128;
    } while (b & 128);
    return value;
  };
  if (next() !== PACK_FORMAT) throw new Error("packed data of another format");
  const count = next(), widths = [next(), next(), next(), next()];
  const width = widths[0] + widths[1] + widths[2] + widths[3];
  const keys = [];
  for (let i = 0, k = 0; i < count; i++) { k += next(); keys.push(String(k).padStart(1 + NS, "0")); }
  const rows = keys.map(() => new Array(width));
  for (let j = 0; j < width; j++)
    for (let i = 0; i < count; i++) { const z = next(); rows[i][j] = z % 2 ? -(z + 1) / 2 : z / 2; }
  if (at !== raw.length) throw new Error("packed data runs on past its cells");
  const index = new Map(keys.map((k, i) => [k, i]));
  const cells = {}, [nf, nw, nt] = widths;
  keys.forEach((k, i) => {  // a parent is a smaller key: already whole
    const r = rows[i], p = index.get(parentKey(k));
    if (p !== undefined) for (let j = 0; j < width; j++) r[j] += rows[p][j];
    cells[k] = r.slice(0, nf).concat([r.slice(nf, nf + nw), r.slice(nf + nw, nf + nw + nt),
                                      r.slice(nf + nw + nt)]);
  });
  return cells;
}

// ------------------------------------------------------------------ keys and syntax
function edValues(ed) {
  return SW.map(s => (s.rule in ed.sets ? s.values.indexOf(ed.sets[s.rule]) : 0));
}
function keyOf(deck, vals) { return String(deck) + vals.join(""); }
function simKey(deck, vals, strategy) {
  const v = vals.slice();
  SW.forEach((s, i) => {
    if (strategy === "random" && CFG.random_ignores.includes(s.rule)) v[i] = 0;
  });
  const wd4 = SW.findIndex(s => s.rule === "wd4_restriction");
  const ch = SW.findIndex(s => s.rule === "challenge");
  if (strategy === "table" && SW[wd4].values[v[wd4]] === "none") v[ch] = 0;
  return keyOf(deck, v);
}
function valid(vals) {
  const d = SW.findIndex(s => s.rule === "draw_rule"), a = SW.findIndex(s => s.rule === "after_draw");
  return !(SW[d].values[vals[d]] === "until_playable" && SW[a].values[vals[a]] === "pass");
}
function presetOf(edId) { return edId === "official-2018-swap" ? "official-2018" : edId; }
function syntax(st) {
  const ed = ED[st.edition], base = edValues(ed), parts = [];
  if (st.edition === "official-2018-swap") parts.push("blank_card=swap_hands");
  SW.forEach((s, i) => { if (st.vals[i] !== base[i]) parts.push(s.rule + "=" + s.syntax[st.vals[i]]); });
  return presetOf(st.edition) + (parts.length ? "+" + parts.join(",") : "");
}
function parseRules(text) {
  const plus = text.indexOf("+");
  let preset = plus < 0 ? text : text.slice(0, plus);
  const house = plus < 0 ? [] : text.slice(plus + 1).split(",").filter(x => x);
  if (!CFG.editions.some(e => e.id === preset) || preset === "official-2018-swap")
    throw new Error("unknown edition '" + preset + "'");
  let edition = preset;
  const changes = [];
  for (const item of house) {
    const eq = item.indexOf("=");
    if (eq < 0) throw new Error("'" + item + "' must be rule=value");
    const rule = item.slice(0, eq), value = item.slice(eq + 1).toLowerCase();
    if (rule === "blank_card" && preset === "official-2018" && value === "swap_hands") {
      edition = "official-2018-swap"; continue;
    }
    const i = SW.findIndex(s => s.rule === rule);
    if (i < 0) throw new Error("the atlas has no switch '" + rule + "'");
    const j = SW[i].syntax.indexOf(value);
    if (j < 0) throw new Error("'" + value + "' is not a value of " + rule);
    changes.push([i, j]);
  }
  const vals = edValues(ED[edition]);
  for (const [i, j] of changes) vals[i] = j;
  if (!valid(vals)) throw new Error("after_draw=pass cannot go with draw_rule=until_playable");
  return {edition, vals};
}

// ------------------------------------------------------------------ statistics
function meanSe(s, ss, k) {
  const m = s / k;
  const v = k > 1 ? (k * ss - s * s) / (k * (k - 1)) : NaN;
  return [m, Math.sqrt(Math.max(v, 0) / k)];
}
function wilson(k, n) {
  const z = 1.959963984540054, p = k / n, d = 1 + z * z / n;
  const c = (p + z * z / (2 * n)) / d, h = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}
function stats(c, n) {
  const g = c[F.games], tr = c[F.truncated], done = g - tr;
  const [tm, tse] = meanSe(c[F.turns_sum], c[F.turns_sumsq], done);
  const [pm, pse] = meanSe(c[F.points_sum], c[F.points_sumsq], done);
  const [dm, dse] = meanSe(c[F.drawn_sum], c[F.drawn_sumsq], g);
  const wins = c[NF], rates = wins.map(w => w / g);
  return {games: g, completed: done, turns_mean: tm, turns_se: tse,
          turns_median: c[F.turns_median2] / 2, turns_p90: c[F.turns_p90x2] / 2,
          points_mean: pm, points_se: pse, cards_drawn_mean: dm, drawn_se: dse,
          stack8_share: c[F.big_penalty] / g, truncated_share: tr / g,
          rates: rates, ci: wins.map(w => wilson(w, g)), seat0_rate: rates[0],
          seat0_edge: rates[0] - 1 / n, challenges: c[F.challenges] / g,
          bluffs: c[F.bluffs] / g, uno_penalties: c[F.uno_penalties] / g,
          th: c[NF + 1], ph: c[NF + 2]};
}

// ------------------------------------------------------------------ words
const fmt = (x, d) => x.toLocaleString("en-GB", {minimumFractionDigits: d, maximumFractionDigits: d});
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v; else if (k === "cls") e.className = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}
function num(metric, value, text) {
  return el("span", {"data-metric": metric, "data-value": String(value), text: text});
}
function rel(a, b, ase, bse, more, less, what, metric, lead) {
  // a relative difference of a over b, in words, with the threshold of notice
  const d = (a / b - 1) * 100, se = 100 * Math.sqrt((ase / b) ** 2 + (a * bse / (b * b)) ** 2);
  if (Math.abs(d) < CFG.thresholds.relative)
    return el("span", {cls: "nopd"}, "no practical difference in " + what + " (",
              num(metric, d, (d >= 0 ? "+" : "−") + fmt(Math.abs(d), 1) + "%"), ")");
  // from twice on, a factor reads better than a percent ("18.6 times as long")
  const text = d >= 100 ? fmt(a / b, 1) + " times " + (more === "longer" ? "as long" : "as many")
                        : fmt(Math.abs(d), 0) + "% " + (d > 0 ? more : less);
  const words = [lead || "", num(metric, d, text)];
  if (Math.abs(d) < 1.96 * se) words.push(" (within the noise of these rounds)");
  return el("span", {}, ...words);
}
function pp(a, b, ase, bse, what, metric) {
  const d = (a - b) * 100, se = 100 * Math.sqrt(ase * ase + bse * bse);
  const t = (d >= 0 ? "+" : "−") + fmt(Math.abs(d), 1) + " percentage points";
  if (Math.abs(d) < CFG.thresholds.points)
    return el("span", {cls: "nopd"}, "no practical difference in " + what + " (", num(metric, d, t), ")");
  const out = el("span", {}, what + " ", num(metric, d, t));
  if (Math.abs(d) < 1.96 * se) out.append(" (within the noise of these rounds)");
  return out;
}
function seSeat(s) { return Math.sqrt(s.seat0_rate * (1 - s.seat0_rate) / s.games); }
function comparison(s, b, prefix, all) {
  const bits = [rel(s.turns_mean, b.turns_mean, s.turns_se, b.turns_se, "longer", "shorter",
                    "length", prefix + "_turns", "rounds "), "; ",
                edgeChange(s, b, prefix + "_seat0"),
                "; ",
                rel(s.points_mean, b.points_mean, s.points_se, b.points_se, "more", "fewer",
                    "points", prefix + "_points", "points ")];
  if (all) {
    const se = x => Math.sqrt(x.stack8_share * (1 - x.stack8_share) / x.games);
    bits.push("; ", rel(s.cards_drawn_mean, b.cards_drawn_mean, s.drawn_se, b.drawn_se,
                        "more", "fewer", "cards drawn", prefix + "_drawn", "cards drawn "),
              "; ", pp(s.stack8_share, b.stack8_share, se(s), se(b), "rounds with a big penalty",
                       prefix + "_stack8"));
  }
  return bits;
}
function describe(st) {
  const ed = ED[st.edition], base = edValues(ed), words = [];
  SW.forEach((s, i) => { if (st.vals[i] !== base[i]) words.push(s.labels[st.vals[i]]); });
  return ed.name + (words.length ? " with " + words.join(", ") : " as printed");
}

// ------------------------------------------------------------------ state and URL
let state = {edition: "official", vals: edValues(ED.official), players: 4, strategy: "random", q: ""};
let error = "";
function fragment(st) {
  return "rules=" + syntax(st) + "&players=" + st.players + "&strategies=" + st.strategy +
         (st.q ? "&q=" + st.q : "");
}
function readFragment() {
  const st = {edition: "official", vals: edValues(ED.official), players: 4, strategy: "random", q: ""};
  error = "";
  const h = location.hash.replace(/^#/, "");
  if (!h) return st;
  try {
    for (const part of h.split("&")) {
      const eq = part.indexOf("="), k = part.slice(0, eq), v = decodeURIComponent(part.slice(eq + 1));
      if (k === "rules") Object.assign(st, parseRules(v));
      else if (k === "players") {
        st.players = Number(v);
        if (!(st.players >= 2 && st.players <= 10 && Number.isInteger(st.players)))
          throw new Error("players must be 2 to 10");
      } else if (k === "strategies") {
        if (!own(CFG.strategies, v))
          throw new Error("players are " + Object.keys(CFG.strategies).join(" or "));
        st.strategy = v;
      } else if (k === "q") {
        if (v && !QUESTIONS.includes(v)) throw new Error("no common question '" + v + "'");
        st.q = v;
      }
    }
  } catch (e) {
    error = "This link does not name a choice of the atlas (" + e.message + "); showing official rules.";
    return {edition: "official", vals: edValues(ED.official), players: 4, strategy: "random", q: ""};
  }
  return st;
}

// ------------------------------------------------------------------ controls
const form = document.getElementById("controls");
function radio(group, id, label, checked, onPick, disabled) {
  const input = el("input", {type: "radio", name: group, id: id});
  input.checked = checked; input.disabled = !!disabled;
  input.addEventListener("change", onPick);
  return el("label", {for: id, cls: disabled ? "off" : ""}, input, " " + label);
}
function buildControls() {
  form.textContent = "";
  const fsE = el("fieldset", {}, el("legend", {text: "Edition"}));
  CFG.editions.forEach(e => fsE.append(radio("edition", "edition-" + e.id, e.name,
    state.edition === e.id, () => { state.edition = e.id; state.vals = edValues(e); go(); })));
  form.append(fsE);
  SW.forEach((s, i) => {
    const fs = el("fieldset", {}, el("legend", {text: s.name}));
    s.short.forEach((lab, j) => {
      const trial = state.vals.slice(); trial[i] = j;
      fs.append(radio("sw-" + s.rule, "sw-" + s.rule + "-" + j, lab, state.vals[i] === j,
        () => { state.vals[i] = j; if (!valid(state.vals)) fixAfterDraw(); go(); },
        !valid(trial) && state.vals[i] !== j && s.rule === "after_draw"));
    });
    form.append(fs);
  });
  const fsP = el("fieldset", {}, el("legend", {text: "Players at the table"}));
  for (let n = 2; n <= 10; n++)
    fsP.append(radio("players", "players-" + n, String(n), state.players === n,
                     () => { state.players = n; go(); }));
  form.append(fsP);
  const fsS = el("fieldset", {}, el("legend", {text: "Who plays"}));
  for (const [k, v] of Object.entries(CFG.strategies))
    fsS.append(radio("strategies", "strategies-" + k, v.name, state.strategy === k,
                     () => { state.strategy = k; go(); }));
  fsS.append(el("p", {cls: "note", id: "strategy-text", text: CFG.strategies[state.strategy].text}));
  form.append(fsS);
  const link = el("input", {id: "link", readonly: "", "aria-label": "link to this answer"});
  const here = location.href.split("#")[0] + "#" + fragment(state);
  link.value = here;
  const copy = el("button", {type: "button", id: "copy", text: "Copy the link to this answer"});
  copy.addEventListener("click", () => {
    link.select();
    const done = () => { copy.textContent = "Link copied"; };
    if (navigator.clipboard && window.isSecureContext)
      navigator.clipboard.writeText(here).then(done, () => { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  });
  form.append(el("fieldset", {}, el("legend", {text: "Permalink"}), copy, link));
}
function fixAfterDraw() {
  const a = SW.findIndex(s => s.rule === "after_draw");
  state.vals[a] = 0;
}
function go() {
  // the question asked stays: its box answers again for the new choice
  history.replaceState(null, "", "#" + fragment(state));
  render();
}

// ------------------------------------------------------------------ figures
function lengthData(series, n) {
  const w = CFG.turn_width[n], out = [];
  for (const [label, s] of series) {
    for (let b = 0; b <= CFG.turn_bins; b++)
      out.push({rules: label, turns: b * w, share: 100 * (s.th[b] || 0) / s.completed});
  }
  return out;
}
function pointsData(series) {
  const out = [];
  for (const [label, s] of series)
    for (let b = 0; b <= CFG.point_bins; b++)
      out.push({rules: label, points: b * CFG.point_width, share: 100 * (s.ph[b] || 0) / s.completed});
  return out;
}
function embed(id, spec, values, domain) {
  const sp = JSON.parse(JSON.stringify(spec));
  const put = o => { if (o.data) o.data = {values: values}; (o.layer || []).forEach(put); };
  put(sp);
  if (domain && sp.encoding && sp.encoding.color) sp.encoding.color.scale.domain = domain;
  return vegaEmbed("#" + id, sp, {actions: false, renderer: "svg"});
}

// ------------------------------------------------------------------ the answer
let ticket = 0;
function render() {
  const my = ++ticket, t0 = performance.now();
  buildControls();
  const st = state, n = st.players, strat = st.strategy;
  const ed = ED[st.edition], deck = ed.deck;
  const answer = document.getElementById("answer");
  const built = (CFG.built[strat] || []).includes(n);
  document.body.dataset.rendered = "";
  if (!built) {
    answer.textContent = "";
    answer.append(el("p", {text: "This build of the atlas has no rounds for " + n + " " +
      CFG.strategies[strat].name + " (built: " + ((CFG.built[strat] || []).join(", ") || "none") +
      "). Run make atlas to build the full grid."}));
    document.body.dataset.rendered = fragment(st);
    return Promise.resolve();
  }
  const group = d => strat + "-" + CFG.decks[d].id + "-" + n;
  const wanted = [group(deck), group(0)];
  if (st.q === "editions") CFG.decks.forEach((_, d) => wanted.push(group(d)));
  return Promise.all(wanted.map(need)).then(() => {
    if (my !== ticket) return;
    const cells = store[group(deck)];
    const get = (d, vals) => store[group(d)][simKey(d, vals, strat)];
    const s = stats(get(deck, st.vals), n);
    const printed = edValues(ed), off = edValues(ED.official);
    const isPrinted = printed.every((v, i) => v === st.vals[i]);
    const isOfficial = deck === 0 && off.every((v, i) => v === st.vals[i]);
    const sp = stats(get(deck, printed), n), so = stats(get(0, off), n);
    answer.textContent = "";
    if (error) answer.append(el("p", {cls: "note", id: "link-error", text: error}));
    answer.append(el("h2", {text: describe(st) + ", " + n + " " + CFG.strategies[strat].name}));
    answer.append(verdicts(st, s, sp, isPrinted, ed, n));
    const fair = 1 / n;
    answer.append(
      el("p", {cls: "big"}, "A round lasts ", num("turns_mean", s.turns_mean, fmt(s.turns_mean, 1)),
         " turns on average (", minutesNum("minutes_mean", s.turns_mean), " at ", paceNum(),
         " seconds a turn); half of the rounds are over within ",
         num("turns_median", s.turns_median, fmt(s.turns_median, 0)),
         " turns, and one round in ten lasts more than ",
         num("turns_p90", s.turns_p90, fmt(s.turns_p90, 0)), " turns."),
      el("p", {}, Math.abs(s.seat0_edge) * 100 < CFG.thresholds.points
         ? "Going first makes no practical difference: the first player (seat 0) wins "
         : "Going first " + (s.seat0_edge > 0 ? "helps" : "hurts") + ": the first player (seat 0) wins ",
         num("seat0_rate", s.seat0_rate, fmt(100 * s.seat0_rate, 1) + "%"),
         " of rounds against a fair share of " + fmt(100 * fair, 1) + "%, an edge of ",
         num("seat0_edge_pp", 100 * s.seat0_edge, (s.seat0_edge >= 0 ? "+" : "−") +
             fmt(Math.abs(100 * s.seat0_edge), 1) + " percentage points"), "."),
      el("p", {}, "The winner scores ", num("points_mean", s.points_mean, fmt(s.points_mean, 0)),
         " points a round on average, and the table draws ",
         num("cards_drawn_mean", s.cards_drawn_mean, fmt(s.cards_drawn_mean, 1)),
         " cards a round in all (after the deal)."),
      el("p", {}, "Big penalties: in ", num("stack8_share", s.stack8_share, fmt(100 * s.stack8_share, 1) + "%"),
         " of rounds someone faces " + CFG.big_penalty + " cards or more to draw at once. ",
         num("truncated_share", s.truncated_share, fmt(100 * s.truncated_share, 2) + "%"),
         " of rounds were stopped unfinished at 5,000 turns: they count as rounds nobody" +
         " won, and the lengths and points above are of the rounds that finished" +
         (s.truncated_share >= 0.01 ? ", so here rounds run even longer than those figures say."
                                     : ".")));
    if (strat === "table")
      answer.append(el("p", {}, "Per round: ", num("challenges_mean", s.challenges, fmt(s.challenges, 2)),
        " challenges, ", num("bluffs_mean", s.bluffs, fmt(s.bluffs, 2)), " bluffed Wild Draw Fours, ",
        num("uno_penalties_mean", s.uno_penalties, fmt(s.uno_penalties, 2)), " forgotten UNO calls caught."));
    const cmp = el("p", {});
    if (isPrinted) cmp.append("These are the rules of " + ed.name + " as printed. ");
    else cmp.append("Against " + ed.name + " as printed: ", ...comparison(s, sp, "vs_printed", true), ". ");
    if (!isOfficial && st.edition !== "official")
      cmp.append("Against official UNO: ", ...comparison(s, so, "vs_official", true), ".");
    answer.append(cmp);
    answer.append(el("p", {cls: "note"}, "From ", num("rounds", s.games, s.games.toLocaleString("en-GB")),
      " simulated rounds: the mean length is known within ±" + fmt(1.96 * s.turns_se, 1) +
      " turns and a win rate within ±" + fmt(196 * Math.sqrt(fair * (1 - fair) / s.games), 1) +
      " percentage points (95%). Differences under " + CFG.thresholds.relative +
      "% of round length, points or cards, or under " + CFG.thresholds.points +
      " percentage points of a win rate, make no practical difference. To type these rules: ",
      el("code", {text: syntax(st)})));
    flips(st, s, get, deck, n, strat);
    question(st, s, get, n, strat);
    const base = isPrinted ? (isOfficial ? null : ["Official UNO", so]) : [ed.name + " as printed", sp];
    const series = [["your rules", s]].concat(base ? [base] : []);
    const dom = series.map(x => x[0]);
    const seatVals = s.rates.map((r, i) => ({seat: i, rate: 100 * r, lo: 100 * s.ci[i][0],
                                             hi: 100 * s.ci[i][1], fair: 100 * fair}));
    return Promise.all([embed("fig-length", SPECS.length, lengthData(series, n), dom),
                        embed("fig-seats", SPECS.seats, seatVals),
                        embed("fig-points", SPECS.points, pointsData(series), dom)]);
  }).then(() => {
    if (my !== ticket) return;
    document.body.dataset.renderMs = String(performance.now() - t0);
    document.body.dataset.rendered = fragment(st);
  }, e => {
    answer.textContent = "";
    answer.append(el("p", {id: "load-error", text: "Could not load the data: " + e.message}));
    document.body.dataset.rendered = "error";
  });
}

function flips(st, s, get, deck, n, strat) {
  const box = document.getElementById("flips");
  box.textContent = "";
  box.append(el("h3", {text: "What flipping one rule from here would change"}));
  const ul = el("ul", {});
  SW.forEach((sw, i) => {
    sw.labels.forEach((lab, j) => {
      if (j === st.vals[i]) return;
      const vals = st.vals.slice(); vals[i] = j;
      const li = el("li", {"data-flip": sw.rule + "=" + sw.syntax[j]});
      const bool = typeof sw.values[j] === "boolean" && sw.rule !== "challenge";
      li.append(el("b", {text: bool ? "Turning " + (sw.values[j] ? "on " : "off ") + sw.name + " here: "
                                    : "Switching to " + lab + ": "}));
      if (!valid(vals)) li.append("not allowed with draw until you can play.");
      else if (strat === "random" && CFG.random_ignores.includes(sw.rule))
        li.append(el("span", {cls: "nopd", text: "no difference for random players (they never " +
          "forget UNO, challenge or play several cards at once; pick people at a table to see it)."}));
      else {
        const f = stats(get(deck, vals), n);
        li.append(...comparison(f, s, "flip_" + sw.rule + "_" + sw.syntax[j]), ".");
      }
      ul.append(li);
    });
  });
  box.append(ul);
}

function question(st, s, get, n, strat) {
  const box = document.getElementById("question");
  box.textContent = "";
  box.hidden = !st.q;
  if (!st.q) return;
  const deck = ED[st.edition].deck;
  const at = " at " + n + " players (" + CFG.strategies[strat].name + ")";
  const setv = (rule, j) => { const v = st.vals.slice(); v[SW.findIndex(x => x.rule === rule)] = j; return v; };
  if (st.q === "stacking") {
    const none = stats(get(deck, setv("stacking", 0)), n);
    box.append(el("h3", {text: "Does stacking make games longer?"}));
    [1, 2].forEach(j => {
      const t = stats(get(deck, setv("stacking", j)), n);
      box.append(el("p", {}, "With " + SW[0].labels[j] + at + ", against no stacking: ",
        rel(t.turns_mean, none.turns_mean, t.turns_se, none.turns_se, "longer", "shorter", "length",
            "q_stack" + j, "rounds "),
        "; someone faces 8 or more cards in ",
        num("q_stack8_" + j, t.stack8_share, fmt(100 * t.stack8_share, 1) + "%"), " of rounds (without: " +
        fmt(100 * none.stack8_share, 1) + "%)."));
    });
  } else if (st.q === "first") {
    box.append(el("h3", {text: "How much does going first matter?"}),
      el("p", {cls: "verdict", id: "q-first-verdict", text: firstSentence(s.seat0_rate, n)}),
      el("p", {}, "Seat 0 plays first; it wins ", num("q_seat0", s.seat0_rate, fmt(100 * s.seat0_rate, 1) + "%"),
         " of rounds" + at + ", against a fair share of " + fmt(100 / n, 1) +
         "%. The figure below gives every seat's rate; change the number of players to see it grow or shrink."));
  } else if (st.q === "seven_zero") {
    const off = stats(get(deck, setv("seven_zero", 0)), n), on = stats(get(deck, setv("seven_zero", 1)), n);
    const spread = x => x.turns_p90 / x.turns_median;
    box.append(el("h3", {text: "Is Seven-Zero chaos?"}),
      el("p", {}, "Turning Seven-Zero on" + at + ": ",
         rel(on.turns_mean, off.turns_mean, on.turns_se, off.turns_se, "longer", "shorter", "length",
             "q_sz_turns", "rounds "),
         "; ", pp(on.seat0_edge, off.seat0_edge, seSeat(on), seSeat(off), "seat 0's edge", "q_sz_seat0"),
         "; the long rounds (one in ten lasts more than " + fmt(on.turns_p90, 0) + " turns, against " +
         fmt(off.turns_p90, 0) + ") stand at ",
         num("q_sz_spread", spread(on), fmt(spread(on), 2)), " times the median, against " +
         fmt(spread(off), 2) + " without."));
    const ch = (CFG.chaos[strat] || {})[n];
    if (ch) box.insertBefore(chaosVerdict(ch), box.children[1]);
    if (ch) {
      const per = (x, i) => x[i] / x[0];
      box.append(el("p", {}, "What changes turn by turn (official deck, from " +
        ch.on[0].toLocaleString("en-GB") + " traced rounds each): the lead (the one player " +
        "holding the fewest cards) changes hands ",
        num("q_sz_leads_on", per(ch.on, 1), fmt(per(ch.on, 1), 1)), " times a round with Seven-Zero, against ",
        num("q_sz_leads_off", per(ch.off, 1), fmt(per(ch.off, 1), 1)),
        " without; a hand grows or shrinks by " + CFG.swing + " cards or more at once ",
        num("q_sz_swings_on", per(ch.on, 2), fmt(per(ch.on, 2), 1)), " times a round, against ",
        num("q_sz_swings_off", per(ch.off, 2), fmt(per(ch.off, 2), 1)), " without."));
    }
  } else if (st.q === "length") {
    box.append(el("h3", {text: "How long is a round at " + n + " players?"}),
      el("p", {}, "With these rules a round at " + n + " players lasts ",
         minutesNum("q_len_minutes", s.turns_mean), " (",
         num("q_len", s.turns_mean, fmt(s.turns_mean, 1)), " turns) on average; one in ten lasts more than " +
         fmt(s.turns_p90, 0) + " turns (", minutesNum("q_len_p90_minutes", s.turns_p90), ")."));
  } else if (st.q === "editions") {
    const rows = CFG.editions.map(e => [e, stats(get(e.deck, edValues(e)), n)])
      .sort((a, b) => a[1].turns_mean - b[1].turns_mean);
    box.append(el("h3", {text: "Which edition is quickest" + at + "?"}));
    const ol = el("ol", {}), seen = {};
    rows.forEach(([e, x]) => {
      const k = e.deck + ":" + simKey(e.deck, edValues(e), strat);
      const li = el("li", {"data-edition": e.id}, e.name + ": ",
        num("q_ed_" + e.id, x.turns_mean, fmt(x.turns_mean, 1)), " turns on average");
      if (seen[k]) li.append(" (the same game as " + seen[k] + " for " + CFG.strategies[strat].name + ")");
      else seen[k] = e.name;
      ol.append(li);
    });
    box.append(ol);
  }
}

// ------------------------------------------------------------------ minutes and verdicts
// Minutes beside turns at a stated pace (seconds a turn, an assumption the reader can
// change), and the verdicts in words shown first, each defined by a threshold that the
// page states (CFG.pace, CFG.verdicts; docs/reports.md).
let pace = CFG.pace.default;
function minutesText(m) { return (m < 10 ? fmt(m, 1) : fmt(m, 0)) + " minutes"; }
function minutesNum(metric, turns) {
  const e = num(metric, turns * pace / 60, minutesText(turns * pace / 60));
  e.dataset.turns = String(turns);
  return e;
}
function paceText(p) { return fmt(p, Number.isInteger(p) ? 0 : 1); }
function paceNum() {
  const e = num("seconds_per_turn", pace, paceText(pace));
  e.classList.add("pace");
  return e;
}
function setPace(p) {
  pace = p;
  document.querySelectorAll("[data-turns]").forEach(e => {
    const m = Number(e.dataset.turns) * pace / 60;
    e.dataset.value = String(m); e.textContent = minutesText(m);
  });
  document.querySelectorAll(".pace").forEach(e => {
    e.dataset.value = String(pace); e.textContent = paceText(pace);
  });
}
function buildPace() {
  const box = document.getElementById("pace-form");
  const input = el("input", {type: "number", id: "pace-input", min: String(CFG.pace.min),
                             max: String(CFG.pace.max), step: "1", value: String(pace),
                             "aria-label": "seconds a turn at your table"});
  input.addEventListener("input", () => {
    const p = Number(input.value);
    if (p >= CFG.pace.min && p <= CFG.pace.max) setPace(p);
  });
  box.append(el("fieldset", {}, el("legend", {text: "Pace at your table"}),
    el("label", {for: "pace-input"}, input, " seconds a turn"),
    el("p", {cls: "note", text: CFG.pace.note})));
}
function firstSentence(rate, n) {
  const fair = 100 / n, won = 100 * rate, edge = won - fair, V = CFG.verdicts;
  // whole numbers, unless they would read the same (then one decimal)
  const d = Math.round(won) === Math.round(fair) ? 1 : 0;
  const outOf = "out of 100 rounds the player who goes first wins about " + fmt(won, d) +
                ", where a fair share is " + fmt(fair, d) + ".";
  if (Math.abs(edge) < V.first_pp) return "Going first does not really matter: " + outOf;
  const much = Math.abs(edge) < V.first_a_lot_pp ? " a little" : " a lot";
  return "Going first " + (edge > 0 ? "helps" : "hurts") + much + ": " + outOf;
}
function edgeChange(s, b, metric) {
  // seat 0's edge over a fair share here and in the rules compared with, in one sentence
  const d = (s.seat0_edge - b.seat0_edge) * 100, se = 100 * Math.sqrt(seSeat(s) ** 2 + seSeat(b) ** 2);
  const sign = x => (x >= 0 ? "+" : "−") + fmt(Math.abs(x), 1);
  const move = "seat 0's edge over a fair share is " + sign(100 * s.seat0_edge) + " points here against " +
               sign(100 * b.seat0_edge) + " there (";
  const t = sign(d) + " percentage points";
  if (Math.abs(d) < CFG.thresholds.points)
    return el("span", {cls: "nopd"}, "no practical difference in who wins by seat: " + move, num(metric, d, t), ")");
  const out = el("span", {}, move, num(metric, d, t), ")");
  if (Math.abs(d) < 1.96 * se) out.append(" (within the noise of these rounds)");
  return out;
}
function matters(s, b) {
  // what a change of rules changes in practice (length, points, the first seat's edge),
  // in words; empty: no practical difference
  const th = CFG.thresholds, out = [];
  const dt = 100 * (s.turns_mean / b.turns_mean - 1), dp = 100 * (s.points_mean / b.points_mean - 1);
  const de = 100 * (s.seat0_edge - b.seat0_edge);
  if (Math.abs(dt) >= th.relative) out.push("rounds are " + fmt(Math.abs(dt), 0) + "% " + (dt > 0 ? "longer" : "shorter"));
  if (Math.abs(dp) >= th.relative) out.push("winners score " + fmt(Math.abs(dp), 0) + "% " + (dp > 0 ? "more" : "fewer") + " points");
  if (Math.abs(de) >= th.points) out.push("going first is worth " + fmt(Math.abs(de), 1) +
                                          " percentage points " + (de > 0 ? "more" : "less"));
  return out;
}
function verdicts(st, s, sp, isPrinted, ed, n) {
  const box = el("div", {id: "verdicts", cls: "verdicts"});
  box.append(el("p", {}, el("b", {text: "How long? "}), "About ", minutesNum("minutes_round", s.turns_mean),
                " a round (" + fmt(s.turns_mean, 0) + " turns at ",
                el("span", {cls: "pace", text: paceText(pace)}), " seconds a turn)."));
  box.append(el("p", {}, el("b", {text: "Does going first matter? "}),
                el("span", {id: "first-verdict", text: firstSentence(s.seat0_rate, n)})));
  if (!isPrinted) {
    const what = matters(s, sp);
    box.append(el("p", {}, el("b", {text: "Do your changes matter? "}), what.length
      ? "Yes: against " + ed.name + " as printed, " + what.join("; ") + " (details below)."
      : "Hardly: against " + ed.name + " as printed, no practical difference in length, points " +
        "or the first player's chances."));
  }
  return box;
}
function chaosVerdict(ch) {
  const per = (x, i) => x[i] / x[0], V = CFG.verdicts;
  const leads = per(ch.on, 1) / per(ch.off, 1), swings = per(ch.on, 2) - per(ch.off, 2);
  const chaos = leads >= V.chaos_leads || swings >= V.chaos_swings;
  return el("p", {cls: "verdict", id: "q-chaos-verdict", text: (chaos
    ? "Yes, it is chaos: the lead changes hands " + fmt(leads, 1) + " times as often, and a hand jumps by " +
      CFG.swing + " cards or more " + fmt(per(ch.on, 2), 1) + " times a round (" + fmt(per(ch.off, 2), 1) +
      " without)."
    : "No, hardly more chaos: the lead changes hands " + fmt(leads, 1) + " times as often.") +
    " (Chaos here: the lead changing hands at least " + fmt(100 * (V.chaos_leads - 1), 0) +
    "% more often, or " + fmt(V.chaos_swings, 0) + " more big hand swing a round.)"});
}

function about() {
  const c = CFG.counts, r = CFG.rounds;
  document.getElementById("count-text").textContent =
    c.answers.toLocaleString("en-GB") + " answers (" + c.rule_sets.toLocaleString("en-GB") +
    " rule sets × 9 table sizes × 2 kinds of players; " + c.labelled.toLocaleString("en-GB") +
    " if each of the " + c.editions + " editions counts its own), each from " +
    (r.random || 0).toLocaleString("en-GB") + " rounds of random players or " +
    (r.table || 0).toLocaleString("en-GB") + " rounds of table players.";
  const box = document.getElementById("about");
  box.append(el("h3", {text: "How the atlas was made"}),
    el("p", {text: "Every combination of an edition, the house switches and 2 to 10 players " +
      "was simulated for both kinds of players, with the same seeds in every cell (so two cells " +
      "differ by their rules, not by luck of the deal). Copag and Portugal play the official " +
      "deck, so their rule sets are official ones with other switches. Cells that cannot differ " +
      "share one simulation: for random players the UNO penalty, challenges and multi-card plays " +
      "change nothing (they never forget UNO, challenge or play several cards), so " +
      c.sims_random.toLocaleString("en-GB") + " simulations answer them; for table players a " +
      "challenge is never made when every Wild Draw Four is legal, so " +
      c.sims_table.toLocaleString("en-GB") + " simulations answer them."}),
    el("p", {text: "Percent: win rates and shares of rounds differ in percentage points; " +
      "lengths, points and cards in relative percent."}));
}

window.addEventListener("hashchange", () => { state = readFragment(); render(); });
about();
buildPace();
state = readFragment();
render();
})();
