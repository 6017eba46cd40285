// The analysis page of `gamesolver serve`: draws a position from `/api/analyze` (the command
// line's `analyze --json`), colours every move by its value for the mover, plays moves by
// click, and keeps the value history. No framework, no build step.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const page = {
  game: null,
  values: "",
  at: "",
  width: null,
  height: null,
  played: [], // move names played from the start position
  redo: [],
  history: [], // per position reached: what `positionOf` makes of its analysis
  loading: false,
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

const COLOUR = { win: "#2e7d32", draw: "#f9a825", loss: "#c62828" };
// The players' colours: the history's points, the owners of Dots and Boxes' boxes.
const SIDE = ["#d32f2f", "#1565c0"];
const SIDE_LIGHT = ["#ffcdd2", "#bbdefb"];
// The colours of a game of columns' marks, in the order of its `marks`.
const DISCS = ["#d32f2f", "#fbc02d", "#7b1fa2", "#00897b"];

// A move's colour: the final result it leads to for the player who plays it (the points so
// far plus its value), so that after a mistake a move that still "gains" but ends in a loss is
// red.
function toneOf(move, mover) {
  const mine = mover === 0 ? move.final : -move.final;
  return mine > 0 ? "win" : mine < 0 ? "loss" : "draw";
}

// A game with chance's move: coloured by its winning chance for the player who plays it, from
// red (0) through yellow to green (1); an expectation, by its sign.
function chanceColour(move, position) {
  if (!position.outcomes) return COLOUR[move.value > 0 ? "win" : move.value < 0 ? "loss" : "draw"];
  return `hsl(${Math.round(120 * Math.min(1, Math.max(0, move.value)))}, 65%, 38%)`;
}

// A winning chance as a percentage; an expectation as a signed number.
function chanceWords(value, position) {
  if (position.outcomes) return `${(100 * value).toFixed(1)}%`;
  const rounded = Math.round(value * 100) / 100;
  return rounded > 0 ? `+${rounded}` : rounded < 0 ? `−${-rounded}` : "0";
}

// A fraction as a number: "1/6" → 0.1666….
function fraction(text) {
  const [top, bottom] = String(text).split("/").map(Number);
  return bottom ? top / bottom : top;
}

function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
}

// A final result (the first player's points minus the second's at the end) in words.
function resultWords(final, position) {
  const [first, second] = position.players;
  if (position.outcomes) return final > 0 ? `${first} wins` : final < 0 ? `${second} wins` : "a draw";
  return final > 0 ? `${first} wins by ${final}` : final < 0 ? `${second} wins by ${-final}` : "a tie";
}

// A move's label: an outcome with its remoteness (W5: a win in 5 moves, this one included); a
// score game's final margin for the mover.
function words(move, position) {
  if (position.chance) return chanceWords(move.value, position);
  if (position.outcomes) {
    const remote = move.remoteness === undefined || move.remoteness === null ? "" : move.remoteness;
    const outcome = (move.value > 0 ? "W" : move.value < 0 ? "L" : "D") + (move.value ? remote : "");
    return nimbered(move) ? `${outcome} *${move.nimber}` : outcome;
  }
  return signed(position.mover === 0 ? move.final : -move.final);
}

// An impartial game's move carries the nimber of the position it leaves (*0: lost for the
// opponent, so a winning move).
function nimbered(move) {
  return move.nimber !== undefined && move.nimber !== null;
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// ---------------------------------------------------------------- the index

async function showIndex() {
  $("index").hidden = false;
  const listing = await (await fetch("/api/games")).json();
  for (const game of listing.games) {
    const values = game.example ?? "";
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

function request() {
  const asked = { game: page.game };
  if (page.values) asked.values = page.values;
  if (page.at) asked.at = page.at;
  if (page.width) asked.width = Number(page.width);
  if (page.height) asked.height = Number(page.height);
  if (page.played.length) asked.after = page.played.join(";");
  return asked;
}

// The buttons act only when they can: none while a solve runs.
function controls() {
  const current = page.history[page.played.length];
  $("undo").disabled = page.loading || page.played.length === 0;
  $("redo").disabled = page.loading || page.redo.length === 0;
  $("solver-move").disabled = page.loading || !current || current.moves.length === 0;
}

async function analyze() {
  const number = ++page.request;
  $("error").hidden = true;
  $("status").dataset.state = "loading";
  $("status").textContent = "Solving…";
  page.loading = true;
  controls();
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
  page.loading = false;
  $("busy").hidden = true;
  if (!response.ok) {
    failed(body.error || "the server refused the request");
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

// A request that failed or was cancelled: the moves it asked for go back to Redo, and the last
// position solved stays on the board with its moves.
function failed(message) {
  const solved = page.history.length - 1;
  if (solved >= 0 && page.played.length > solved) {
    page.redo.push(...page.played.splice(solved).reverse());
    history.replaceState(null, "", address());
    $("share").href = address();
    show(page.history[solved]);
  }
  $("error").hidden = false;
  $("error").textContent = message;
  $("status").dataset.state = "error";
  if (solved < 0) $("status").textContent = "No analysis.";
  controls();
}

// ---------------------------------------------------------------- a position

// A position from its analysis: who moves (`mover`: 0 the first player, 1 the second), the
// points so far, the final result with perfect play (`final`, the first player's points minus
// the second's at the end), and every move with the final result it leads to.
function positionOf(analysis, mover) {
  if (analysis.to_move) mover = analysis.to_move === "second" ? 1 : 0;
  const final = (value, given) => (given ?? (mover === 0 ? value : -value));
  const position = {
    outcomes: analysis.outcomes === true,
    analysis,
    value: analysis.value,
    remoteness: analysis.remoteness,
    mover,
    players: analysis.players || ["the first player", "the second player"],
    points: analysis.points || [0, 0],
    final: final(analysis.value, analysis.final_margin),
    view: analysis.view,
    moves: analysis.moves.map((m) => ({ ...m, final: final(m.value, m.final_margin) })),
  };
  position.result = analysis.result ? analysis.result : resultWords(position.final, position);
  if (analysis.rolling !== undefined) {
    // A game with chance: values are winning chances (or expectations) for the mover, and
    // `first` is the first player's at the position.
    position.chance = true;
    position.rolling = analysis.rolling;
    position.first = analysis.first_value;
    position.exact = analysis.exact;
    const forFirst = (value) => (mover === 0 ? value : position.outcomes ? 1 - value : -value);
    position.moves = analysis.moves.map((m) => ({ ...m, final: forFirst(m.value) }));
    const [first] = position.players;
    const exact = position.outcomes && analysis.exact && analysis.exact.includes("/") ? ` (${analysisExact(analysis, mover)})` : "";
    position.result = position.outcomes
      ? `${first} wins with probability ${chanceWords(position.first, position)}${exact}`
      : `${first} expects ${chanceWords(position.first, position)}`;
  }
  return position;
}

// The first player's exact winning chance, where the analysis gives the mover's exactly: the
// fraction, or where it is longer than the command line writes out, that it is exact and how
// long (the API's JSON has it whole).
function analysisExact(analysis, mover) {
  const [top, bottom] = analysis.exact.split("/").map(BigInt);
  const exact = mover === 0 ? analysis.exact : `${bottom - top}/${bottom}`;
  return exact.length <= FRACTION_WRITTEN ? exact : `exact: a ${String(bottom).length}-digit fraction`;
}

// The longest fraction written out, as the command line's words (src/cli/model.rs).
const FRACTION_WRITTEN = 31;

// Who moves after the last move played: the mover of the position before it, or the other
// (where the answer does not say: a user's game served by an older binary).
function nextMover() {
  const before = page.history[page.played.length - 1];
  if (!before) return 0;
  const name = page.played[page.played.length - 1];
  const move = before.moves.find((m) => m.name === name);
  return move && move.keeps_turn ? before.mover : 1 - before.mover;
}

async function refresh() {
  $("share").href = address();
  history.replaceState(null, "", address());
  const mover = nextMover();
  const analysis = await analyze();
  if (!analysis) return;
  const position = positionOf(analysis, mover);
  page.history.length = page.played.length;
  page.history.push(position);
  show(position);
  $("status").dataset.state = "ready";
  controls();
  maybeSolverMoves(position);
}

// Draws `position`: the board, the players and their points, the moves, the history.
function show(position) {
  draw(position);
  listMoves(position);
  drawScore(position);
  drawHistory();
  $("status").textContent = statusWords(position);
  $("played").textContent = page.played.length ? `Played: ${page.played.join(" ")}` : "";
}

function statusWords(position) {
  const [first, second] = position.players;
  const name = position.players[position.mover];
  if (position.chance) {
    if (!position.moves.length) return `Game over. ${capitalised(position.result)}.`;
    const doing = position.rolling ? "to roll" : "to move";
    return `${capitalised(name)} ${doing}. With perfect play: ${position.result}.`;
  }
  if (position.moves.length) {
    const moves = position.remoteness === 1 ? "move" : "moves";
    const remote = position.outcomes && position.value && position.remoteness ? ` in ${position.remoteness} ${moves}` : "";
    const nimber = nimbered(position.analysis) ? ` The position's nimber is *${position.analysis.nimber}.` : "";
    return `${capitalised(name)} to move. With perfect play: ${position.result}${remote}.${nimber}`;
  }
  const score = position.outcomes ? "" : ` ${first} ${position.points[0]}, ${second} ${position.points[1]}:`;
  return `Game over.${score} ${capitalised(position.result)}.`;
}

// A player's colour: their marks' where the board colours marks (a game of columns), else the
// side's.
function sideColour(position, side) {
  const marks = (position.view && position.view.marks) || [];
  const which = marks.indexOf(position.players[side]);
  return which >= 0 ? DISCS[which % DISCS.length] : SIDE[side];
}

// The players, whose turn it is, and (in a score game) their points so far.
function drawScore(position) {
  const box = $("score");
  box.replaceChildren();
  // The solver's side by the players' names.
  $("side").options[1].textContent = capitalised(position.players[0]);
  $("side").options[2].textContent = capitalised(position.players[1]);
  position.players.forEach((name, side) => {
    const item = element("span", {
      class: "player" + (side === position.mover && position.moves.length ? " to-move" : ""),
      "data-points": position.points[side],
    });
    item.style.borderColor = sideColour(position, side);
    item.append(element("span", { class: "name" }, capitalised(name)));
    if (!position.outcomes) item.append(" ", element("strong", {}, String(position.points[side])));
    box.append(item);
  });
}

function play(name) {
  if (page.loading) return;
  page.played.push(name);
  page.redo = [];
  refresh();
}

function maybeSolverMoves(position) {
  const side = $("side").value;
  const solverSide = side === "first" ? 0 : side === "second" ? 1 : -1;
  // A roll is the dice's: rolled at once when the solver plays that side, else by the button.
  if (position.moves.length && position.mover === solverSide) setTimeout(solverMove, 200);
}

// Rolls the dice: an outcome drawn by its probability.
function roll() {
  const current = page.history[page.played.length];
  if (page.loading || !current || !current.rolling) return;
  let draw = Math.random();
  for (const move of current.moves) {
    draw -= fraction(move.probability);
    if (draw < 0) return play(move.name);
  }
  play(current.moves[current.moves.length - 1].name);
}

function solverMove() {
  const current = page.history[page.played.length];
  if (page.loading || !current || !current.moves.length) return;
  if (current.rolling) return roll();
  const best = current.moves.find((m) => m.best) || current.moves[0];
  play(best.name);
}

function listMoves(position) {
  const list = $("moves");
  list.replaceChildren();
  if (!position.moves.length) list.append(element("li", { class: "none" }, "None: the game is over."));
  for (const move of position.moves) {
    const kind = toneOf(move, position.mover);
    const item = element("li", {
      "data-move": move.name,
      "data-value": move.value,
      "data-final": move.final,
      "data-best": move.best,
      class: move.best ? "best" : "",
    });
    if (nimbered(move)) item.setAttribute("data-nimber", move.nimber);
    const value = element("span", { class: "value" }, words(move, position));
    value.style.background = position.chance ? chanceColour(move, position) : COLOUR[kind];
    if (position.chance) {
      if (move.exact) value.title = move.exact;
      if (move.probability) item.setAttribute("data-probability", move.probability);
      if (position.chance && move.probability) {
        item.append(element("span", { class: "probability" }, `${move.probability} `));
      }
      const said = move.words ? capitalised(move.words) : move.name;
      item.prepend(value);
      if (move.best) item.append(element("span", { class: "star", title: "a best move" }, "\u2605 "));
      item.append(said);
      item.addEventListener("click", () => play(move.name));
      list.append(item);
      continue;
    }
    const said = move.words ? capitalised(move.words) : move.name;
    item.append(value);
    if (move.best) item.append(element("span", { class: "star", title: "a best move" }, "\u2605 "));
    item.append(said, element("span", { class: "leads" }, ` \u2192 ${resultWords(move.final, position)}`));
    item.addEventListener("click", () => play(move.name));
    list.append(item);
  }
}

// ---------------------------------------------------------------- boards

function svgBox(width, height) {
  return element("svg:svg", { viewBox: `0 0 ${width} ${height}`, width, height, id: "board-svg" });
}

function marked(node, move, position) {
  node.classList.add("move");
  if (move.best) node.classList.add("best");
  node.setAttribute("data-move", move.name);
  node.setAttribute("data-value", move.value);
  node.setAttribute("data-final", move.final);
  node.setAttribute("data-tone", toneOf(move, position.mover));
  if (nimbered(move)) {
    node.setAttribute("data-nimber", move.nimber);
    node.append(element("svg:title", {}, `${move.name}: leaves *${move.nimber}`));
  }
  node.addEventListener("click", () => play(move.name));
  return node;
}

function fillOf(move, position) {
  return COLOUR[toneOf(move, position.mover)];
}

function label(svg, x, y, text, colour = "#fff", size = 14) {
  const t = element("svg:text", { x, y, "text-anchor": "middle", "dominant-baseline": "middle", fill: colour, "font-size": size }, text);
  svg.append(t);
}

function draw(position) {
  const board = $("board");
  board.replaceChildren();
  const byName = new Map(position.moves.map((m) => [m.name, m]));
  const view = position.view;
  const drawers = { grid, columns, heaps, piles, dots, graph, text, dice };
  const drawer = drawers[view.kind];
  if (drawer) board.append(drawer(view, byName, position));
  else board.append(element("pre", {}, JSON.stringify(view)));
}

// A game without a picture: its state as text (`Presented::show`); the moves are the list's.
function text(view) {
  return element("pre", { class: "shown" }, view.text);
}

// One die (or a coin, for two faces) showing `face` ("?" while in the air), its value's colour
// where it is an outcome to click.
function die(face, faces, move, position) {
  const size = 56;
  const svg = element("svg:svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "die" });
  const fill = move ? chanceColour(move, position) : "#fff";
  const shape = faces === 2
    ? element("svg:circle", { cx: size / 2, cy: size / 2, r: size / 2 - 3, fill, stroke: "#333", "stroke-width": 2 })
    : element("svg:rect", { x: 3, y: 3, width: size - 6, height: size - 6, rx: 9, fill, stroke: "#333", "stroke-width": 2 });
  svg.append(move ? marked(shape, move, position) : shape);
  const ink = move ? "#fff" : "#222";
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
    5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 3], [2, 1], [2, 3], [3, 1], [3, 3]] }[face];
  if (faces !== 2 && pips) {
    for (const [row, column] of pips) svg.append(element("svg:circle", { cx: (size * column) / 4, cy: (size * row) / 4, r: 5, fill: ink, "data-pip": face }));
  } else {
    label(svg, size / 2, size / 2, String(face), ink, 16);
  }
  return svg;
}

// A game with dice (Pig, a bear-off race): the players' lines, the dice rolled, and while the
// dice are in the air, every outcome drawn as a die to click (coloured by its winning chance
// for the player rolling) and a button that rolls them.
function dice(view, byName, position) {
  const wrap = element("div", { class: "dice-view" });
  for (const line of view.lines || []) wrap.append(element("p", { class: "dice-line" }, line));
  const row = element("div", { class: "dice", "data-rolled": (view.dice || []).join(",") });
  for (const face of view.dice || []) row.append(die(face, view.faces, undefined, position));
  wrap.append(row);
  if (position.rolling) {
    const outcomes = element("div", { class: "outcomes" });
    for (const move of position.moves) {
      const face = /^\d+$/.test(move.name) ? Number(move.name) : move.name;
      const item = element("span", { class: "outcome", "data-move": move.name });
      item.append(die(face, view.faces, move, position), element("small", {}, `${words(move, position)} \u00b7 ${move.probability}`));
      outcomes.append(item);
    }
    wrap.append(element("p", {}, "The dice are in the air: each outcome with its probability."));
    wrap.append(outcomes);
    const button = element("button", { type: "button", id: "roll" }, "Roll the dice");
    button.addEventListener("click", roll);
    wrap.append(button);
  }
  return wrap;
}

// A board whose moves drop into columns (Connect Four): each column's move above it, with its
// value; the cells as discs, by the order of `marks` (the first player's red).
function columns(view, byName, position) {
  const cell = 48;
  const svg = svgBox(view.columns * cell, (view.rows + 1) * cell);
  for (let c = 0; c < view.columns; c++) {
    const name = view.move_at ? view.move_at[c] : String(c + 1);
    const move = name === null ? undefined : byName.get(name);
    const top = element("svg:rect", { x: c * cell + 2, y: 2, width: cell - 4, height: cell - 4, rx: 6, fill: move ? fillOf(move, position) : "#eee" });
    if (move) {
      marked(top, move, position);
      top.setAttribute("data-column", c + 1);
    }
    svg.append(top);
    if (move) label(svg, c * cell + cell / 2, cell / 2, words(move, position), "#fff", 13);
    for (let r = 0; r < view.rows; r++) {
      const mark = view.cells[r * view.columns + c];
      const which = (view.marks || []).indexOf(mark);
      const fill = !mark ? "#fff" : DISCS[which >= 0 ? which % DISCS.length : 0];
      svg.append(element("svg:circle", { cx: c * cell + cell / 2, cy: (r + 1) * cell + cell / 2, r: cell / 2 - 5, fill, stroke: "#1565c0", "stroke-width": 3, "data-mark": mark }));
    }
  }
  return svg;
}

// Cells in rows and columns: squares, or with `shape: "hex"` hexagons in a rhombus, each row
// half a cell to the right of the one above (Hex).
function grid(view, byName, position) {
  const cell = view.columns > 6 || view.shape === "hex" ? 48 : 90;
  const hex = view.shape === "hex";
  const tall = hex ? cell / Math.sqrt(3) : 0; // a hexagon's side
  const box = hex
    ? [(view.columns + (view.rows - 1) / 2) * cell, (view.rows - 1) * 1.5 * tall + 2 * tall]
    : [view.columns * cell, view.rows * cell];
  const svg = svgBox(box[0], box[1]);
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.columns; c++) {
      const mark = view.cells[r * view.columns + c];
      // The move a click on the cell plays: `move_at`'s, or by default "ROW,COLUMN" from 1.
      const name = view.move_at ? view.move_at[r * view.columns + c] : `${r + 1},${c + 1}`;
      const move = name === null ? undefined : byName.get(name);
      const fill = move ? fillOf(move, position) : mark === "#" ? "#455a64" : "#fff";
      const [x, y] = hex ? [c * cell + r * cell / 2 + cell / 2, r * 1.5 * tall + tall] : [c * cell + cell / 2, r * cell + cell / 2];
      const shape = hex
        ? element("svg:polygon", { points: [0, 1, 2, 3, 4, 5].map((k) => {
          const angle = Math.PI / 6 + (k * Math.PI) / 3;
          return `${x + (tall - 1) * Math.cos(angle)},${y + (tall - 1) * Math.sin(angle)}`;
        }).join(" "), fill, stroke: "#333" })
        : element("svg:rect", { x: x - cell / 2 + 2, y: y - cell / 2 + 2, width: cell - 4, height: cell - 4, fill, stroke: "#333" });
      svg.append(move ? marked(shape, move, position) : shape);
      if (mark && mark !== "#") label(svg, x, y - (move ? 8 : 0), mark, move ? "#fff" : "#222", cell / 2);
      if (move) label(svg, x, y + (mark ? cell / 4 : 0), words(move, position), "#fff", mark ? 11 : 14);
    }
  }
  return svg;
}

function heaps(view, byName, position) {
  const size = 30, most = Math.max(1, ...view.heaps);
  const svg = svgBox((most + 2) * size, view.heaps.length * size + 10);
  view.heaps.forEach((count, h) => {
    label(svg, size / 2, h * size + size / 2 + 5, String(h + 1), "#222");
    for (let k = 0; k < count; k++) {
      const take = count - k; // clicking the k-th counter takes it and every one after it
      const move = byName.get(`${h + 1},${take}`);
      const counter = element("svg:circle", { cx: (k + 1.5) * size, cy: h * size + size / 2 + 5, r: size / 2 - 3, fill: move ? fillOf(move, position) : "#999" });
      svg.append(move ? marked(counter, move, position) : counter);
    }
  });
  return svg;
}

function piles(view, byName, position) {
  const wrap = element("div");
  const row = element("div", { class: "piles" });
  view.piles.forEach((pile, i) => {
    const gone = i < view.from || i >= view.to;
    row.append(element("span", { class: "pile" + (gone ? " gone" : "") }, String(pile)));
  });
  wrap.append(row);
  const left = view.to - view.from;
  if (view.m !== undefined && left > 0) {
    const most = Math.min(2 * view.m, left);
    const take = most === 1 ? "the next pile" : `the next 1 to ${most} piles`;
    wrap.append(element("p", { class: "rule" }, `M = ${view.m}: take ${take}`));
  }
  const buttons = element("div", { class: "pile-moves" });
  for (const move of position.moves) {
    const said = move.words ? capitalised(move.words) : move.name;
    const button = element("button", { type: "button", title: resultWords(move.final, position) }, `${said}: ${words(move, position)}`);
    button.style.background = fillOf(move, position);
    button.style.color = "#fff";
    buttons.append(marked(button, move, position));
  }
  wrap.append(buttons);
  return wrap;
}

// Who closed each box: a box closed by a move of the history belongs to that move's player
// (a box closed before the position the page started from has no known owner).
function boxOwners() {
  const owners = new Map();
  const closed = (view) => {
    const drawn = new Set(view.drawn.map(([a, b]) => `${a}-${b}`));
    const boxes = [];
    for (let r = 0; r < view.rows; r++) {
      for (let c = 0; c < view.columns; c++) {
        const sides = [[[r, c], [r, c + 1]], [[r + 1, c], [r + 1, c + 1]], [[r, c], [r + 1, c]], [[r, c + 1], [r + 1, c + 1]]];
        if (sides.every(([a, b]) => drawn.has(`${a}-${b}`))) boxes.push(`${r},${c}`);
      }
    }
    return boxes;
  };
  const reached = page.history.slice(0, page.played.length + 1);
  reached.forEach((position, i) => {
    for (const box of closed(position.view)) {
      if (!owners.has(box)) owners.set(box, i === 0 ? null : reached[i - 1].mover);
    }
  });
  return owners;
}

function dots(view, byName, position) {
  const gap = 80, pad = 32;
  const svg = svgBox(view.columns * gap + 2 * pad, view.rows * gap + 2 * pad);
  const at = ([r, c]) => [pad + c * gap, pad + r * gap];
  for (const [box, owner] of boxOwners()) {
    const [r, c] = box.split(",").map(Number);
    const square = element("svg:rect", { x: pad + c * gap, y: pad + r * gap, width: gap, height: gap, fill: owner === null ? "#cfd8dc" : SIDE_LIGHT[owner], class: "box" });
    if (owner !== null) square.setAttribute("data-owner", position.players[owner]);
    svg.append(square);
    if (owner !== null) label(svg, pad + (c + 0.5) * gap, pad + (r + 0.5) * gap, capitalised(position.players[owner])[0], SIDE[owner], 30);
  }
  for (const [a, b] of view.drawn) {
    const [x1, y1] = at(a), [x2, y2] = at(b);
    svg.append(element("svg:line", { x1, y1, x2, y2, stroke: "#222", "stroke-width": 6 }));
  }
  for (const move of position.moves) {
    const [x1, y1] = at(move.from), [x2, y2] = at(move.to);
    svg.append(element("svg:line", { x1, y1, x2, y2, stroke: fillOf(move, position), "stroke-width": 10, "stroke-dasharray": "6 4", "stroke-linecap": "round" }));
    // The line's click area: a band around it, wider than the line itself.
    const band = element("svg:rect", { x: Math.min(x1, x2) - 10, y: Math.min(y1, y2) - 10, width: Math.abs(x2 - x1) + 20, height: Math.abs(y2 - y1) + 20, fill: "transparent", class: "band" });
    svg.append(marked(band, move, position));
    label(svg, (x1 + x2) / 2 + (y1 === y2 ? 0 : 14), (y1 + y2) / 2 + (y1 === y2 ? -12 : 0), words(move, position), "#222", 12);
  }
  for (let r = 0; r <= view.rows; r++) {
    for (let c = 0; c <= view.columns; c++) {
      const [cx, cy] = at([r, c]);
      svg.append(element("svg:circle", { cx, cy, r: 6, fill: "#222" }));
    }
  }
  return svg;
}

function graph(view, byName, position) {
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
    const fill = move ? fillOf(move, position) : i === view.hole ? "#000" : "#fff";
    const node = element("svg:circle", { cx, cy, r: 20, fill, stroke: "#333", "stroke-width": 2 });
    svg.append(move ? marked(node, move, position) : node);
    const who = i === view.mouse ? "🐭" : i === view.cat ? "🐱" : i === view.hole ? "hole" : String(i);
    label(svg, cx, cy, who, i === view.hole && !move ? "#fff" : "#222", i === view.mouse || i === view.cat ? 20 : 12);
  }
  return svg;
}

// ---------------------------------------------------------------- the history

// The final result after each move played (the first player's points minus the second's at
// the end, with perfect play from there): flat while both play perfectly, a step at each
// mistake, which is marked. Outcome games plot win, draw or loss, each point with its
// remoteness (the moves left).
function drawHistory() {
  const svg = $("history");
  svg.replaceChildren();
  const reached = page.history.slice(0, page.played.length + 1);
  if (!reached.length) return;
  if (reached[reached.length - 1].chance) return drawChances(svg, reached);
  const last = reached[reached.length - 1];
  const [first, second] = last.players;
  const finals = reached.map((p) => (p.outcomes ? Math.sign(p.final) : p.final));
  let top = last.outcomes ? 1 : Math.max(0, ...finals);
  let bottom = last.outcomes ? -1 : Math.min(0, ...finals);
  if (top === bottom) [top, bottom] = [top + 1, bottom - 1];
  const left = 64, right = 350, high = 24, low = 136;
  const x = (i) => left + ((right - left) * i) / Math.max(1, reached.length - 1);
  const y = (v) => high + ((low - high) * (top - v)) / (top - bottom);
  const axis = { stroke: "#555", "stroke-width": 1 };
  svg.append(element("svg:line", { x1: left, y1: high, x2: left, y2: low, ...axis }));
  svg.append(element("svg:line", { x1: left, y1: low, x2: right, y2: low, ...axis }));
  svg.append(element("svg:line", { x1: left, y1: y(0), x2: right, y2: y(0), stroke: "#bbb", "stroke-dasharray": "3 3" }));
  const ticks = last.outcomes
    ? [[1, `${first} wins`], [0, "draw"], [-1, `${second} wins`]]
    : [...new Set([top, 0, bottom])].map((v) => [v, signed(v)]);
  for (const [v, words] of ticks) {
    svg.append(element("svg:line", { x1: left - 4, y1: y(v), x2: left, y2: y(v), ...axis }));
    const tick = element("svg:text", { x: left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "middle", "font-size": 10, class: "tick" }, words);
    svg.append(tick);
  }
  const every = Math.max(1, Math.ceil(reached.length / 12));
  reached.forEach((_, i) => {
    if (i % every && i !== reached.length - 1) return;
    svg.append(element("svg:text", { x: x(i), y: low + 12, "text-anchor": "middle", "font-size": 10, class: "tick" }, String(i)));
  });
  svg.append(element("svg:text", { x: (left + right) / 2, y: low + 28, "text-anchor": "middle", "font-size": 11 }, "moves played"));
  const across = last.outcomes ? "result" : `final ${first} \u2212 ${second}`;
  svg.append(element("svg:text", { x: 12, y: (high + low) / 2, "text-anchor": "middle", "font-size": 11, transform: `rotate(-90 12 ${(high + low) / 2})` }, across));
  svg.append(element("svg:polyline", { points: finals.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#1565c0", "stroke-width": 2 }));
  finals.forEach((v, i) => {
    // A mistake: the move played from the position before left its player a worse final
    // result; a slip: a move that was not best but kept the result (a slower win).
    const before = reached[i - 1];
    const chosen = before && before.moves.find((m) => m.name === page.played[i - 1]);
    const plotted = (final) => (before.outcomes ? Math.sign(final) : final);
    const worse = chosen && (before.mover === 0 ? plotted(chosen.final) < plotted(before.final) : plotted(chosen.final) > plotted(before.final));
    const slip = chosen && !chosen.best && !worse;
    const dot = element("svg:circle", {
      cx: x(i), cy: y(v), r: worse ? 5 : 3,
      fill: worse ? "#c62828" : slip ? "#f9a825" : "#1565c0",
      "data-final": reached[i].final,
      "data-mistake": worse ? "true" : "false",
    });
    const remote = reached[i].outcomes && reached[i].remoteness ? `, ${reached[i].remoteness} moves left` : "";
    const said = `after ${i} moves: ${reached[i].result}${remote}` + (worse ? ` (a mistake by ${before.players[before.mover]})` : slip ? " (not the fastest)" : "");
    dot.append(element("svg:title", {}, said));
    svg.append(dot);
    if (worse) label(svg, x(i), y(v) - 11, "?", "#c62828", 13);
    if (reached[i].outcomes && reached[i].remoteness) label(svg, x(i), y(v) + (v > 0 ? 11 : -11), String(reached[i].remoteness), "#555", 9);
  });
}

// A game with chance's history: the first player's winning chance (or expected margin) after
// each move and roll, with perfect play from there; a drop after a move of the first player's
// (a rise after the second's) is a mistake, marked.
function drawChances(svg, reached) {
  const last = reached[reached.length - 1];
  const [first] = last.players;
  const values = reached.map((p) => p.first);
  let top = last.outcomes ? 1 : Math.max(0, ...values);
  let bottom = last.outcomes ? 0 : Math.min(0, ...values);
  if (top === bottom) [top, bottom] = [top + 1, bottom - 1];
  const left = 64, right = 350, high = 24, low = 136;
  const x = (i) => left + ((right - left) * i) / Math.max(1, reached.length - 1);
  const y = (v) => high + ((low - high) * (top - v)) / (top - bottom);
  const axis = { stroke: "#555", "stroke-width": 1 };
  svg.append(element("svg:line", { x1: left, y1: high, x2: left, y2: low, ...axis }));
  svg.append(element("svg:line", { x1: left, y1: low, x2: right, y2: low, ...axis }));
  const ticks = last.outcomes ? [[1, "100%"], [0.5, "50%"], [0, "0%"]] : [[top, String(top)], [0, "0"], [bottom, String(bottom)]];
  for (const [v, said] of ticks) {
    svg.append(element("svg:line", { x1: left - 4, y1: y(v), x2: left, y2: y(v), ...axis }));
    svg.append(element("svg:text", { x: left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "middle", "font-size": 10, class: "tick" }, said));
  }
  svg.append(element("svg:text", { x: (left + right) / 2, y: low + 28, "text-anchor": "middle", "font-size": 11 }, "moves and rolls"));
  const across = last.outcomes ? `${first}'s winning chance` : `${first}'s expected margin`;
  svg.append(element("svg:text", { x: 12, y: (high + low) / 2, "text-anchor": "middle", "font-size": 11, transform: `rotate(-90 12 ${(high + low) / 2})` }, across));
  svg.append(element("svg:polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#1565c0", "stroke-width": 2, id: "chance-line" }));
  values.forEach((v, i) => {
    const before = reached[i - 1];
    const chosen = before && !before.rolling && before.moves.find((m) => m.name === page.played[i - 1]);
    const worse = chosen && !chosen.best;
    const dot = element("svg:circle", { cx: x(i), cy: y(v), r: worse ? 5 : 3, fill: worse ? "#c62828" : "#1565c0", "data-first": v, "data-mistake": worse ? "true" : "false" });
    dot.append(element("svg:title", {}, `after ${i}: ${chanceWords(v, last)}` + (worse ? ` (a mistake by ${before.players[before.mover]})` : "")));
    svg.append(dot);
    if (worse) label(svg, x(i), y(v) - 11, "?", "#c62828", 13);
  });
}

// ---------------------------------------------------------------- start

// The inputs the game takes, as its listing says: a position (`at`), a board's size.
async function showInputs() {
  $("at-label").hidden = true;
  $("board-size").hidden = true;
  try {
    const listing = await (await fetch("/api/games")).json();
    const game = listing.games.find((g) => g.name === page.game);
    if (!game) return;
    $("at-label").hidden = !game.position;
    $("board-size").hidden = !game.board;
  } catch (failure) {
    // Without the listing the page still plays: the inputs stay hidden.
  }
}

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
  showInputs();
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
    if (page.loading || !page.played.length) return;
    page.redo.push(page.played.pop());
    $("side").value = "none";
    refresh();
  });
  $("redo").addEventListener("click", () => {
    if (page.loading || !page.redo.length) return;
    page.played.push(page.redo.pop());
    refresh();
  });
  $("solver-move").addEventListener("click", solverMove);
  $("side").addEventListener("change", () => {
    const current = page.history[page.played.length];
    if (current && !page.loading) maybeSolverMoves(current);
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
  for (let i = 0; i < all.length; i++) {
    page.played = all.slice(0, i);
    const mover = nextMover();
    const analysis = await analyze();
    if (!analysis) {
      page.redo = all.slice(page.played.length).reverse();
      controls();
      return;
    }
    page.history.length = i;
    page.history.push(positionOf(analysis, mover));
  }
  page.played = all;
  refresh();
}

start();
