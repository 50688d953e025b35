// chargeopt serve: the board page. Plain JavaScript, no build step. The server checks every
// board (the same checks as the command line) and solves; this file draws and edits.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARGIN = 26;
const POLL_MS = 250;
const TURN_STEP = 15;

const state = {
  file: "board.toml",
  doc: null, // the scenario document, as the file holds it
  view: null, // what the server says to draw for `doc`
  placed: null, // piece id -> {x, y, facing, contact, engaged, fights} at the end of the move
  result: null, // the solver's result document, or an opened one
  resultText: null,
  byHand: false,
  marks: {}, // piece id -> messages of broken rules
  problems: [], // the start layout's problems, {key, line}: the board opened but cannot be solved
  paths: {}, // piece id -> [[x, y], ...]: the path walked, where it bends
  rulesets: [], // every ruleset the server knows: {ids, kind, moves: [{kind, keys}]}
  actionKeys: [], // every action key the form has a control for
  tableEdges: [],
  selected: null, // {id, end}
  zoom: null, // the part of the board shown, {x, y, w, h} in pixels; null: all of it
  solving: false,
  timeLimit: 20,
  data: null, // the 40kdc data set as the server offers it: {installed, line | layouts, datasheets}
  adding: false, // the next click on the board places the unit of "Add unit"
  tts: null, // the Tabletop Simulator save opened: {name, text, frame: {scale, board} once imported}
};

const $ = (id) => document.getElementById(id);

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function round(value, places) {
  const f = 10 ** places;
  return Math.round(value * f) / f;
}

function normalFacing(deg) {
  let f = ((deg % 360) + 360) % 360;
  if (f > 180) f -= 360;
  return round(f, 2);
}

// ---------------------------------------------------------------- talking to the server

async function call(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    return { ok: false, status: 0, data: { error: [`the server cannot be reached (${err})`] } };
  }
  const kind = response.headers.get("content-type") || "";
  const data = kind.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, data };
}

function showError(lines) {
  $("message").textContent = (lines || []).map((l) => `error: ${l}`).join("\n");
}

function clearError() {
  $("message").textContent = "";
}

function boardRequest(extra = {}) {
  return { name: state.file, document: state.doc, ...extra };
}

// ---------------------------------------------------------------- opening and saving

async function openScenarioText(name, text) {
  if (state.solving) return showError(["a solve is running: wait for it or cancel it"]);
  const reply = await call("POST", "/api/load", { name, text });
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  state.tts = null;
  $("tts-name").textContent = "";
  $("tts-move").hidden = true;
  showBoard(reply.data);
  $("status").textContent = state.problems.length
    ? `Opened ${state.file}: fix the marked problems, then solve`
    : `Opened ${state.file}`;
}

// A board the server opened (a file, a layout, an imported save): drawn whole, nothing selected.
function showBoard(data) {
  state.file = data.file;
  takeBoard(data);
  state.zoom = null;
  select(null, false);
  clearAnswer();
  fillMoveForm();
  draw();
  $("board-name").textContent = state.view.name;
  $("file-name").textContent = state.file;
}

// The start layout's problems ({key, line}) listed and marked on the models they name.
function setProblems(problems) {
  state.problems = problems || [];
  $("problems").hidden = !state.problems.length;
  $("problem-list").replaceChildren(...state.problems.map((p) => {
    const item = document.createElement("li");
    item.textContent = p.line;
    return item;
  }));
}

function pieceKey(piece) {
  return piece.path.map((step) => (typeof step === "number" ? `[${step}]` : `.${step}`)).join("").slice(1);
}

function layoutProblems(piece) {
  const key = pieceKey(piece);
  return state.problems.filter((p) => p.key === key || p.key.startsWith(`${key}.`)).map((p) => p.line);
}

async function openResultText(name, text) {
  if (!state.doc) return showError(["open a scenario first, then its result"]);
  const reply = await call("POST", "/api/result", { name, text });
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  showAnswer(reply.data.result, null, `Opened ${reply.data.file}: press Check to judge it`);
}

function readFile(input, then) {
  const file = input.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => then(file.name, String(reader.result));
  reader.readAsText(file);
  input.value = "";
}

function download(name, text, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

async function saveScenario(format) {
  if (!state.doc) return;
  const reply = await call("POST", "/api/save", boardRequest({ format }));
  if (!reply.ok) return showError(reply.data.error);
  download(reply.data.file, reply.data.text, "text/plain");
}

function saveResult() {
  const stem = state.file.replace(/\.(toml|json)$/i, "");
  if (state.resultText && !state.byHand) {
    return download(`${stem}.result.json`, state.resultText, "application/json");
  }
  if (!state.placed) return showError(["nothing to save: solve, or place by hand first"]);
  const doc = placedDocument();
  download(`${stem}.result.json`, JSON.stringify(doc, null, 2) + "\n", "application/json");
}

async function savePicture() {
  if (!state.doc) return;
  const reply = await call("POST", "/api/picture", boardRequest({ result: state.byHand ? null : state.result }));
  if (!reply.ok) return showError(reply.data.error);
  download(state.file.replace(/\.(toml|json)$/i, "") + ".svg", reply.data, "image/svg+xml");
}

// ---------------------------------------------------------------- the move form

function rulesetIds(doc) {
  return typeof doc.ruleset === "string" ? [doc.ruleset] : [...(doc.ruleset || [])];
}

function moveOf(kind) {
  return state.view.moves.find((m) => m.kind === kind);
}

// The menus as the server gives them: every ruleset it knows (those of another kind of unit,
// models or blocks, disabled), the moves solved under the file's ruleset, and only the controls
// the chosen move reads. A move the file names that is not solved is shown as such.
function fillMoveForm() {
  const view = state.view;
  $("move").disabled = Boolean(view.draft);
  $("draft-hint").hidden = !view.draft;
  if (view.draft) {
    for (const row of document.querySelectorAll("#move [data-key]")) row.hidden = true;
    return;
  }
  const action = state.doc.action || {};
  const ids = rulesetIds(state.doc);
  const rules = $("ruleset");
  const options = state.rulesets.map((r) => {
    const option = new Option(r.ids.join(" + "), JSON.stringify(r.ids));
    option.disabled = r.kind !== view.kind;
    if (option.disabled) option.title = r.kind === "blocks" ? "rank-and-file blocks: open a file of blocks" : "models: open a file of models";
    return option;
  });
  if (!state.rulesets.some((r) => JSON.stringify(r.ids) === JSON.stringify(ids))) {
    options.unshift(new Option(ids.join(" + "), JSON.stringify(ids)));
  }
  rules.replaceChildren(...options);
  rules.value = JSON.stringify(ids);
  const kind = $("action-kind");
  const current = action.kind || "charge";
  const moves = view.moves.map((m) => new Option(m.kind, m.kind));
  if (!moveOf(current)) moves.unshift(new Option(`${current} (not solved under ${ids.join(" + ")})`, current));
  kind.replaceChildren(...moves);
  kind.value = current;
  const unit = $("action-unit");
  unit.replaceChildren(...view.units.map((u) => new Option(`${u.id} (${u.owner})`, u.id)));
  const acting = action.unit || (action.units || [])[0];
  unit.value = acting;
  unit.disabled = Boolean(action.units);
  const actingOwner = (view.units.find((u) => u.id === acting) || {}).owner;
  const enemies = view.units.filter((u) => u.owner !== actingOwner).map((u) => u.id);
  fillBoxes($("action-targets"), enemies, action.targets || []);
  fillBoxes($("action-fought"), enemies, action.fought_by || []);
  $("action-roll").value = action.roll ?? "";
  $("roll-name").textContent = ids.includes("t9a-2022") ? "Charge Range"
    : ids.includes("tow") ? "Charge Range (Movement + higher D6)" : "Roll";
  $("action-charged").checked = Boolean(action.charged);
  $("action-edge").replaceChildren(...state.tableEdges.map((e) => new Option(e, e)));
  $("action-edge").value = action.table_edge || state.tableEdges[0] || "";
  $("action-fast").checked = Boolean(action.fast);
  $("action-difficult").value = action.difficult_roll ?? "";
  const keys = (moveOf(current) || { keys: [] }).keys;
  for (const row of document.querySelectorAll("#move [data-key]")) row.hidden = !keys.includes(row.dataset.key);
}

function fillBoxes(holder, ids, checked, onChange = () => editAction()) {
  holder.replaceChildren();
  for (const id of ids) {
    const label = document.createElement("label");
    label.className = "target";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = id;
    box.checked = checked.includes(id);
    box.addEventListener("change", onChange);
    label.append(box, ` ${id}`);
    holder.appendChild(label);
  }
}

function checkedIn(holder) {
  return [...holder.querySelectorAll("input:checked")].map((b) => b.value);
}

// The action as the form shows it: the chosen move with the keys it reads, every other key
// the form has a control for dropped (a move never carries a key it does not read).
function formAction(kind, keys) {
  const action = { ...state.doc.action, kind };
  if (!state.doc.action.units) action.unit = $("action-unit").value;
  for (const key of state.actionKeys) if (!keys.includes(key)) delete action[key];
  if (keys.includes("targets")) {
    action.targets = checkedIn($("action-targets"));
    if (!action.targets.length && state.doc.action.kind !== kind) action.targets = [...$("action-targets").querySelectorAll("input")].map((b) => b.value).slice(0, 1);
  }
  const number = (id, key) => {
    const text = $(id).value.trim();
    if (!keys.includes(key) || text === "") delete action[key];
    else action[key] = Number(text);
  };
  number("action-roll", "roll");
  number("action-difficult", "difficult_roll");
  const flag = (id, key) => {
    if (keys.includes(key) && $(id).checked) action[key] = true;
    else delete action[key];
  };
  flag("action-charged", "charged");
  flag("action-fast", "fast");
  if (keys.includes("table_edge")) action.table_edge = $("action-edge").value;
  if (keys.includes("fought_by")) {
    action.fought_by = checkedIn($("action-fought"));
    if (!action.fought_by.length) delete action.fought_by;
  }
  return action;
}

async function editAction() {
  const before = JSON.stringify(state.doc);
  const kind = $("action-kind").value;
  const move = moveOf(kind);
  if (move) state.doc.action = formAction(kind, move.keys);
  else if (!state.doc.action.units) state.doc.action = { ...state.doc.action, unit: $("action-unit").value };
  await commitBoard(before);
}

async function editRuleset() {
  const before = JSON.stringify(state.doc);
  const ids = JSON.parse($("ruleset").value);
  const choice = state.rulesets.find((r) => JSON.stringify(r.ids) === JSON.stringify(ids));
  state.doc.ruleset = ids.length === 1 ? ids[0] : ids;
  const kind = $("action-kind").value;
  const move = choice.moves.find((m) => m.kind === kind) || choice.moves[0] || { kind, keys: [] };
  state.doc.action = formAction(move.kind, move.keys);
  await commitBoard(before);
}

// ---------------------------------------------------------------- editing the board

function pieceById(id) {
  return state.view.pieces.find((p) => p.id === id);
}

function docEntry(piece) {
  let node = state.doc;
  for (const step of piece.path) node = node[step];
  return node;
}

// Whether the document itself holds the piece (a layout's objectives are added by the server
// and stay where the layout puts them).
function inDocument(piece) {
  let node = state.doc;
  for (const step of piece.path) {
    if (node === undefined || node === null) return false;
    node = node[step];
  }
  return node !== undefined && node !== null;
}

async function commitBoard(before) {
  if (state.solving) {
    state.doc = JSON.parse(before);
    showError(["a solve is running: wait for it or cancel it"]);
    fillMoveForm();
    draw();
    return false;
  }
  const fixing = state.problems.length > 0;
  const reply = await call("POST", "/api/board", boardRequest(fixing ? { fixing: true } : {}));
  if (!reply.ok) {
    state.doc = JSON.parse(before);
    showError(reply.data.error);
    fillMoveForm();
    draw();
    return false;
  }
  clearError();
  takeBoard(reply.data);
  if (state.result || state.placed) {
    clearAnswer();
    $("status").textContent = "The board changed: solve again";
  }
  if (fixing) {
    $("status").textContent = state.problems.length
      ? `${state.problems.length} problem(s) left: fix them, then solve`
      : "Every problem fixed: the board can be solved";
  }
  fillMoveForm();
  draw();
  return true;
}

function takeBoard(data) {
  state.doc = data.document;
  state.view = data.view;
  setProblems(data.problems);
}

function movePiecesInDoc(ids, dx, dy) {
  for (const id of ids) {
    const entry = docEntry(pieceById(id));
    entry.x = round(entry.x + dx, 3);
    entry.y = round(entry.y + dy, 3);
  }
}

async function turnSelected(step) {
  const sel = state.selected;
  if (!sel) return;
  const piece = pieceById(sel.id);
  if (!piece || !piece.turns) return showError([`${sel.id} is round: turning changes nothing`]);
  if (sel.end) {
    const p = state.placed[sel.id];
    p.facing = normalFacing((p.facing ?? piece.facing) + step);
    handPlaced();
    return draw();
  }
  const before = JSON.stringify(state.doc);
  const entry = docEntry(piece);
  entry.facing = normalFacing((entry.facing || 0) + step);
  await commitBoard(before);
}

function nextModelId(unit, doc) {
  const used = new Set(doc.units.flatMap((u) => (u.models || []).map((m) => m.id)));
  for (let n = 1; ; n++) if (!used.has(`${unit.id}${n}`)) return `${unit.id}${n}`;
}

function selectedModel() {
  const sel = state.selected;
  const piece = sel && state.view.kind !== "blocks" ? pieceById(sel.id) : null;
  return piece && piece.unit ? piece : null;
}

async function addModel() {
  const piece = selectedModel();
  if (!piece) return showError(["select a model of the unit first"]);
  const before = JSON.stringify(state.doc);
  const unit = state.doc.units[piece.path[1]];
  const copy = { ...docEntry(piece), id: nextModelId(unit, state.doc) };
  copy.x = round(copy.x + piece.size / state.view.scale + 0.25, 3);
  unit.models.push(copy);
  if (await commitBoard(before)) select(copy.id, false);
}

async function removeModel() {
  const piece = selectedModel();
  if (!piece) return showError(["select a model first"]);
  const before = JSON.stringify(state.doc);
  state.doc.units[piece.path[1]].models.splice(piece.path[3], 1);
  state.selected = null;
  await commitBoard(before);
}

function select(id, end) {
  state.selected = id ? { id, end } : null;
  $("selected").textContent = id ? `${id}${end ? " (end position)" : ""}` : "none";
  for (const g of document.querySelectorAll("#board .piece")) {
    const on = g.dataset.id === id && (g.dataset.end === "1") === Boolean(end);
    g.classList.toggle("selected", on);
  }
}

// ---------------------------------------------------------------- answers

function clearAnswer() {
  state.placed = null;
  state.result = null;
  state.resultText = null;
  state.byHand = false;
  state.marks = {};
  state.paths = {};
  $("summary").textContent = "";
  $("check-output").textContent = "";
}

function showAnswer(result, summary, status) {
  state.result = result;
  state.byHand = false;
  state.marks = {};
  state.placed = {};
  for (const p of result.placements || []) state.placed[p.model] = { ...p };
  for (const b of result.blocks || []) {
    if (["charges", "rotates"].includes(b.outcome ?? "charges") && b.x !== undefined) state.placed[b.unit] = { ...b };
  }
  for (const v of result.violations || []) mark(v);
  state.paths = {};
  $("status").textContent = status;
  $("summary").textContent = summary || "";
  $("check-output").textContent = "";
  draw();
  walkedPaths(result);
}

// The paths the models walked (bent around terrain and bases), from the server.
async function walkedPaths(result) {
  if (state.view.kind === "blocks" || !(result.placements || []).length) return;
  const reply = await call("POST", "/api/paths", boardRequest({ result }));
  if (!reply.ok || state.result !== result || state.byHand) return;
  state.paths = reply.data.paths;
  draw();
}

// The answer on the board is now the hand's: the solver's words, paths and verdicts about
// other positions are cleared (the summary is rewritten by Check from what stands).
function handPlaced() {
  if (!state.byHand) {
    state.byHand = true;
    $("status").textContent = "Placed by hand: press Check to judge it";
  }
  state.marks = {};
  state.paths = {};
  $("summary").textContent = state.result ? "The solver's answer was changed by hand: press Check" : "";
  $("check-output").textContent = "";
  for (const p of Object.values(state.placed)) {
    p.contact = [];
    p.engaged = [];
    p.fights = [];
    p.moved = undefined;
  }
}

function handSummary() {
  const lines = Object.entries(state.placed).map(([id, p]) => {
    const facing = p.facing !== undefined && p.facing !== null ? `, facing ${round(p.facing, 2)}` : "";
    return `  ${id} at (${round(p.x, 3)}, ${round(p.y, 3)})${facing}`;
  });
  return ["Placed by hand:", ...lines].join("\n");
}

function placeByHand() {
  if (!state.doc) return;
  const acting = state.view.units.filter((u) => u.acting).map((u) => u.id);
  state.placed = state.placed || {};
  for (const piece of state.view.pieces.filter((p) => acting.includes(p.unit))) {
    if (!state.placed[piece.id]) {
      state.placed[piece.id] = { x: piece.x, y: piece.y, facing: piece.facing, unit: piece.unit };
    }
  }
  handPlaced();
  draw();
}

function placedDocument() {
  if (state.view.kind === "blocks") {
    const blocks = (state.result ? state.result.blocks || [] : []).map((b) => {
      const p = state.placed[b.unit];
      return p ? { ...b, x: p.x, y: p.y, facing: p.facing } : b;
    });
    return { blocks };
  }
  const placements = Object.entries(state.placed).map(([model, p]) => {
    const out = { model, x: round(p.x, 3), y: round(p.y, 3) };
    if (p.facing !== undefined && p.facing !== null) out.facing = p.facing;
    return out;
  });
  return { placements };
}

function mark(violation) {
  for (const id of violation.models || []) {
    (state.marks[id] = state.marks[id] || []).push(`[${violation.kind}] ${violation.message}`);
  }
}

async function check() {
  if (!state.doc) return;
  const reply = await call("POST", "/api/check", boardRequest(state.placed ? placedDocument() : {}));
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  state.marks = {};
  for (const v of reply.data.violations) mark(v);
  $("check-output").textContent = reply.data.summary;
  if (state.byHand && state.placed) $("summary").textContent = handSummary();
  $("status").textContent = reply.data.ok ? "Check: legal" : `Check: ${reply.data.violations.length} broken rule(s)`;
  draw();
}

// ---------------------------------------------------------------- solving

async function solve() {
  if (!state.doc || state.solving) return;
  state.solving = true;
  setSolving(true);
  const limit = Number($("time-limit").value) || state.timeLimit;
  const reply = await call("POST", "/api/solve", boardRequest({ time_limit: limit }));
  if (!reply.ok) {
    setSolving(false);
    return showError(reply.data.error);
  }
  clearError();
  $("status").textContent = "Solving…";
  poll();
}

async function poll() {
  const reply = await call("GET", "/api/solve");
  const job = reply.data;
  if (reply.ok && job.state === "running") {
    $("progress-bar").value = Math.min(1, job.seconds / job.limit_s);
    const stage = job.stage ? `: ${job.stage}` : "";
    $("progress-text").textContent = `${job.seconds.toFixed(1)} s of ${job.limit_s} s${stage}${job.cancelling ? " (cancelling)" : ""}`;
    setTimeout(poll, POLL_MS);
    return;
  }
  setSolving(false);
  if (!reply.ok || job.state !== "done") {
    $("status").textContent = "Not solved";
    return showError(job.error || [`unexpected answer from the server (${reply.status})`]);
  }
  if (!job.result) {
    clearAnswer();
    $("status").textContent = job.cut_short || "No answer";
    draw();
    return;
  }
  state.resultText = job.result_text;
  const headline = job.summary.split("\n")[0];
  showAnswer(job.result, job.summary, headline);
  state.resultText = job.result_text;
}

function setSolving(on) {
  state.solving = on;
  $("solve").disabled = on;
  $("cancel").disabled = !on;
  $("progress").hidden = !on;
  if (on) {
    $("progress-bar").value = 0;
    $("progress-text").textContent = "starting";
  }
}

async function cancel() {
  await call("POST", "/api/solve/cancel", {});
}

// ---------------------------------------------------------------- drawing

function draw() {
  const svg = $("board");
  svg.replaceChildren();
  if (!state.view) return;
  const view = state.view;
  const s = view.scale;
  const w = view.board.width * s;
  const h = view.board.height * s;
  const box = state.zoom || { x: -MARGIN, y: -MARGIN, w: w + 2 * MARGIN, h: h + 2 * MARGIN };
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  el("style", {}, svg).textContent = view.style + PAGE_STYLE;
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 Z", fill: "#173a60" }, marker);
  const table = el("g", { id: "table" }, svg);
  el("rect", { class: "board", x: 0, y: 0, width: w, height: h }, table);
  for (let i = 1; i < view.board.width; i++) {
    el("line", { class: i % 6 ? "grid" : "grid6", x1: i * s, y1: 0, x2: i * s, y2: h }, table);
  }
  for (let j = 1; j < view.board.height; j++) {
    el("line", { class: j % 6 ? "grid" : "grid6", x1: 0, y1: j * s, x2: w, y2: j * s }, table);
  }
  for (let i = 0; i <= view.board.width; i += 6) {
    el("text", { class: "tick", x: i * s, y: -6, "text-anchor": "middle" }, table).textContent = `${i}"`;
  }
  for (let j = 0; j <= view.board.height; j += 6) {
    el("text", { class: "tick", x: -5, y: j * s, dy: "0.35em", "text-anchor": "end" }, table).textContent = `${j}"`;
  }
  const terrain = el("g", { id: "terrain" }, table);
  terrain.innerHTML = view.terrain_svg;

  const placed = state.placed || {};
  const touched = new Set(Object.values(placed).flatMap((p) => p.contact || []));
  const starts = el("g", { id: "start-layer" }, svg);
  for (const piece of view.pieces) {
    const moved = placed[piece.id] !== undefined;
    const extra = moved ? " start" : touched.has(piece.id) ? " contact" : "";
    drawPiece(starts, piece, piece, `${piece.owner}${extra}`, false);
  }
  const answer = el("g", { id: "answer-layer" }, svg);
  const trails = el("g", { id: "trail-layer" });
  for (const piece of view.pieces) {
    const p = placed[piece.id];
    if (!p) continue;
    if (view.kind === "blocks") {
      drawBlockTrail(trails, piece, p);
      continue;
    }
    const r = piece.radius || piece.size / 2;
    const walked = state.paths[piece.id];
    const points = trimmed((walked || [[piece.x, piece.y], [p.x, p.y]]).map(([x, y]) => [x * s, y * s]), r);
    if (!points) continue;
    const line = el("polyline", { class: walked ? "move walked" : "move", points: points.map((q) => q.join(",")).join(" "),
      fill: "none", "marker-end": "url(#arrow)" }, answer);
    const how = state.byHand ? "placed by hand" : walked ? "along the path drawn" : "in a straight line";
    const far = p.moved ?? Math.hypot(p.x - piece.x, p.y - piece.y);
    el("title", {}, line).textContent = `${piece.id} moves ${far.toFixed(2)}" ${how}`;
  }
  $("legend").hidden = !Object.keys(placed).length || view.kind === "blocks";
  $("legend-move").textContent = state.byHand ? "move (straight line from the start to where it was placed by hand)" : "move (path)";
  for (const piece of view.pieces) {
    const p = placed[piece.id];
    if (!p) continue;
    const ring = (p.contact || []).length ? " contact" : ((p.engaged || []).length || (p.fights || []).length) ? " engaged" : "";
    const at = { x: p.x, y: p.y, facing: p.facing ?? piece.facing };
    drawPiece(answer, piece, at, `${piece.owner} end${ring}`, true);
  }
  svg.appendChild(trails);
  drawHandles(svg);
  showDataUse();
  if (state.selected) select(state.selected.id, state.selected.end);
}

// A polyline (pixels) less `r` at each end, so the arrow runs from base edge to base edge;
// null when too short for one.
function trimmed(points, r) {
  const lengths = points.slice(1).map((q, i) => Math.hypot(q[0] - points[i][0], q[1] - points[i][1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  if (total < 2 * r + 2) return null;
  const at = (d) => {
    let i = 0;
    while (i < lengths.length - 1 && d > lengths[i]) d -= lengths[i++];
    const t = lengths[i] ? d / lengths[i] : 0;
    return [points[i][0] + (points[i + 1][0] - points[i][0]) * t, points[i][1] + (points[i + 1][1] - points[i][1]) * t, i];
  };
  const a = at(r);
  const b = at(total - r);
  return [[a[0], a[1]], ...points.slice(a[2] + 1, b[2] + 1), [b[0], b[1]]];
}

// ---------------------------------------------------------------- a block's charge path

// A block's pose: front-left corner (x, y, inches) and facing (degrees, +x toward +y), width w.
function poseAt(pose, across, ahead) {
  const f = (pose.facing * Math.PI) / 180;
  const fx = Math.cos(f);
  const fy = Math.sin(f);
  return [pose.x + across * -fy + ahead * fx, pose.y + across * fx + ahead * fy];
}

function frontCentre(pose) {
  return poseAt(pose, pose.w / 2, 0);
}

function turnedAbout(pose, centre, deg) {
  const a = (deg * Math.PI) / 180;
  const dx = pose.x - centre[0];
  const dy = pose.y - centre[1];
  return { ...pose, x: centre[0] + dx * Math.cos(a) - dy * Math.sin(a),
    y: centre[1] + dx * Math.sin(a) + dy * Math.cos(a), facing: pose.facing + deg };
}

function apart(a, b) {
  return Math.hypot(a.x - b.x, a.y - b.y) > 0.005 || Math.abs(a.facing - b.facing) > 0.01;
}

// The ruleset's own names for the parts of a charge path (T9A, or WHFB 6e and The Old World).
function pathWords(failed) {
  if (failed) return { move: "failed charge: its normal Move", align: "" };
  if ((state.view.ruleset || []).includes("t9a-2022")) {
    return { move: "the Snaking Forward Move", align: "the Align Move" };
  }
  return { move: "the charge move", align: "closing the door" };
}

// The legs of a written path, as solver/interface/block_path_svg.py replays them: forward,
// wheel about the inner front corner, then the door turned about the initial contact point
// (6e, tow) or the T9A Align Move (picked up and put down), and a slide for what is left.
function blockLegs(start, steps, end, contact, words) {
  const legs = [];
  let pose = start;
  for (const step of steps) {
    if (step.move === "forward") {
      const f = (pose.facing * Math.PI) / 180;
      const d = step.distance_in;
      const after = { ...pose, x: pose.x + d * Math.cos(f), y: pose.y + d * Math.sin(f) };
      if (d > 0) legs.push({ kind: "forward", from: pose, to: after, words: `${d.toFixed(1)}"` });
      pose = after;
    } else if (step.move === "wheel" && step.angle_deg) {
      const a = step.angle_deg;
      const centre = a > 0 ? poseAt(pose, pose.w, 0) : poseAt(pose, 0, 0);
      const after = turnedAbout(pose, centre, a);
      legs.push({ kind: "wheel", from: pose, to: after, angle: a, centre, words: `wheel ${Math.abs(a).toFixed(0)}°` });
      pose = after;
    } else if (step.move === "align") {
      const turn = step.turn_deg || 0;
      if (words.align === "the Align Move" || !contact) {
        if (apart(pose, end)) legs.push({ kind: "align", from: pose, to: end, words: "" });
      } else {
        const door = turnedAbout(pose, contact, turn);
        if (turn) legs.push({ kind: "door", from: pose, to: door, angle: turn, centre: contact, words: `door ${Math.abs(turn).toFixed(0)}°` });
        if (apart(door, end)) legs.push({ kind: "slide", from: door, to: end, words: "slide" });
      }
      pose = end;
    }
  }
  if (apart(pose, end)) legs.push({ kind: "slide", from: pose, to: end, words: "put down" });
  return legs;
}

function arcTo(centre, from, to, deg, s) {
  const r = Math.hypot(from[0] - centre[0], from[1] - centre[1]) * s;
  return `A ${r} ${r} 0 ${Math.abs(deg) > 180 ? 1 : 0} ${deg > 0 ? 1 : 0} ${to[0] * s} ${to[1] * s}`;
}

function legTitle(leg, unit, words) {
  if (leg.kind === "forward") return `${unit}, ${words.move}: ${leg.words} forward`;
  if (leg.kind === "wheel") {
    const side = leg.angle > 0 ? "right" : "left";
    return `${unit}, ${words.move}: wheels ${Math.abs(leg.angle).toFixed(1)} degrees to the ${side} about its front-${side} corner`;
  }
  if (leg.kind === "door") return `${unit}, ${words.align}: turns ${Math.abs(leg.angle).toFixed(1)} degrees about the initial contact point`;
  if (leg.kind === "align") return `${unit}, ${words.align}: picked up and put back aligned with the target`;
  return `${unit}: put down where the answer places it`;
}

// A block's move as it was made: outlines where steps end, the front's centre along forward
// moves (lines), wheels and the door (arcs about their pivots), the outer corner's swing.
function drawBlockTrail(layer, piece, p) {
  const s = state.view.scale;
  const entry = state.byHand || !state.result ? null : (state.result.blocks || []).find((b) => b.unit === piece.id);
  const w = piece.width_in;
  const start = { x: piece.x, y: piece.y, facing: piece.facing, w };
  const end = { x: p.x, y: p.y, facing: p.facing ?? piece.facing, w };
  const words = pathWords(entry && entry.outcome === "fails");
  const steps = entry && (entry.role ?? "charger") === "charger" ? entry.path || [] : [];
  const legs = blockLegs(start, steps, end, entry && entry.initial_contact, words);
  const g = el("g", { class: "block-trail" }, layer);
  g.dataset.unit = piece.id;
  for (const leg of legs.slice(0, -1)) {
    const ring = [poseAt(leg.to, 0, 0), poseAt(leg.to, w, 0), poseAt(leg.to, w, -piece.depth_in), poseAt(leg.to, 0, -piece.depth_in)];
    el("polygon", { class: `ghost ${piece.owner}-ghost`, points: ring.map((c) => `${c[0] * s},${c[1] * s}`).join(" ") }, g);
  }
  let d = "";
  let at = null;
  for (const leg of legs) {
    const a = frontCentre(leg.from);
    const b = frontCentre(leg.to);
    const title = legTitle(leg, piece.id, words);
    if (leg.kind === "align") {
      const jump = el("line", { class: "jump", x1: a[0] * s, y1: a[1] * s, x2: b[0] * s, y2: b[1] * s, "marker-end": "url(#arrow)" }, g);
      el("title", {}, jump).textContent = title;
      at = null;
    } else {
      if (!at || Math.hypot(at[0] - a[0], at[1] - a[1]) > 1e-6) d += ` M ${a[0] * s} ${a[1] * s}`;
      d += leg.centre ? ` ${arcTo(leg.centre, a, b, leg.angle, s)}` : ` L ${b[0] * s} ${b[1] * s}`;
      at = b;
    }
    if (leg.centre) {
      const far = (c) => Math.hypot(c[0] - leg.centre[0], c[1] - leg.centre[1]);
      const corner = far(poseAt(leg.from, 0, 0)) > far(poseAt(leg.from, w, 0)) ? 0 : w;
      const c0 = poseAt(leg.from, corner, 0);
      const c1 = poseAt(leg.to, corner, 0);
      const swing = el("path", { class: "swing", d: `M ${c0[0] * s} ${c0[1] * s} ${arcTo(leg.centre, c0, c1, leg.angle, s)}`, "marker-end": "url(#arrow)" }, g);
      el("title", {}, swing).textContent = title;
      const pivot = el("circle", { class: "pivot", cx: leg.centre[0] * s, cy: leg.centre[1] * s, r: 2.5 }, g);
      el("title", {}, pivot).textContent = title;
    }
    if (leg.words) {
      const mid = leg.centre ? frontCentre(turnedAbout(leg.from, leg.centre, leg.angle / 2)) : [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const label = el("text", { class: "step-label", x: mid[0] * s, y: mid[1] * s - 6 }, g);
      label.textContent = leg.words;
      el("title", {}, label).textContent = title;
    }
  }
  if (d) {
    const trail = el("path", { class: "move trail", d: d.trim(), "marker-end": "url(#arrow)" }, g);
    el("title", {}, trail).textContent = `${piece.id}: ${words.move}${words.align ? `, then ${words.align}` : ""}`;
  }
}

const PAGE_STYLE = `
.piece{cursor:grab}
.piece.selected .base{stroke:#ff7f00;stroke-width:2.5}
.broken{stroke:#d0008a !important;stroke-width:4 !important;stroke-dasharray:none !important}
.handle{fill:#fff;stroke:#173a60;stroke-width:1.5;cursor:move}
.handle-label{font-size:9px;fill:#173a60;pointer-events:none}
.objective{fill:#f4e04d;fill-opacity:.5;stroke:#8a7a10;stroke-width:1.5;stroke-dasharray:4 2}
.front{stroke:#ffcc00;stroke-width:3}
.end.front{stroke-width:3}
text,.move{pointer-events:none}
.ghost{fill:none;stroke-width:1;stroke-dasharray:2 2;pointer-events:none}
.attacker-ghost{stroke:#173a60}
.defender-ghost{stroke:#5e1a13}
.trail{stroke-width:2}
.jump{stroke:#173a60;stroke-width:1.5;stroke-dasharray:1 3;stroke-linecap:round;fill:none}
.swing{stroke:#173a60;stroke-width:1;fill:none}
.pivot{fill:#fff;stroke:#173a60;stroke-width:1.5}
.step-label{font-size:10px;fill:#173a60;font-weight:bold;text-anchor:middle;stroke:#fff;stroke-width:3;paint-order:stroke}
`;

function drawPiece(layer, piece, at, classes, end) {
  const s = state.view.scale;
  const g = el("g", { class: "piece", transform: `translate(${at.x * s},${at.y * s}) rotate(${at.facing || 0})` }, layer);
  g.dataset.id = piece.id;
  g.dataset.end = end ? "1" : "0";
  const layout = end ? [] : layoutProblems(piece);
  const marks = [...(state.marks[piece.id] || []), ...layout];
  const markedHere = marks.length > 0 && (end || layout.length > 0 || !(state.placed && state.placed[piece.id]));
  const cls = `base ${classes}${markedHere ? " broken" : ""}`;
  const shape = piece.radius
    ? el("circle", { class: cls, cx: 0, cy: 0, r: piece.radius }, g)
    : el("path", { class: cls, d: piece.outline }, g);
  if (piece.front) el("path", { class: "front", d: piece.front }, g);
  const who = piece.unit ? `${piece.unit}, ${piece.owner}` : "objective marker";
  const tip = [`${piece.id} (${who})${end ? ", end position" : ""}${!end && !inDocument(piece) ? ", placed by the layout" : ""}`];
  if (markedHere) tip.push(...marks);
  el("title", {}, shape).textContent = tip.join("\n");
  const font = Math.max(6, Math.min(10, piece.size * 0.42));
  const [lx, ly] = piece.label_at || [0, 0];
  const css = piece.owner === "objective" ? "terrain-label" : end || !classes.includes("start") ? "label" : "start-label";
  const label = el("text", { class: css,
    x: 0, y: 0, dy: "0.35em", style: `font-size:${font}px`,
    transform: `translate(${lx},${ly}) rotate(${-(at.facing || 0)})` }, g);
  label.textContent = piece.id;
  if (end || inDocument(piece)) g.addEventListener("pointerdown", (e) => startDrag(e, piece.id, end, [piece.id]));
  else g.classList.add("fixed");
  g.addEventListener("wheel", (e) => {
    if (!e.shiftKey) return;
    e.preventDefault();
    select(piece.id, end);
    turnSelected(e.deltaY > 0 ? 5 : -5);
  });
}

function drawHandles(svg) {
  if (state.view.kind === "blocks") return;
  const s = state.view.scale;
  const layer = el("g", { id: "handles" }, svg);
  for (const unit of state.view.units) {
    const pieces = state.view.pieces.filter((p) => p.unit === unit.id);
    if (pieces.length < 2) continue;
    const top = Math.min(...pieces.map((p) => p.y * s - (p.radius || p.size / 2)));
    const cx = pieces.reduce((a, p) => a + p.x, 0) / pieces.length * s;
    const g = el("g", { class: "unit-handle", transform: `translate(${cx},${top - 12})` }, layer);
    g.dataset.unit = unit.id;
    el("rect", { class: "handle", x: -6, y: -6, width: 12, height: 12 }, g);
    el("text", { class: "handle-label", x: 9, y: 3 }, g).textContent = unit.id;
    el("title", {}, g).textContent = `drag to move unit ${unit.id}`;
    g.addEventListener("pointerdown", (e) => startDrag(e, null, false, pieces.map((p) => p.id), g));
  }
}

// ---------------------------------------------------------------- zoom

function fullBox() {
  const s = state.view.scale;
  const w = state.view.board.width * s;
  const h = state.view.board.height * s;
  return { x: -MARGIN, y: -MARGIN, w: w + 2 * MARGIN, h: h + 2 * MARGIN };
}

function setZoom(box) {
  const full = fullBox();
  if (!box || box.w >= full.w) {
    state.zoom = null;
  } else {
    const ratio = full.h / full.w;
    const w = Math.max(box.w, box.h / ratio, 4 * state.view.scale);
    const h = w * ratio;
    const cx = box.x + box.w / 2;
    const cy = box.y + box.h / 2;
    state.zoom = { x: cx - w / 2, y: cy - h / 2, w, h };
  }
  $("board").setAttribute("viewBox", Object.values(state.zoom || full).join(" "));
}

function closeUp() {
  if (!state.view) return;
  const s = state.view.scale;
  const units = state.view.units.filter((u) => u.acting || u.target).map((u) => u.id);
  const spots = [];
  for (const p of state.view.pieces.filter((p) => units.includes(p.unit))) {
    const r = (p.radius || p.size) / s + 3;
    spots.push([p.x - r, p.y - r], [p.x + r, p.y + r]);
    const end = (state.placed || {})[p.id];
    if (end) spots.push([end.x - r, end.y - r], [end.x + r, end.y + r]);
  }
  if (!spots.length) return;
  const xs = spots.map((p) => p[0] * s);
  const ys = spots.map((p) => p[1] * s);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  setZoom({ x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y });
}

function wheelZoom(event) {
  if (!state.view || event.shiftKey) return;
  event.preventDefault();
  const at = svgPoint(event);
  const box = state.zoom || fullBox();
  const f = event.deltaY > 0 ? 1.25 : 0.8;
  const w = box.w * f;
  const h = box.h * f;
  setZoom({ x: at.x - (at.x - box.x) * f, y: at.y - (at.y - box.y) * f, w, h });
}

function startPan(event) {
  if (!state.zoom || event.button !== 0) return;
  const from = { x: event.clientX, y: event.clientY };
  const box = { ...state.zoom };
  const scale = box.w / $("board").getBoundingClientRect().width;
  const move = (e) => {
    state.zoom = { ...box, x: box.x - (e.clientX - from.x) * scale, y: box.y - (e.clientY - from.y) * scale };
    $("board").setAttribute("viewBox", Object.values(state.zoom).join(" "));
  };
  const up = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

// ---------------------------------------------------------------- dragging

function svgPoint(event) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function startDrag(event, id, end, ids, handle = null) {
  if (event.button !== 0 || state.solving) return;
  event.preventDefault();
  event.stopPropagation();
  if (id) select(id, end);
  const from = svgPoint(event);
  const s = state.view.scale;
  const nodes = [...document.querySelectorAll("#board .piece")].filter(
    (g) => ids.includes(g.dataset.id) && (g.dataset.end === "1") === end
  );
  const moving = handle ? [...nodes, handle] : nodes;
  const base = moving.map((g) => g.getAttribute("transform"));
  let dx = 0;
  let dy = 0;
  const move = (e) => {
    const at = svgPoint(e);
    dx = at.x - from.x;
    dy = at.y - from.y;
    moving.forEach((g, i) => g.setAttribute("transform", `translate(${dx},${dy}) ${base[i]}`));
  };
  const up = async () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    if (Math.hypot(dx, dy) < 1) return draw();
    const dxIn = dx / s;
    const dyIn = dy / s;
    if (end) {
      for (const pid of ids) {
        const p = state.placed[pid];
        p.x = round(p.x + dxIn, 3);
        p.y = round(p.y + dyIn, 3);
      }
      handPlaced();
      return draw();
    }
    const before = JSON.stringify(state.doc);
    movePiecesInDoc(ids, dxIn, dyIn);
    await commitBoard(before);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

// ---------------------------------------------------------------- real tables: the 40kdc data set, TTS saves

// The data set as the server offers it; without it, its controls are disabled with the one
// line that says how to install it.
async function loadDataSet() {
  const reply = await call("GET", "/api/data");
  const data = reply.ok ? reply.data : { installed: false, line: (reply.data.error || []).join(" ") };
  state.data = data;
  $("data").disabled = !data.installed;
  $("data-line").textContent = data.installed ? `${data.attribution} (wh40kdc ${data.version}): ${data.layouts.length} layouts, ${data.datasheets.length} datasheets` : data.line;
  if (!data.installed) return;
  $("layout").replaceChildren(new Option("(none)", ""), ...data.layouts.map((l) => new Option(l.name, l.name)));
  $("datasheet-names").replaceChildren(...data.datasheets.map((n) => new Option(n)));
  showDataUse();
}

function usesDataSet(doc) {
  return Boolean(doc && ((doc.board || {}).layout || (doc.units || []).some((u) => u.datasheet)));
}

// The attribution wherever the board shows data of the data set; the layout menu and the
// moved-save button as the board stands.
function showDataUse() {
  $("data-credit").hidden = !usesDataSet(state.doc);
  const layout = state.doc ? (state.doc.board || {}).layout || "" : "";
  const menu = $("layout");
  if (layout && ![...menu.options].some((o) => o.value === layout)) menu.add(new Option(layout, layout));
  menu.value = layout;
  const answer = state.result && !state.byHand && (state.result.placements || []).length;
  $("save-tts").disabled = !(state.tts && state.tts.frame && answer);
}

// A layout chosen: the board's terrain becomes it and its board the size (a new table when
// none is open); "(none)" takes it away, the board's size kept.
async function chooseLayout() {
  const name = $("layout").value;
  if (state.solving) return showError(["a solve is running: wait for it or cancel it"]);
  const found = state.data.layouts.find((l) => l.name === name || l.id === name);
  const size = found ? found.board : {};
  if (!state.doc || state.view.kind === "blocks") {
    if (!name) return;
    const doc = { format: 1, ruleset: "40k-11e", board: { ...size, layout: name }, units: [] };
    const reply = await call("POST", "/api/board", { name: "table.toml", document: doc });
    if (!reply.ok) return showError(reply.data.error);
    clearError();
    state.tts = null;
    showBoard(reply.data);
    $("status").textContent = `Layout ${name}: add a unit of each side (Add unit)`;
    return;
  }
  const before = JSON.stringify(state.doc);
  const board = { ...state.doc.board };
  delete board.layout;
  if (name) Object.assign(board, size, { layout: name });
  state.doc.board = board;
  if (await commitBoard(before)) $("status").textContent = name ? `Layout ${name}` : "No layout";
}

// What the data set says of the datasheet typed: its base, Move and model counts, or why it
// is not one (with the nearest names).
async function lookUpDatasheet() {
  const name = $("unit-datasheet").value.trim();
  $("unit-facts").textContent = "";
  $("unit-suggestions").replaceChildren();
  if (!name) return;
  const reply = await call("POST", "/api/datasheet", { datasheet: name });
  if (!reply.ok) {
    const line = reply.data.error.join(" ");
    $("unit-facts").textContent = line;
    const near = line.includes("did you mean") ? [...line.split("did you mean")[1].matchAll(/"([^"]+)"/g)] : [];
    $("unit-suggestions").replaceChildren(...near.map((m) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "suggestion";
      button.textContent = m[1];
      button.addEventListener("click", () => {
        $("unit-datasheet").value = m[1];
        lookUpDatasheet();
      });
      return button;
    }));
    return;
  }
  const d = reply.data;
  const moves = [...new Set(d.movement_in)].map((m) => `${m}"`).join("/");
  const base = d.base || d.base_problem;
  $("unit-facts").textContent = `${d.name} (${d.faction}): ${base}, M ${moves}, ${d.models_min}–${d.models_max} models`;
  $("unit-count").value = d.models_min;
}

function newTableIfNone() {
  if (state.doc) return true;
  showError(["choose a layout or open a scenario first, then add units"]);
  return false;
}

async function addUnit(at) {
  if (!newTableIfNone() || state.solving) return;
  const reply = await call("POST", "/api/unit", boardRequest({
    datasheet: $("unit-datasheet").value, count: $("unit-count").value, owner: $("unit-owner").value, at,
  }));
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  const had = new Set(state.doc.units.map((u) => u.id));
  takeBoard(reply.data);
  clearAnswer();
  fillMoveForm();
  draw();
  const added = state.doc.units.find((u) => !had.has(u.id));
  $("status").textContent = `Added ${added.id} (${added.models.length} models)` + (state.view.draft ? ": add a unit of the other side" : "");
}

function startAddingByClick() {
  if (!newTableIfNone()) return;
  state.adding = true;
  $("board").classList.add("adding");
  $("status").textContent = "Click the board where the unit goes";
}

function addUnitAt(event) {
  event.preventDefault();
  event.stopPropagation();
  state.adding = false;
  $("board").classList.remove("adding");
  const at = svgPoint(event);
  const s = state.view.scale;
  addUnit({ x: round(at.x / s, 2), y: round(at.y / s, 2) });
}

// A save's text, its byte-order mark kept (the moved save is written back byte for byte).
function readSave(input) {
  const file = input.files[0];
  if (!file) return;
  input.value = "";
  file.arrayBuffer().then((bytes) => {
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (err) {
      return showError([`${file.name}: not UTF-8 text; give the .json save TTS wrote`]);
    }
    state.tts = { name: file.name, text, frame: null };
    $("tts-name").textContent = file.name;
    openSave();
  });
}

function ttsRequest(extra = {}) {
  return {
    save_name: state.tts.name, save_text: state.tts.text, scale: $("tts-scale").value,
    board: $("tts-board").value, bases: $("tts-bases").value, datasheets: $("tts-datasheets").value, ruleset: $("tts-ruleset").value, ...extra,
  };
}

// The save's units as the import groups them, to choose the charge from.
async function openSave() {
  if (!state.tts) return;
  $("tts-move").hidden = true;
  const reply = await call("POST", "/api/tts/open", ttsRequest());
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  const units = reply.data.units;
  $("tts-charger").replaceChildren(...units.map((u) => new Option(`${u.id} (${u.models} × ${u.base})`, u.id)));
  fillBoxes($("tts-targets"), units.map((u) => u.id), units.length > 1 ? [units[1].id] : [], () => {});
  $("tts-move").hidden = false;
  $("status").textContent = `${state.tts.name}: ${units.length} unit(s); choose the charge and import`;
}

async function importSave() {
  if (!state.tts || state.solving) return;
  const reply = await call("POST", "/api/tts/open", ttsRequest({
    charger: $("tts-charger").value, targets: checkedIn($("tts-targets")), roll: $("tts-roll").value,
  }));
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  showBoard(reply.data);
  state.tts.frame = reply.data.tts;
  $("status").textContent = `Imported ${state.tts.name}: solve, then Save moved save`;
}

async function saveMovedSave() {
  if (!state.tts || !state.tts.frame || !state.result) return;
  const frame = state.tts.frame;
  const reply = await call("POST", "/api/tts/export", {
    save_name: state.tts.name, save_text: state.tts.text, scale: frame.scale, board: frame.board, result: state.result,
  });
  if (!reply.ok) return showError(reply.data.error);
  clearError();
  download(reply.data.file, reply.data.text, "application/json");
  $("status").textContent = `Saved ${reply.data.file}: ${reply.data.moved.length} model(s) moved`;
}

function wireRealTables() {
  $("layout").addEventListener("change", chooseLayout);
  $("unit-datasheet").addEventListener("change", lookUpDatasheet);
  $("add-unit").addEventListener("click", () => addUnit(null));
  $("add-unit-click").addEventListener("click", startAddingByClick);
  $("open-tts").addEventListener("change", (e) => readSave(e.target));
  for (const id of ["tts-scale", "tts-board", "tts-bases", "tts-datasheets", "tts-ruleset"]) $(id).addEventListener("change", openSave);
  $("tts-import").addEventListener("click", importSave);
  $("save-tts").addEventListener("click", saveMovedSave);
}

// ---------------------------------------------------------------- start

function wire() {
  $("open-scenario").addEventListener("change", (e) => readFile(e.target, openScenarioText));
  $("open-result").addEventListener("change", (e) => readFile(e.target, openResultText));
  $("save-toml").addEventListener("click", () => saveScenario("toml"));
  $("save-json").addEventListener("click", () => saveScenario("json"));
  $("save-result").addEventListener("click", saveResult);
  $("save-picture").addEventListener("click", savePicture);
  $("ruleset").addEventListener("change", editRuleset);
  for (const id of ["action-kind", "action-unit", "action-roll", "action-charged", "action-edge", "action-fast", "action-difficult"]) {
    $(id).addEventListener("change", () => editAction());
  }
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", cancel);
  $("check").addEventListener("click", check);
  $("place-by-hand").addEventListener("click", placeByHand);
  $("clear-answer").addEventListener("click", () => {
    clearAnswer();
    $("status").textContent = "";
    draw();
  });
  $("turn-left").addEventListener("click", () => turnSelected(-TURN_STEP));
  $("turn-right").addEventListener("click", () => turnSelected(TURN_STEP));
  $("add-model").addEventListener("click", addModel);
  $("remove-model").addEventListener("click", removeModel);
  $("board").addEventListener("pointerdown", (e) => {
    if (state.adding && state.view) return addUnitAt(e);
    if (e.target === $("board") || e.target.closest("#table")) {
      select(null, false);
      startPan(e);
    }
  });
  $("board").addEventListener("wheel", wheelZoom, { passive: false });
  const view = $("table-view");
  view.addEventListener("dragover", (e) => e.preventDefault());
  view.addEventListener("drop", (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) file.text().then((text) => openScenarioText(file.name, text));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "Escape" && state.adding) {
      state.adding = false;
      $("board").classList.remove("adding");
      $("status").textContent = "Add unit cancelled";
    }
    if ((e.key === "Delete" || e.key === "Backspace") && state.selected && !state.selected.end) {
      e.preventDefault();
      removeModel();
    }
  });
  wireRealTables();
  $("zoom-board").addEventListener("click", () => setZoom(null));
  $("zoom-move").addEventListener("click", closeUp);
}

async function start() {
  wire();
  const reply = await call("GET", "/api/start");
  if (!reply.ok) return showError(reply.data.error);
  state.timeLimit = reply.data.time_limit_s;
  state.rulesets = reply.data.rulesets;
  state.actionKeys = reply.data.action_keys;
  state.tableEdges = reply.data.table_edges;
  $("tts-ruleset").replaceChildren(...reply.data.tts_rulesets.map((r) => new Option(r, r)));
  const mb = reply.data.max_request_bytes / 1e6;
  $("limits").textContent = `This server takes scenarios of up to ${reply.data.max_models} models (${mb} MB a request) and gives a solve at most ${state.timeLimit} s of work (the same answer on a busy machine, later).`;
  $("time-limit").value = state.timeLimit;
  $("time-limit").max = state.timeLimit;
  if (reply.data.file) await openScenarioText(reply.data.file, reply.data.text);
  else $("status").textContent = "Open a scenario file, a layout or a Tabletop Simulator save to begin";
  await loadDataSet();
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", start);
