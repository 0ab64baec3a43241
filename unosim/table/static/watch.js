// unosim replay --html: step through a replayed round with every hand open. The round
// is the JSON in #replay-data (shown with textContent only); each step is a line of the
// text replay, annotated as the move checker judged it.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  const last = steps.length - 1;
  const $ = (id) => document.getElementById(id);
  let at = 0;
  let timer = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  const colours = new Map(data.card_colours);
  function colourOf(card) {
    return colours.get(card) || "";
  }

  function moveItem(s, i) {
    const li = el("li", s.who + ": " + s.text);
    li.dataset.row = String(s.row);
    li.dataset.turns = String(s.turns);
    li.dataset.state = s.state;
    li.dataset.step = String(i);
    if (s.violations.length) li.classList.add("bad");
    return li;
  }

  const moves = $("moves");
  function show(i) {
    at = Math.max(0, Math.min(last, i));
    const s = steps[at];
    $("move").textContent = "Turn " + s.turns + ", " + s.who + ": " + s.text;
    const check = $("check");
    if (s.violations.length) {
      check.textContent = "\u2717 the move checker: " + s.violations.join("; ");
      check.className = "bad";
    } else {
      check.textContent = "\u2713 the move checker: follows the rules";
      check.className = "ok";
    }
    $("pile").textContent = s.top === null ? "Dealing: draw pile " + s.draw_pile + " cards."
      : "Top card " + s.top + ", colour to follow " + s.colour + ", play goes " +
        (s.direction === 1 ? "clockwise" : "counter-clockwise") +
        (s.pending ? ", pending penalty +" + s.pending : "") +
        "; draw pile " + s.draw_pile + ", discard pile " + s.discard_pile + ".";
    const hands = $("hands");
    hands.replaceChildren(...s.hands.map((h, q) => {
      const row = el("div", undefined, "seat" + (s.seat === q ? " acting" : ""));
      row.dataset.seat = String(q);
      row.append(el("span", "seat " + q + " (" + data.strategies[q] + "), " + h.length +
        (h.length === 1 ? " card" : " cards"), "who"));
      for (const c of h) row.append(el("span", c, "card " + colourOf(c)));
      return row;
    }));
    // the moves so far: items are added and removed, never rebuilt from text
    while (moves.children.length > at + 1) moves.lastElementChild.remove();
    while (moves.children.length < at + 1) {
      const k = moves.children.length;
      moves.append(moveItem(steps[k], k));
    }
    for (const li of moves.querySelectorAll("li.current")) li.classList.remove("current");
    const cur = moves.children[at];
    cur.classList.add("current");
    cur.scrollIntoView({ block: "nearest" });
    $("slider").value = String(at);
    $("position").textContent = "step " + (at + 1) + " of " + steps.length;
    $("first").disabled = $("prev").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === last;
    const end = $("end");
    if (at === last) {
      end.hidden = false;
      end.replaceChildren();
      const line = el("div", data.winner === null ? "No winner: the turn limit ended the round."
        : "Seat " + data.winner + " wins " + data.points + " points after " + data.turns + " turns.");
      line.dataset.roundOver = "";
      line.dataset.winner = String(data.winner === null ? -1 : data.winner);
      end.append(line);
      for (const m of data.round_violations) end.append(el("div", "\u2717 " + m));
      if (timer !== null) stop();
    } else {
      end.hidden = true;
      end.replaceChildren();
    }
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    $("play").textContent = "\u25b6 play";
  }

  function play() {
    if (timer !== null) return stop();
    if (at === last) show(0);
    $("play").textContent = "\u25a0 pause";
    const rate = Number($("speed").value) || 2;
    timer = setInterval(() => show(at + 1), 1000 / rate);
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(last));
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });
  const slider = $("slider");
  slider.max = String(last);
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === " ") { e.preventDefault(); play(); }
  });
  show(0);
})();
