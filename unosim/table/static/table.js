// unosim play: the page only shows; the engine decides. Legal actions are the only
// clickable elements (data-action="ID"); the round's end is an element with
// data-round-over and data-winner.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  let game = null;
  const $ = (id) => document.getElementById(id);

  function colourOf(text) {
    const c = text.split(" ")[0];
    return ["red", "yellow", "green", "blue"].includes(c) ? c : "wild";
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  async function call(path, body) {
    const opts = { headers: { "X-Unosim-Token": token } };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    const data = await r.json().catch(() => ({ error: "the server answered " + r.status }));
    if (!r.ok || data.error) throw new Error(data.error || "error " + r.status);
    return data;
  }

  function show(v) {
    game = v.game;
    $("error").textContent = "";
    $("table").hidden = false;
    const seats = $("seats");
    seats.replaceChildren();
    v.sizes.forEach((n, s) => {
      const who = s === v.seat ? "you" : "seat " + s + " (" + v.opponents[s > v.seat ? s - 1 : s] + ")";
      seats.append(el("span", who + ": " + n + " cards", s === v.seat ? "me" : ""));
    });
    $("top").replaceChildren(el("span", v.top.text, "card " + colourOf(v.top.text)));
    $("colour").textContent = "colour: " + v.colour;
    $("pending").textContent = v.pending ? "pending penalty: " + v.pending : "";
    const hand = $("hand");
    hand.replaceChildren(...v.hand.map((c) => el("span", c.text, "card " + colourOf(c.text))));
    $("decision").textContent = v.over ? "" : "Your move";
    const actions = $("actions");
    actions.replaceChildren(...v.legal.map((a) => {
      const b = el("button", a.text);
      b.type = "button";
      b.dataset.action = String(a.id);
      b.addEventListener("click", () => act(a.id));
      return b;
    }));
    const score = $("score");
    if (v.match) {
      score.hidden = false;
      score.textContent = "Match to " + v.match.target + ", round " + v.match.round + ": " +
        v.match.scores.map((p, s) => (s === v.seat ? "you " : "seat " + s + " ") + p).join(", ");
    } else {
      score.hidden = true;
    }
    const note = $("agent-note");
    note.hidden = !(v.agent && v.agent.fallbacks);
    note.textContent = v.agent && v.agent.fallbacks ? "Your agent (seat " + v.agent.seats.join(", ") +
      ") failed " + v.agent.fallbacks + " decision(s) and drew or passed instead: " + v.agent.error : "";
    $("hint").hidden = true;
    $("hint-note").textContent = "";
    $("hint-button").disabled = v.over || v.legal.length === 0;
    const events = $("events");
    events.replaceChildren(...v.events.map((t) => el("li", t)));
    $("history").hidden = v.events.length === 0;
    const end = $("end");
    if (v.over) {
      end.hidden = false;
      end.replaceChildren();
      const line = el("div", v.winner === null || v.winner < 0 ? "No winner (turn limit)."
        : (v.winner === v.seat ? "You won" : "Seat " + v.winner + " won") + ", scoring " + v.points + " points.");
      line.dataset.roundOver = "";
      line.dataset.winner = String(v.winner);
      end.append(line);
      (v.hands || []).forEach((h, s) => {
        end.append(el("div", (s === v.seat ? "you" : "seat " + s) + ": " +
          (h.length ? h.map((c) => c.text).join(", ") : "no cards")));
      });
      if (v.match) {
        const done = v.match.over;
        const best = Math.max(...v.match.scores);
        end.append(el("div", done ? "The match is over: " + v.match.scores.map((p, s) => p === best
          ? (s === v.seat ? "you" : "seat " + s) : null).filter((x) => x).join(" and ") +
          " reached " + v.match.target + "." : "Scores after round " + v.match.round + ": " +
          v.match.scores.join(", ") + " (first to " + v.match.target + ")."));
        if (!done) {
          const more = el("button", "Next round");
          more.type = "button";
          more.id = "next-round";
          more.addEventListener("click", nextRound);
          end.append(more);
        }
      }
      if (v.finding) end.append(el("p", v.finding, "finding"));
      const again = el("button", v.match ? "New match" : "Deal again");
      again.type = "button";
      again.addEventListener("click", () => $("setup").requestSubmit());
      end.append(again);
    } else {
      end.hidden = true;
      end.replaceChildren();
    }
  }

  async function act(id) {
    for (const b of document.querySelectorAll("button[data-action]")) b.disabled = true;
    try {
      show(await call("/api/act", { game: game, action: id }));
    } catch (e) {
      $("error").textContent = e.message;
    }
  }

  async function nextRound() {
    try {
      show(await call("/api/next", { game: game }));
    } catch (e) {
      $("error").textContent = e.message;
    }
  }

  async function askHint() {
    $("hint-button").disabled = true;
    $("hint-note").textContent = "thinking...";
    try {
      const h = await call("/api/hint", { game: game });
      const body = $("hint").querySelector("tbody");
      body.replaceChildren(...h.actions.map((a) => {
        const tr = el("tr", undefined, a.id === h.best ? "best" : "");
        tr.append(el("td", a.text));
        tr.append(el("td", a.win === null ? "" : Math.round(100 * a.win) + "% (" +
          Math.round(100 * a.low) + " to " + Math.round(100 * a.high) + ")"));
        tr.append(el("td", String(h.deals)));
        return tr;
      }));
      $("hint").hidden = h.actions.length === 0;
      $("hint-note").textContent = h.note || "";
    } catch (e) {
      $("error").textContent = e.message;
    }
    $("hint-button").disabled = false;
  }

  async function deal(form) {
    const f = new FormData(form);
    try {
      show(await call("/api/new", {
        rules: f.get("rules"), house: f.get("house"), players: f.get("players"),
        opponents: f.get("opponents"), seed: f.get("seed"), budget: f.get("budget"),
        match: f.get("match") === "on",
      }));
    } catch (e) {
      $("error").textContent = e.message;
    }
  }

  async function start() {
    const form = $("setup");
    try {  // the opponents this server offers (its agent file, if it has one)
      const setup = await call("/api/setup");
      form.elements.opponents.replaceChildren(...setup.opponents.map((o) => el("option", o)));
    } catch (e) {
      $("error").textContent = e.message;
    }
    const select = form.elements.opponents;
    const wanted = params.get("opponents");
    if (wanted !== null && !Array.from(select.options).some((o) => o.value === wanted)) {
      select.append(el("option", wanted));  // one per seat, "random,expert,random"
    }
    for (const name of ["rules", "house", "players", "opponents", "seed", "budget"]) {
      if (params.has(name)) form.elements[name].value = params.get(name);
    }
    if (params.has("match")) form.elements.match.checked = params.get("match") !== "";
    form.addEventListener("submit", (e) => { e.preventDefault(); deal(form); });
    $("hint-button").addEventListener("click", askHint);
    if (params.has("players") || params.has("rules")) deal(form);
  }
  start();
})();
