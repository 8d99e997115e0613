// The page only shows and clicks: the engine sends the picture, the legal moves and the cells
// each move touches; a click on a cell narrows the legal moves to those whose next cell it is,
// and plays the move once one is left (or completes it when the clicked cell ends it).
"use strict";
const $ = (id) => document.getElementById(id);
let games = [];
let game = null;      // the last state from the server
let picked = [];      // cells clicked so far for the move being entered
let replay = null;    // {id, games, game, ply, plies}
let polling = null;
let seatsReady = Promise.resolve(); // the seat list being fetched for the chosen options

async function api(method, path, body) {
  const r = await fetch("/api/" + path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function say(text) { $("message").textContent = text || ""; }

function optionInputs() {
  const g = games.find((x) => x.name === $("game").value);
  const box = $("options");
  box.innerHTML = "";
  for (const o of g.options) {
    const label = document.createElement("label");
    label.textContent = o.name + " ";
    let input;
    if (o.type === "check") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!o.default;
    } else if (o.type === "combo") {
      input = document.createElement("select");
      for (const c of o.choices) {
        const opt = document.createElement("option");
        opt.value = opt.textContent = c;
        if (c === o.default) opt.selected = true;
        input.appendChild(opt);
      }
    } else {
      input = document.createElement("input");
      input.size = 6;
      input.value = o.default;
    }
    input.dataset.option = o.name;
    input.dataset.kind = o.type;
    input.addEventListener("change", () => { seatsReady = refreshSeats(); });
    label.appendChild(input);
    box.appendChild(label);
  }
  seatsReady = refreshSeats();
}

// The seats of the chosen game with the chosen options (tesseris's Players), as the engine
// names them; the seat picked before stays picked where it still exists.
async function refreshSeats() {
  const seat = $("seat");
  const before = seat.value;
  try {
    const r = await api("POST", "seats", { game: $("game").value, options: chosenOptions() });
    seat.innerHTML = "";
    for (const s of r.seats) {
      const opt = document.createElement("option");
      opt.value = s.seat;
      opt.textContent = seatLabel(s.seat, s.name);
      seat.appendChild(opt);
    }
    if (r.seats.some((s) => String(s.seat) === before)) seat.value = before;
    say("");
  } catch (e) { say(e.message); }
}

// "Black (p1)"; a seat without a name of its own is "seat 3".
function seatLabel(n, name) {
  return name === "seat " + n ? name : `${name} (p${n})`;
}

function chosenOptions() {
  const options = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    options[el.dataset.option] = el.dataset.kind === "check" ? String(el.checked) : el.value;
  }
  return options;
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  // ?nodes=N (tests, reproducible play): the engine searches N nodes a move instead of a time.
  const nodes = Number(new URLSearchParams(location.search).get("nodes")) || undefined;
  const limit = nodes ? { nodes } : { movetime: Number($("movetime").value) };
  try {
    await seatsReady;
    show(await api("POST", "new", {
      game: $("game").value, options: chosenOptions(), seat: Number($("seat").value),
      algorithm: $("algorithm").value, ...limit,
    }));
    say("");
  } catch (e) { say(e.message); }
}

function analysisText(a) {
  if (a && a.depth !== undefined) {
    const name = (n) => (game && game.seats[n - 1] ? game.seats[n - 1].name : "seat " + n);
    const text = `${name(a.seat)}: ${a.score} at depth ${a.depth}, ${a.nodes} nodes — ${a.pv.join(" ")}`;
    // More than two seats: each one's learned share of the points at the end of the line.
    if (!a.shares) return text;
    const shares = a.shares.map((v, i) => `${name(i + 1)} ${Math.round(v * 100)}%`).join(", ");
    return `${text}\nexpected shares: ${shares}`;
  }
  return a && a.error ? a.error : "—";
}

function listMoves(moves, current) {
  const h = $("history");
  h.innerHTML = "";
  moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i === current) li.className = "current";
    h.appendChild(li);
  });
  const cur = h.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function show(state) {
  game = state;
  replay = null;
  picked = [];
  $("board").innerHTML = state.svg;
  for (const cell of $("board").querySelectorAll("[data-cell]")) {
    cell.addEventListener("click", () => clickCell(cell.getAttribute("data-cell")));
  }
  const legal = $("legal");
  legal.innerHTML = "";
  for (const m of state.legal) {
    const b = document.createElement("button");
    b.textContent = m.move;
    b.className = "move";
    b.addEventListener("click", () => play(m.move));
    legal.appendChild(b);
  }
  listMoves(state.moves, state.moves.length - 1);
  $("replay-info").textContent = "";
  $("position").value = state.position;
  $("analysis").textContent = analysisText(state.analysis);
  const seat = (n) => seatLabel(n, state.seats[n - 1].name);
  let status;
  if (state.over) status = "Game over: " + state.over.text + ".";
  else if (state.yourTurn) status = `Your move, ${seat(state.seat)}: click a piece or card, then where it goes — or pick from the list.`;
  else status = `${seat(state.toMove)}, the engine, is thinking…`;
  $("status").textContent = status;
  if (!state.over && !state.yourTurn) engineTurn();
}

async function engineTurn() {
  if (polling) return;
  try {
    let s = await api("POST", "engine", { id: game.id });
    polling = setInterval(async () => {
      try {
        s = await api("GET", "state?id=" + game.id);
        if (!s.thinking) { clearInterval(polling); polling = null; show(s); }
        else if (s.analysis && s.analysis.depth !== undefined) $("analysis").textContent = analysisText(s.analysis);
      } catch (e) { clearInterval(polling); polling = null; say(e.message); }
    }, 200);
  } catch (e) { say(e.message); }
}

async function play(move) {
  try { show(await api("POST", "move", { id: game.id, move })); say(""); }
  catch (e) { say(e.message); }
}

function clickCell(name) {
  if (!game || !game.yourTurn || replay) return;
  const k = picked.length;
  let cands = game.legal.filter((m) => picked.every((c, i) => m.cells[i] === c));
  const next = cands.filter((m) => m.cells[k] === name);
  // A click may also end a move early: its last cell (e.g. from, then straight to the target).
  const ends = cands.filter((m) => m.cells.length > k && m.cells[m.cells.length - 1] === name);
  if (next.length === 0 && ends.length === 0) {
    picked = [];
    const fresh = game.legal.filter((m) => m.cells[0] === name);
    if (fresh.length === 0) { say("No legal move there."); mark(); return; }
    picked = [name];
    cands = fresh;
  } else if (next.length > 0) {
    picked.push(name);
    cands = next;
  } else {
    cands = ends;
    picked = [];
  }
  say("");
  const done = cands.filter((m) => m.cells.length === picked.length || picked.length === 0);
  if (cands.length === 1 && (done.length === 1 || picked.length === cands[0].cells.length)) return play(cands[0].move);
  if (picked.length === 0 && cands.length > 1) {
    say("Several moves: " + cands.map((m) => m.move).join(", ") + " — pick one from the list.");
  }
  if (picked.length > 0 && cands.every((m) => m.cells.length === picked.length)) {
    if (cands.length === 1) return play(cands[0].move);
    say("Several moves: " + cands.map((m) => m.move).join(", ") + " — pick one from the list.");
  }
  mark(cands);
}

function mark(cands) {
  for (const el of $("board").querySelectorAll("[data-cell]")) {
    el.classList.toggle("selected", picked.includes(el.getAttribute("data-cell")));
    const c = el.getAttribute("data-cell");
    el.classList.toggle("target", !!cands && picked.length > 0 && cands.some((m) => m.cells[picked.length] === c));
  }
}

async function undo() {
  try { show(await api("POST", "undo", { id: game.id })); say(""); } catch (e) { say(e.message); }
}

async function loadPosition() {
  try { show(await api("POST", "position", { id: game.id, text: $("position").value })); say(""); }
  catch (e) { say(e.message); }
}

async function loadReplay() {
  const f = $("replay-file").files[0];
  if (!f) return;
  try {
    const r = await api("POST", "replay", { text: await f.text() });
    replay = { id: r.replay, games: r.games, game: r.games[0].number, ply: 0 };
    if (polling) { clearInterval(polling); polling = null; }
    const sel = $("replay-game");
    sel.innerHTML = "";
    for (const g of r.games) {
      const o = document.createElement("option");
      o.value = g.number;
      o.textContent = `game ${g.number}: ${g.seats.join(" – ")} (${g.reason})`;
      sel.appendChild(o);
    }
    say("");
    step(0);
  } catch (e) { say(e.message); }
}

async function step(ply) {
  if (!replay) return;
  ply = Math.max(0, Math.min(ply, replay.plies === undefined ? ply : replay.plies));
  try {
    const s = await api("GET", `replay?replay=${replay.id}&game=${replay.game}&ply=${ply}`);
    replay.ply = s.ply; replay.plies = s.plies;
    $("board").innerHTML = s.svg;
    $("replay-ply").textContent = `${s.ply} / ${s.plies}` + (s.ply > 0 ? ` (${s.moves[s.ply - 1]})` : "");
    const seats = s.seats.map((e, i) => `${s.seatNames[i]}: ${e}`).join(" – ");
    $("status").textContent = `Replay of game ${s.game} (${s.name}): ${seats}. ` +
      (s.ply === s.plies ? `Result: ${s.verdict}.` : `Move ${s.ply} of ${s.plies}.`);
    const opts = Object.entries(s.options).map(([k, v]) => `${k}=${v}`).join(", ");
    $("replay-info").textContent = `Options: ${opts || "none"}` +
      (s.opening ? `; the first ${s.opening} moves are the opening` : "");
    listMoves(s.moves, s.ply - 1);
    $("legal").innerHTML = "";
    $("position").value = "";
    $("analysis").textContent = "—";
  } catch (e) { say(e.message); }
}

async function main() {
  const list = await api("GET", "games");
  games = list.games;
  for (const g of games) {
    const o = document.createElement("option");
    o.value = o.textContent = g.name;
    $("game").appendChild(o);
  }
  // ?game=NAME in the address, else the game `quatre serve --game` opens on, else the first.
  // An unknown name is said once the game has started (below), and the default is played.
  const asked = new URLSearchParams(location.search).get("game");
  const known = !asked || games.some((g) => g.name === asked);
  const want = (known && asked) || list.default;
  if (want && games.some((g) => g.name === want)) $("game").value = want;
  optionInputs();
  $("game").addEventListener("change", optionInputs);
  $("setup").addEventListener("submit", newGame);
  $("undo").addEventListener("click", undo);
  $("load-position").addEventListener("click", loadPosition);
  $("replay-file").addEventListener("change", loadReplay);
  $("replay-game").addEventListener("change", () => {
    replay.game = Number($("replay-game").value); replay.plies = undefined; step(0);
  });
  $("replay-start").addEventListener("click", () => step(0));
  $("replay-back").addEventListener("click", () => replay && step(replay.ply - 1));
  $("replay-next").addEventListener("click", () => replay && step(replay.ply + 1));
  $("replay-end").addEventListener("click", () => replay && step(replay.plies));
  await newGame();
  // An unknown ?game= is said, not passed over (as `quatre serve --game` refuses one).
  if (!known) {
    say(`no game named '${asked}' (the games: ${games.map((g) => g.name).join(", ")}); this is ${$("game").value}`);
  }
}
main().catch((e) => say(e.message));
