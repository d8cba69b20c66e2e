// cardsim's table in the browser: draws the view the server sends for this seat, and sends this seat's choices.
// Plain JavaScript, no build step, nothing from elsewhere. The server checks every choice; the page only offers the
// legal ones (the view's options) and explains why another is not.
"use strict";

const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RED = new Set(["H", "D"]);
const SEAT_MARKS = { dealer: "dealer", first_hand: "first hand", declarer: "declarer", partner: "partner" };
const SVG = "http://www.w3.org/2000/svg";
const DECISION_KINDS = { predict: "bid", bid: "bid", auction: "bid", trump: "bid", call: "card", discard: "card", card: "card" };

const state = { socket: null, view: null, hint: null, review: null, token: location.hash.slice(1), focus: 0 };
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = tag === "svg" || ["rect", "text", "path", "circle", "g", "line", "polygon"].includes(tag)
    ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key === "on") for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// --- cards --------------------------------------------------------------------------------------------------

function parseCard(name) {
  const special = /^([WJ])(\d)$/.exec(name);
  if (special) return { special: special[1], rank: special[1] };
  const rank = name.slice(1);
  return { suit: name[0], rank: rank === "T" ? "10" : rank };
}

function cardLabel(name) {
  const card = parseCard(name);
  return card.special ? name : card.rank + SYMBOLS[card.suit];
}

function cardSvg(name, width = 58) {
  const card = parseCard(name);
  const height = Math.round(width * 1.45);
  const tone = card.special ? (card.special === "W" ? "special" : "jester") : (RED.has(card.suit) ? "red" : "black");
  const svg = el("svg", { class: "card", width, height, viewBox: "0 0 58 84", role: "img", "aria-label": cardLabel(name),
    "data-card": name });
  svg.append(el("rect", { class: "face", x: 1, y: 1, width: 56, height: 82, rx: 6 }));
  if (card.special) {
    svg.append(el("rect", { class: tone, x: 6, y: 6, width: 46, height: 72, rx: 4 }));
    svg.append(el("text", { x: 29, y: 52, "text-anchor": "middle", "font-size": 30, fill: "#fff", text: card.special }));
    svg.append(el("text", { x: 29, y: 74, "text-anchor": "middle", "font-size": 10, fill: "#fff", text: name }));
    return svg;
  }
  svg.append(el("text", { class: tone, x: 6, y: 19, "font-size": 16, "font-weight": 700, text: card.rank }));
  svg.append(el("text", { class: tone, x: 6, y: 34, "font-size": 14, text: SYMBOLS[card.suit] }));
  svg.append(el("text", { class: tone, x: 34, y: 70, "text-anchor": "middle", "font-size": 34, text: SYMBOLS[card.suit] }));
  return svg;
}

// --- the connection -----------------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  socket.onopen = () => send({ type: "hello", token: state.token });
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("status").textContent = "connection lost: reconnecting...";
    setTimeout(connect, 1000);
  };
}

function send(data) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(data));
}

function receive(data) {
  if (data.type === "view") {
    window.cardsimViews = (window.cardsimViews || 0) + 1;  // views drawn so far: tests and the benchmark wait on it
    if (!state.view || state.view.round_no !== data.round_no || state.view.game_no !== data.game_no) state.review = null;
    state.view = data;
    state.hint = null;
    state.sent = null;
    render();
    if (state.clicked) {  // the latency benchmark's mark: from a click to the table drawn again
      window.cardsimLatency = (window.cardsimLatency || []).concat(performance.now() - state.clicked);
      state.clicked = null;
    }
  } else if (data.type === "hint") {
    state.hint = data;
    renderHint();
  } else if (data.type === "review") {
    state.review = data;
    renderReview();
  } else if (data.type === "speed") {
    $("speed").value = data.delay;
    $("speed-value").textContent = `${data.delay.toFixed(1)} s`;
  } else if (data.type === "error") {
    say(data.message);
  }
}

function say(text) {
  $("message").textContent = text;
}

function act(action) {
  const view = state.view;
  if (!view || !view.options.length) {
    say(view && view.to_move !== null ? `Wait: it is ${seatName(view.to_move)}'s turn.` : "Nothing to decide now.");
    return;
  }
  say("");
  state.clicked = performance.now();
  send({ type: "act", action });
}

// --- drawing ------------------------------------------------------------------------------------------------

function seatName(seat) {
  const view = state.view;
  if (seat === view.you) return "you";
  const name = view.names[seat];
  return `seat ${seat} (${name}${view.away.includes(seat) ? ", a bot stands in" : ""})`;
}

function perSeat(view) {
  // the observation's fields that hold one value per seat (bids, predictions, points, tricks won)
  return Object.entries(view.seen).filter(([, value]) => Array.isArray(value) && value.length === view.names.length
    && value.every((v) => v === null || typeof v === "number"));
}

function render() {
  const view = state.view;
  $("title").textContent = view.title;
  $("where").textContent = `game ${view.game_no + 1} of ${view.games}, round ${view.round_no + 1}`
    + ` \u00b7 you are seat ${view.you}`;
  renderFelt(view);
  renderInfo(view);
  renderDecision(view);
  renderHand(view);
  renderStatus(view);
  renderRoundOver(view);
  $("hint").disabled = !view.options.length;
  $("hint-box").textContent = "";
}

function position(view, seat, radius) {
  const n = view.names.length;
  const angle = (Math.PI / 2) + ((seat - view.you + n) % n) * (2 * Math.PI / n);
  return { left: 50 + radius * 46 * Math.cos(angle), top: 50 + radius * 42 * Math.sin(angle) };
}

function place(node, where) {
  node.style.left = `${where.left}%`;
  node.style.top = `${where.top}%`;
  return node;
}

function renderFelt(view) {
  const felt = $("felt");
  felt.replaceChildren();
  const columns = perSeat(view);
  view.names.forEach((name, seat) => {
    const badges = el("div", { class: "badges" });
    for (const [field, mark] of Object.entries(SEAT_MARKS)) if (view.seen[field] === seat) badges.append(el("span", { text: mark }));
    const stats = columns.map(([field, values]) => `${field.replace(/_/g, " ")} ${values[seat] === null ? "?" : values[seat]}`);
    const box = el("div", { class: `seat${seat === view.you ? " you" : ""}${view.to_move === seat ? " turn" : ""}`, "data-seat": seat },
      el("div", { class: "name", text: seat === view.you ? `You (seat ${seat})` : `Seat ${seat}: ${name}` }),
      el("div", { class: "stats", text: stats.join(" \u00b7 ") }),
      el("div", { class: "stats", text: `total ${view.totals[seat]}` }),
      badges);
    felt.append(place(box, position(view, seat, 1)));
  });
  let shown = view.trick.map((t) => ({ seat: t.seat, card: t.card }));
  const tricks = view.seen.tricks || [];
  let last = false;
  if (!shown.length && tricks.length) {  // between tricks: the last one stays on the table, faded
    const trick = tricks[tricks.length - 1];
    shown = trick.cards.map((card, i) => ({ seat: (trick.leader + i) % view.names.length, card }));
    last = true;
    const points = trick.points === undefined ? "" : ` (${trick.points} points)`;
    felt.append(el("div", { class: "winner-note", text: `${seatName(trick.winner)} took the last trick${points}` }));
  }
  for (const played of shown) {
    const node = el("div", { class: `played${last ? " last" : ""}`, "data-seat": played.seat }, cardSvg(played.card, 50));
    felt.append(place(node, position(view, played.seat, 0.45)));
  }
}

function renderInfo(view) {
  const info = $("info");
  info.replaceChildren();
  const columns = new Set(perSeat(view).map(([field]) => field));
  for (const [field, value] of Object.entries(view.seen)) {
    if (columns.has(field) || ["tricks", "decision"].includes(field) || field in SEAT_MARKS || value === null) continue;
    info.append(el("dt", { text: field.replace(/_/g, " ") }), infoValue(value));
  }
}

function infoValue(value) {
  const dd = el("dd");
  const isCard = (v) => typeof v === "string" && /^([SHDC]([2-9TJQKA]|1[0-3]|[1-9])|[WJ]\d)$/.test(v);
  if (typeof value === "string" && value.length === 1 && SYMBOLS[value]) dd.textContent = `${SYMBOLS[value]} ${value}`;
  else if (isCard(value)) dd.append(cardSvg(value, 30));
  else if (Array.isArray(value) && value.every(isCard)) value.forEach((v) => dd.append(cardSvg(v, 30)));
  else if (Array.isArray(value)) dd.textContent = value.map((v) => (v && typeof v === "object" ? bidText(v) : String(v))).join(", ") || "-";
  else dd.textContent = String(value);
  return dd;
}

function bidText(entry) {
  const parts = Object.entries(entry).filter(([key]) => key !== "seat").map(([, v]) => (v === null ? "" : SYMBOLS[v] || v));
  const text = parts.join(" ").trim() || "pass";
  return "seat" in entry ? `seat ${entry.seat}: ${text}` : text;
}

function renderDecision(view) {
  const box = $("decision");
  box.replaceChildren();
  if (!view.options.length) return;
  box.append(el("p", { text: `${view.prompt[0].toUpperCase()}${view.prompt.slice(1)}:` }));
  const numbers = view.options.every((o) => typeof o.action === "number");
  if (DECISION_KINDS[view.decision] === "card" && view.options.every((o) => view.hand.some((h) => h.card === o.action))) {
    box.lastChild.textContent += " click a card in your hand (arrow keys and Enter)";
    return;
  }
  if (numbers && view.options.length > 16) {  // a prediction: a number from a range
    const low = view.options[0].action, high = view.options[view.options.length - 1].action;
    const input = el("input", { id: "number", type: "number", min: low, max: high, value: low, "aria-label": view.prompt });
    const go = () => {
      const value = Number(input.value);
      if (!Number.isInteger(value) || !view.options.some((o) => o.action === value)) say(`Give a whole number from ${low} to ${high}.`);
      else act(value);
    };
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") go(); });
    box.append(el("div", { class: "options" }, input, el("button", { id: "choose", type: "button", text: "OK", on: { click: go } })));
    return;
  }
  const options = el("div", { class: "options" });
  view.options.forEach((option, k) => {
    options.append(el("button", { type: "button", class: "option", "data-action": JSON.stringify(option.action),
      title: k < 9 ? `key ${k + 1}` : null, text: option.label, on: { click: () => act(option.action) } }));
  });
  box.append(options);
}

function renderHand(view) {
  const hand = $("hand");
  hand.replaceChildren();
  const legal = new Set(view.options.map((o) => o.action));
  hand.classList.toggle("choosing", view.hand.some((card) => legal.has(card.card)));
  view.hand.forEach((card) => {
    const ok = legal.has(card.card);
    const slot = el("button", { type: "button", class: `slot${ok ? " legal" : ""}`, "data-card": card.card,
      "aria-label": `${card.label}${ok ? "" : " (not playable now)"}` }, cardSvg(card.card));
    slot.addEventListener("click", () => (ok ? act(card.card) : explain(card)));
    hand.append(slot);
  });
}

function explain(card) {
  const view = state.view;
  if (!view.options.length) {
    say(view.to_move === null ? "The round is over." : `Not your turn: it is ${seatName(view.to_move)}'s.`);
    return;
  }
  if (!view.options.some((o) => view.hand.some((h) => h.card === o.action))) {
    say(`Not a card now: ${view.prompt}.`);
    return;
  }
  const legal = view.options.map((o) => o.label);
  const led = view.trick.length ? parseCard(view.trick[0].card).suit : null;
  const follow = led && view.options.every((o) => parseCard(String(o.action)).suit === led)
    ? ` You must follow the suit led (${SYMBOLS[led]}).` : "";
  say(`${card.label} cannot be played now.${follow} Legal: ${legal.join(" ")}`);
}

function renderStatus(view) {
  let text;
  if (view.phase === "over") text = "The session is over.";
  else if (view.phase === "round over") text = "The round is over.";
  else if (view.options.length) text = `Your turn: ${view.prompt}.`;
  else text = `${seatName(view.to_move)[0].toUpperCase()}${seatName(view.to_move).slice(1)} to ${view.decision}...`;
  const status = $("status");
  status.textContent = text;
  status.dataset.phase = view.phase;
  status.dataset.toMove = view.to_move === null ? "" : view.to_move;
}

function renderRoundOver(view) {
  const panel = $("round-over");
  panel.hidden = view.phase === "turn";
  if (panel.hidden) return;
  $("result-title").textContent = view.phase === "over" ? "The session is over" : `Round ${view.round_no + 1} is over`;
  const table = $("scores");
  table.replaceChildren(el("tr", {}, el("th", { text: "" }), ...view.names.map((_, s) => el("th", { text: s === view.you ? "you" : `seat ${s}` }))));
  const last = view.scores[view.scores.length - 1] || [];
  table.append(el("tr", {}, el("td", { text: `this round (${view.unit})` }), ...last.map((v) => el("td", { text: v }))));
  table.append(el("tr", {}, el("td", { text: "game total" }), ...view.totals.map((v) => el("td", { text: v }))));
  const next = $("next");
  next.hidden = view.phase === "over";
  next.disabled = view.ready.includes(view.you);
  next.textContent = next.disabled ? "Waiting for the others..." : "Next round";
  renderReview();
}

function renderHint() {
  const hint = state.hint, view = state.view;
  const box = $("hint-box");
  box.replaceChildren();
  if (!hint) return;
  const better = view.lower_is_better ? "lower is better" : "higher is better";
  const many = hint.options.length > 12;  // a prediction's 158: the best dozen
  const ranked = many ? [...hint.options].sort((a, b) => (view.lower_is_better ? a.mean - b.mean : b.mean - a.mean)).slice(0, 12)
    : hint.options;
  box.append(el("p", { class: "muted", text: `Expected ${view.unit} of ${many ? `the best 12 of ${hint.options.length} choices`
    : "each choice"} (${better}), 95% CI:` }));
  const rows = el("table");
  for (const o of ranked) {
    rows.append(el("tr", { class: o.label === hint.best ? "best" : null },
      el("td", { text: o.label }), el("td", { text: o.mean.toFixed(1) }), el("td", { text: `\u00b1 ${o.ci95.toFixed(1)}` })));
  }
  for (const o of hint.options) {  // each card's value under it, the best bid's button marked
    const slot = document.querySelector(`#hand .slot[data-card="${o.action}"]`);
    if (slot) slot.append(el("span", { class: `value${o.label === hint.best ? " best" : ""}`, text: o.mean.toFixed(1) }));
    const button = document.querySelector(`#decision button[data-action='${JSON.stringify(o.action)}']`);
    if (button && o.label === hint.best) button.classList.add("best");
  }
  box.append(rows);
}

function renderReview() {
  const box = $("review");
  const review = state.review, view = state.view;
  if (!review || !view || review.round_no !== view.round_no || review.game_no !== view.game_no) {
    box.replaceChildren(el("p", { class: "muted", text: "The review of your decisions is being computed..." }));
    return;
  }
  box.replaceChildren(el("p", { class: "summary", text: `This round: ${review.summary}.` }),
    el("p", { class: "muted", text: `So far: ${review.session}.` }));
  const valued = review.verdicts.filter((v) => v.options.length);
  if (!valued.length) return;
  const rows = el("table", {}, el("tr", {}, ...["decision", "your choice", "best", `cost (${view.unit})`].map((t) => el("th", { text: t }))));
  for (const v of valued) {
    rows.append(el("tr", {}, el("td", { text: v.decision }), el("td", { text: v.choice }), el("td", { text: v.best }),
      el("td", { class: "cost", text: v.cost.toFixed(1) })));
  }
  box.append(chart(valued), rows);
}

function chart(verdicts) {
  // one bar per decision: its expected cost; bids and cards in two colours
  const height = 120, pad = 22;
  const step = Math.min(48, 540 / verdicts.length), width = pad + step * verdicts.length + 10;
  const top = Math.max(1, ...verdicts.map((v) => v.cost));
  const svg = el("svg", { class: "chart", width, height: height + 30, role: "img", "aria-label": "expected cost of each decision" });
  svg.append(el("line", { x1: pad, y1: height, x2: width, y2: height, stroke: "#999" }));
  svg.append(el("text", { x: 0, y: 12, text: top.toFixed(0) }));
  verdicts.forEach((v, k) => {
    const h = (v.cost / top) * (height - 16);
    const kind = DECISION_KINDS[v.decision] === "bid" ? " bid" : "";
    svg.append(el("rect", { class: `bar${kind}`, x: pad + k * step + 2, y: height - h, width: Math.max(2, step - 4), height: h }));
    if (step > 18) svg.append(el("text", { x: pad + k * step + step / 2, y: height + 14, "text-anchor": "middle", text: v.choice }));
  });
  svg.setAttribute("width", Math.max(width, 300));
  svg.append(el("text", { x: pad, y: height + 28, text: "decisions in order (blue: bids, orange: cards)" }));
  return svg;
}

// --- the keyboard -------------------------------------------------------------------------------------------

function keys(event) {
  const view = state.view;
  if (!view || event.target.tagName === "INPUT") return;
  const slots = [...document.querySelectorAll("#hand .slot.legal")];
  if (event.key === "h" || event.key === "H") {
    if (view.options.length) send({ type: "hint" });
  } else if ((event.key === "n" || event.key === "N" || event.key === "Enter") && view.phase === "round over") {
    send({ type: "next" });
    event.preventDefault();
  } else if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && slots.length) {
    state.focus = (state.focus + (event.key === "ArrowRight" ? 1 : slots.length - 1)) % slots.length;
    slots[state.focus].focus();
    event.preventDefault();
  } else if (/^[1-9]$/.test(event.key)) {
    const buttons = [...document.querySelectorAll("#decision button.option")];
    const target = buttons.length ? buttons : slots;
    const k = Number(event.key) - 1;
    if (k < target.length) target[k].click();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("next").addEventListener("click", () => send({ type: "next" }));
  $("speed").addEventListener("change", (event) => send({ type: "speed", delay: Number(event.target.value) }));
  $("speed").addEventListener("input", (event) => { $("speed-value").textContent = `${Number(event.target.value).toFixed(1)} s`; });
  document.addEventListener("keydown", keys);
  if (!state.token) $("status").textContent = "This page needs its seat's link (the server printed one per seat).";
  else connect();
});
