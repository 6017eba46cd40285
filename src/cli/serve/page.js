// The analysis page of `gamesolver serve`: draws a position from `/api/analyze` (the command
// line's `analyze --json`), colours every move by its value for the mover, plays moves by
// click, and keeps the value history. No framework, no build step.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

// Example values for the page's list (smaller than the command line's where a game would
// take long from its start).
const EXAMPLES = {
  "stone-game-ii": "2,7,9,4,4",
  "stone-game": "5,3,4,5",
  "stone-game-iii": "1,2,3,7",
  "stone-game-vii": "5,3,1,4,2",
  "stone-game-viii": "-1,2,-3,4,-5",
  nim: "3,4,5",
  "dots-and-boxes": "2 2",
  "connect-four": "4453",
  "cat-and-mouse": "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
  "cat-and-mouse-ii": '{"grid":["####F","#C...","M...."],"catJump":1,"mouseJump":2}',
};

const page = {
  game: null,
  values: "",
  at: "",
  width: null,
  height: null,
  played: [], // move names played from the start position
  redo: [],
  history: [], // per position: {value, mover, chosen, best}
  analysis: null,
  request: 0,
};

function element(tag, attributes = {}, text) {
  const made = tag.startsWith("svg:")
    ? document.createElementNS(SVG, tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  if (text !== undefined) made.textContent = text;
  return made;
}

// The class of a value for the mover: outcome games by sign; score games best or not.
function tone(value, best, outcomes) {
  if (outcomes) return value > 0 ? "win" : value < 0 ? "loss" : "draw";
  if (best) return "win";
  return value >= 0 ? "draw" : "loss";
}
const COLOUR = { win: "#2e7d32", draw: "#f9a825", loss: "#c62828" };

function words(move, outcomes) {
  if (isConnectFour()) return (move.value > 0 ? "+" : "") + move.value;
  if (move.remoteness !== undefined && move.remoteness !== null) {
    return (move.value > 0 ? "W" : "L") + move.remoteness;
  }
  if (outcomes) return move.value > 0 ? "win" : move.value < 0 ? "loss" : "draw";
  return String(move.value);
}

// ---------------------------------------------------------------- the index

async function showIndex() {
  $("index").hidden = false;
  const listing = await (await fetch("/api/games")).json();
  for (const game of listing.games) {
    const values = EXAMPLES[game.name] ?? game.example ?? "";
    const link = element("a", {
      href: `/play/${game.name}` + (values ? `?values=${encodeURIComponent(values)}` : ""),
    }, game.name);
    const item = element("li");
    item.append(link, ` — ${game.about}`);
    $("games").append(item);
  }
}

// ---------------------------------------------------------------- talking to the server

function address() {
  const query = new URLSearchParams();
  if (page.values) query.set("values", page.values);
  if (page.at) query.set("at", page.at);
  if (page.width) query.set("width", page.width);
  if (page.height) query.set("height", page.height);
  if (page.played.length) query.set("after", page.played.join(";"));
  const text = query.toString();
  return `/play/${page.game}` + (text ? `?${text}` : "");
}

function isConnectFour() {
  return page.game === "connect-four";
}

function request() {
  const asked = { game: page.game };
  if (isConnectFour()) {
    asked.values = page.values + page.played.join("");
    if (page.width) asked.width = Number(page.width);
    if (page.height) asked.height = Number(page.height);
  } else {
    if (page.values) asked.values = page.values;
    if (page.at) asked.at = page.at;
    if (page.played.length) asked.after = page.played.join(";");
  }
  return asked;
}

async function analyze() {
  const number = ++page.request;
  $("error").hidden = true;
  $("status").dataset.state = "loading";
  $("status").textContent = "Solving…";
  const timer = setTimeout(watchProgress, 300, number);
  let response, body;
  try {
    response = await fetch("/api/analyze", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request()),
    });
    body = await response.json();
  } catch (failure) {
    body = { error: `the server did not answer: ${failure}` };
    response = { ok: false };
  } finally {
    clearTimeout(timer);
  }
  if (number !== page.request) return null; // a later request took over
  $("busy").hidden = true;
  if (!response.ok) {
    showError(body.error || "the server refused the request");
    return null;
  }
  return body;
}

async function watchProgress(number) {
  while (number === page.request && $("status").dataset.state === "loading") {
    const progress = await (await fetch("/api/progress")).json();
    if (number !== page.request || $("status").dataset.state !== "loading") break;
    $("busy").hidden = false;
    const parts = [];
    if (progress.seconds !== null) parts.push(`${progress.seconds.toFixed(1)} s`);
    if (progress.steps) parts.push(`step ${progress.steps[0]} of ${progress.steps[1]}`);
    const states = Math.max(progress.stored, progress.searched);
    if (states) parts.push(`${states.toLocaleString()} positions`);
    if (progress.waiting > 1) parts.push(`${progress.waiting - 1} more waiting`);
    $("busy-text").textContent = parts.join(", ");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function showError(message) {
  $("error").hidden = false;
  $("error").textContent = message;
  $("status").dataset.state = "error";
  $("status").textContent = "No analysis.";
}

// ---------------------------------------------------------------- the moves of a position

// Every move as {name, value, best, remoteness, keeps_turn, fields}, from either shape.
function movesOf(analysis) {
  if (isConnectFour()) {
    const best = Math.max(...(analysis.analysis || []).map((m) => m.score));
    return (analysis.analysis || []).map((m) => ({
      name: String(m.column),
      value: m.score,
      best: m.score === best,
      keeps_turn: false,
      column: m.column,
    }));
  }
  return analysis.moves.map((m) => ({ ...m }));
}

// Whether the values are outcomes (win, draw, loss): Connect Four's scores are outcomes
// with the number of stones left as a margin, coloured by their sign.
function outcomesOf(analysis) {
  return isConnectFour() || analysis.outcomes === true;
}

function summary(analysis, outcomes) {
  const value = analysis.value;
  if (isConnectFour()) {
    const result = value > 0 ? "wins" : value < 0 ? "loses" : "draws";
    return `${result} with best play (score ${value}: the sooner the win, the larger)`;
  }
  if (outcomes) {
    const result = value > 0 ? "a win" : value < 0 ? "a loss" : "a draw";
    const remote = analysis.remoteness ? ` in ${analysis.remoteness} moves` : "";
    return `${result}${remote} with best play`;
  }
  return `secures ${value} (their points minus the opponent's from here on)`;
}

async function refresh() {
  $("share").href = address();
  history.replaceState(null, "", address());
  const analysis = await analyze();
  if (!analysis) return;
  page.analysis = analysis;
  const moves = movesOf(analysis);
  const outcomes = outcomesOf(analysis);
  const mover = page.history.length ? nextMover() : 0;
  page.history.length = page.played.length;
  page.history.push({ value: analysis.value, mover, moves });
  draw(analysis, moves, outcomes);
  listMoves(moves, outcomes);
  drawHistory();
  const side = ["the first player", "the second player"][mover];
  $("status").dataset.state = "ready";
  $("status").textContent = moves.length
    ? `${side[0].toUpperCase()}${side.slice(1)} to move: ${summary(analysis, outcomes)}.`
    : `The game is over (value ${analysis.value} for the player who would move).`;
  $("undo").disabled = page.played.length === 0;
  $("redo").disabled = page.redo.length === 0;
  $("solver-move").disabled = moves.length === 0;
  $("played").textContent = page.played.length ? `Played: ${page.played.join(" ")}` : "";
  maybeSolverMoves(moves, mover);
}

// Who moves after the last move played: the mover of the position before it, or the other.
function nextMover() {
  const before = page.history[page.played.length - 1];
  if (!before) return 0;
  const name = page.played[page.played.length - 1];
  const move = before.moves.find((m) => m.name === name);
  return move && move.keeps_turn ? before.mover : 1 - before.mover;
}

function play(name) {
  page.played.push(name);
  page.redo = [];
  refresh();
}

function maybeSolverMoves(moves, mover) {
  const side = $("side").value;
  const solverSide = side === "first" ? 0 : side === "second" ? 1 : -1;
  if (moves.length && mover === solverSide) setTimeout(solverMove, 200);
}

function solverMove() {
  const current = page.history[page.played.length];
  if (!current || !current.moves.length) return;
  const best = current.moves.find((m) => m.best) || current.moves[0];
  play(best.name);
}

function listMoves(moves, outcomes) {
  const list = $("moves");
  list.replaceChildren();
  for (const move of moves) {
    const kind = tone(move.value, move.best, outcomes);
    const item = element("li", {
      "data-move": move.name,
      "data-value": move.value,
      "data-best": move.best,
      class: move.best ? "best" : "",
    });
    const value = element("span", { class: "value" }, words(move, outcomes));
    value.style.background = COLOUR[kind];
    item.append(value, move.name + (move.best ? "  (best)" : ""));
    item.addEventListener("click", () => play(move.name));
    list.append(item);
  }
}

// ---------------------------------------------------------------- boards

function svgBox(width, height) {
  return element("svg:svg", { viewBox: `0 0 ${width} ${height}`, width, height, id: "board-svg" });
}

function marked(node, move, outcomes) {
  node.classList.add("move");
  node.setAttribute("data-move", move.name);
  node.setAttribute("data-value", move.value);
  node.setAttribute("data-tone", tone(move.value, move.best, outcomes));
  node.addEventListener("click", () => play(move.name));
  return node;
}

function label(svg, x, y, text, colour = "#fff", size = 14) {
  const t = element("svg:text", { x, y, "text-anchor": "middle", "dominant-baseline": "middle", fill: colour, "font-size": size }, text);
  svg.append(t);
}

function draw(analysis, moves, outcomes) {
  const board = $("board");
  board.replaceChildren();
  const byName = new Map(moves.map((m) => [m.name, m]));
  const view = analysis.view;
  if (isConnectFour()) return board.append(connectFour(analysis, moves));
  const drawers = { grid, heaps, piles, dots, graph, text };
  const drawer = drawers[view.kind];
  if (drawer) board.append(drawer(view, byName, moves, outcomes));
  else board.append(element("pre", {}, JSON.stringify(view)));
}

// A game without a picture: its state as text (`Presented::show`); the moves are the list's.
function text(view) {
  return element("pre", { class: "shown" }, view.text);
}

function connectFour(analysis, moves) {
  const width = analysis.width, height = analysis.height, cell = 48;
  const svg = svgBox(width * cell, (height + 1) * cell);
  const cells = Array.from({ length: width }, () => []);
  [...(analysis.position || "")].forEach((c, i) => cells[Number(c) - 1].push(i % 2));
  for (let x = 0; x < width; x++) {
    const move = moves.find((m) => m.column === x + 1);
    const top = element("svg:rect", { x: x * cell + 2, y: 2, width: cell - 4, height: cell - 4, rx: 6, fill: move ? COLOUR[tone(move.value, move.best, true)] : "#eee" });
    if (move) {
      marked(top, move, true);
      top.setAttribute("data-column", x + 1);
    }
    svg.append(top);
    if (move) label(svg, x * cell + cell / 2, cell / 2, (move.value > 0 ? "+" : "") + move.value);
    for (let y = 0; y < height; y++) {
      const stone = cells[x][y];
      const colour = stone === undefined ? "#fff" : stone === 0 ? "#d32f2f" : "#fbc02d";
      svg.append(element("svg:circle", { cx: x * cell + cell / 2, cy: (height - y) * cell + cell / 2, r: cell / 2 - 5, fill: colour, stroke: "#1565c0", "stroke-width": 3 }));
    }
  }
  return svg;
}

function grid(view, byName, moves, outcomes) {
  const cell = view.columns > 6 ? 48 : 90;
  const svg = svgBox(view.columns * cell, view.rows * cell);
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.columns; c++) {
      const mark = view.cells[r * view.columns + c];
      // The move a click on the cell plays: `move_at`'s, or by default "ROW,COLUMN" from 1.
      const name = view.move_at ? view.move_at[r * view.columns + c] : `${r + 1},${c + 1}`;
      const move = name === null ? undefined : byName.get(name);
      const fill = move ? COLOUR[tone(move.value, move.best, outcomes)] : mark === "#" ? "#455a64" : "#fff";
      const square = element("svg:rect", { x: c * cell + 2, y: r * cell + 2, width: cell - 4, height: cell - 4, fill, stroke: "#333" });
      svg.append(move ? marked(square, move, outcomes) : square);
      if (mark && mark !== "#") label(svg, c * cell + cell / 2, r * cell + cell / 2 - (move ? 8 : 0), mark, move ? "#fff" : "#222", cell / 2);
      if (move) label(svg, c * cell + cell / 2, r * cell + cell / 2 + (mark ? cell / 4 : 0), words(move, outcomes), "#fff", mark ? 11 : 14);
    }
  }
  return svg;
}

function heaps(view, byName, moves, outcomes) {
  const size = 30, most = Math.max(1, ...view.heaps);
  const svg = svgBox((most + 2) * size, view.heaps.length * size + 10);
  view.heaps.forEach((count, h) => {
    label(svg, size / 2, h * size + size / 2 + 5, String(h + 1), "#222");
    for (let k = 0; k < count; k++) {
      const take = count - k; // clicking the k-th counter takes it and every one after it
      const move = byName.get(`${h + 1},${take}`);
      const counter = element("svg:circle", { cx: (k + 1.5) * size, cy: h * size + size / 2 + 5, r: size / 2 - 3, fill: move ? COLOUR[tone(move.value, move.best, outcomes)] : "#999" });
      svg.append(move ? marked(counter, move, outcomes) : counter);
    }
  });
  return svg;
}

function piles(view, byName, moves, outcomes) {
  const wrap = element("div");
  const row = element("div", { class: "piles" });
  view.piles.forEach((pile, i) => {
    const gone = i < view.from || i >= view.to;
    row.append(element("span", { class: "pile" + (gone ? " gone" : "") }, String(pile)));
  });
  wrap.append(row);
  if (view.m !== undefined) wrap.append(element("p", {}, `M = ${view.m}: take the next 1 to ${Math.min(2 * view.m, view.to - view.from)} piles`));
  const buttons = element("div");
  for (const move of moves) {
    const button = element("button", { type: "button" }, `${move.name}: ${words(move, outcomes)}`);
    button.style.background = COLOUR[tone(move.value, move.best, outcomes)];
    button.style.color = "#fff";
    buttons.append(marked(button, move, outcomes));
  }
  wrap.append(buttons);
  return wrap;
}

function dots(view, byName, moves, outcomes) {
  const gap = 80, pad = 20;
  const svg = svgBox(view.columns * gap + 2 * pad, view.rows * gap + 2 * pad);
  const at = ([r, c]) => [pad + c * gap, pad + r * gap];
  const drawn = new Set(view.drawn.map(([a, b]) => `${a}-${b}`));
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.columns; c++) {
      const sides = [[[r, c], [r, c + 1]], [[r + 1, c], [r + 1, c + 1]], [[r, c], [r + 1, c]], [[r, c + 1], [r + 1, c + 1]]];
      if (sides.every(([a, b]) => drawn.has(`${a}-${b}`))) {
        svg.append(element("svg:rect", { x: pad + c * gap, y: pad + r * gap, width: gap, height: gap, fill: "#cfd8dc" }));
      }
    }
  }
  for (const [a, b] of view.drawn) {
    const [x1, y1] = at(a), [x2, y2] = at(b);
    svg.append(element("svg:line", { x1, y1, x2, y2, stroke: "#222", "stroke-width": 6 }));
  }
  for (const move of moves) {
    const [x1, y1] = at(move.from), [x2, y2] = at(move.to);
    svg.append(element("svg:line", { x1, y1, x2, y2, stroke: COLOUR[tone(move.value, move.best, outcomes)], "stroke-width": 10, "stroke-dasharray": "6 4", "stroke-linecap": "round" }));
    // The line's click area: a band around it, wider than the line itself.
    const band = element("svg:rect", { x: Math.min(x1, x2) - 10, y: Math.min(y1, y2) - 10, width: Math.abs(x2 - x1) + 20, height: Math.abs(y2 - y1) + 20, fill: "transparent" });
    svg.append(marked(band, move, outcomes));
    label(svg, (x1 + x2) / 2 + (y1 === y2 ? 0 : 14), (y1 + y2) / 2 + (y1 === y2 ? -12 : 0), words(move, outcomes), "#222", 12);
  }
  for (let r = 0; r <= view.rows; r++) {
    for (let c = 0; c <= view.columns; c++) {
      const [cx, cy] = at([r, c]);
      svg.append(element("svg:circle", { cx, cy, r: 6, fill: "#222" }));
    }
  }
  return svg;
}

function graph(view, byName, moves, outcomes) {
  const n = view.graph.length, size = 360, radius = 140;
  const svg = svgBox(size, size);
  const at = (i) => [size / 2 + radius * Math.cos((2 * Math.PI * i) / n - Math.PI / 2), size / 2 + radius * Math.sin((2 * Math.PI * i) / n - Math.PI / 2)];
  view.graph.forEach((near, i) => near.forEach((j) => {
    if (i < j) {
      const [x1, y1] = at(i), [x2, y2] = at(j);
      svg.append(element("svg:line", { x1, y1, x2, y2, stroke: "#999", "stroke-width": 2 }));
    }
  }));
  for (let i = 0; i < n; i++) {
    const [cx, cy] = at(i);
    const move = byName.get(String(i));
    const fill = move ? COLOUR[tone(move.value, move.best, outcomes)] : i === view.hole ? "#000" : "#fff";
    const node = element("svg:circle", { cx, cy, r: 20, fill, stroke: "#333", "stroke-width": 2 });
    svg.append(move ? marked(node, move, outcomes) : node);
    const who = i === view.mouse ? "🐭" : i === view.cat ? "🐱" : i === view.hole ? "hole" : String(i);
    label(svg, cx, cy, who, i === view.hole && !move ? "#fff" : "#222", i === view.mouse || i === view.cat ? 20 : 12);
  }
  return svg;
}

// ---------------------------------------------------------------- the value history

function drawHistory() {
  const svg = $("history");
  svg.replaceChildren();
  const points = page.history.map((h) => (h.mover === 0 ? h.value : -h.value));
  const most = Math.max(1, ...points.map(Math.abs));
  const x = (i) => 10 + (300 * i) / Math.max(1, points.length - 1);
  const y = (v) => 60 - (50 * v) / most;
  svg.append(element("svg:line", { x1: 10, y1: 60, x2: 310, y2: 60, stroke: "#bbb" }));
  svg.append(element("svg:polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#1565c0", "stroke-width": 2 }));
  points.forEach((v, i) => {
    // A mistake: the move played from the position before was not one of its best.
    const before = page.history[i - 1];
    const chosen = before && before.moves.find((m) => m.name === page.played[i - 1]);
    const mistake = chosen && !chosen.best;
    const dot = element("svg:circle", { cx: x(i), cy: y(v), r: mistake ? 5 : 3, fill: mistake ? "#c62828" : "#1565c0", "data-mistake": mistake ? "true" : "false" });
    dot.append(element("svg:title", {}, `after ${i} moves: ${v}` + (mistake ? " (a mistake)" : "")));
    svg.append(dot);
  });
}

// ---------------------------------------------------------------- start

function start() {
  const path = location.pathname.match(/^\/play\/([^/]+)$/);
  if (!path) return showIndex();
  const query = new URLSearchParams(location.search);
  page.game = decodeURIComponent(path[1]);
  page.values = query.get("values") || "";
  page.at = query.get("at") || "";
  page.width = query.get("width");
  page.height = query.get("height");
  page.played = (query.get("after") || "").split(";").filter((name) => name);
  $("title").textContent = page.game;
  document.title = `${page.game} — gamesolver`;
  $("game").hidden = false;
  $("values").value = page.values;
  $("at").value = page.at;
  $("at-label").hidden = isConnectFour();
  $("board-size").hidden = !isConnectFour();
  $("width").value = page.width || "";
  $("height").value = page.height || "";
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    page.values = $("values").value.trim();
    page.at = $("at").value.trim();
    page.width = $("width").value.trim() || null;
    page.height = $("height").value.trim() || null;
    page.played = [];
    page.redo = [];
    page.history = [];
    refresh();
  });
  $("undo").addEventListener("click", () => {
    if (!page.played.length) return;
    page.redo.push(page.played.pop());
    $("side").value = "none";
    refresh();
  });
  $("redo").addEventListener("click", () => {
    if (!page.redo.length) return;
    page.played.push(page.redo.pop());
    refresh();
  });
  $("solver-move").addEventListener("click", solverMove);
  $("side").addEventListener("change", () => {
    const current = page.history[page.played.length];
    if (current) maybeSolverMoves(current.moves, current.mover);
  });
  $("cancel").addEventListener("click", () => fetch("/api/cancel", { method: "POST" }));
  // The history of a shared address is rebuilt position by position (each answer is kept by
  // the server, so a page reloaded is quick).
  rebuild();
}

async function rebuild() {
  const all = page.played;
  page.played = [];
  page.history = [];
  for (let i = 0; i <= all.length; i++) {
    page.played = all.slice(0, i);
    if (i < all.length) {
      const analysis = await analyze();
      if (!analysis) return;
      const mover = i === 0 ? 0 : nextMover();
      page.history.length = i;
      page.history.push({ value: analysis.value, mover, moves: movesOf(analysis) });
    }
  }
  refresh();
}

start();
