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
      const again = el("button", "Deal again");
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

  async function deal(form) {
    const f = new FormData(form);
    try {
      show(await call("/api/new", {
        rules: f.get("rules"), house: f.get("house"), players: f.get("players"),
        opponents: f.get("opponents"), seed: f.get("seed"),
      }));
    } catch (e) {
      $("error").textContent = e.message;
    }
  }

  const form = $("setup");
  for (const name of ["rules", "house", "players", "opponents", "seed"]) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); deal(form); });
  if (params.has("players") || params.has("rules")) deal(form);
})();
