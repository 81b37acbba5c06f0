// The page of `leges serve`: plain JavaScript, no build step.
// Everything about a game comes from the server as one seat's view; texts from the ruleset are
// put into the page as text (textContent), never as markup. The board's SVG is made by the server,
// which escapes every text in it.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  info: null, mode: "play", view: null, match: null, replay: null, step: 0, version: null,
  chosen: [],            // spaces clicked so far towards one action
  limit: 60,             // actions listed before "show more"
};

// the server's secret, given to this page alone with its HTML: every API request carries it
const TOKEN = document.querySelector('meta[name="leges-token"]').content;

async function api(path, body) {
  const headers = { "X-Leges-Token": TOKEN };
  const options = body === undefined ? { headers } :
    { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const err = new Error(data.error || response.statusText);
    err.diagnostics = data.diagnostics || [];
    err.explanation = data.explanation || null;   // an action refused: why (the rule, its values, its citation)
    throw err;
  }
  return data;
}

function text(el, value) { el.textContent = value == null ? "" : String(value); return el; }
function make(tag, cls, value) { const el = document.createElement(tag); if (cls) el.className = cls; if (value !== undefined) text(el, value); return el; }
function notice(message) { const n = $("notice"); n.hidden = !message; text(n, message || ""); }

// an action the server refused: why it is not legal, as the seat may be told (engine/seat_explanation.py)
function refusal(why) {
  const n = $("notice");
  n.replaceChildren();
  n.appendChild(make("div", "refused", "'" + why.action + "' is not legal for " + why.seat));
  n.appendChild(make("div", "why", why.message));
  if (why.values && why.values.length) {
    const list = make("ul", "values");
    for (const [k, v] of why.values) list.appendChild(make("li", "", k + " = " + v));
    n.appendChild(list);
  }
  if (why.citation) {
    const cite = make("div", "cite", why.citation);
    if (why.rule) cite.title = why.rule;
    n.appendChild(cite);
  }
  n.hidden = false;
}

// ------------------------------------------------------------------ errors of the ruleset
function showErrors(errors) {
  const box = $("errors"), list = $("error-list");
  list.replaceChildren();
  for (const e of errors || []) list.appendChild(make("li", "diagnostic", e.text));
  box.hidden = !(errors && errors.length);
}

// ------------------------------------------------------------------ the board and the panel
function render(view) {
  state.view = view;
  state.chosen = [];
  state.limit = 60;
  $("filter").value = "";
  $("board").innerHTML = view.svg;   // made by the server: every text in it is escaped
  const svg = $("board").querySelector("svg");
  if (svg) svg.addEventListener("click", onBoardClick);
  text($("status"), (view.seat ? view.seat + " — " : "") + view.status);
  const result = $("result");
  result.hidden = !view.result;
  if (view.result) {
    const scores = Object.entries(view.result.scores).map(([k, v]) => k + " " + v).join(", ");
    text(result, "Game over: " + view.result.ranking + " (scores: " + scores + ")");
  }
  const news = $("news");
  news.replaceChildren();
  for (const line of (view.news || [])) news.appendChild(make("li", "", line));
  if (view.note) notice(view.note);
  const history = $("history");
  history.replaceChildren();
  for (const line of view.history) history.appendChild(make("li", "", line));
  history.scrollTop = history.scrollHeight;
  const lastBox = $("last-box");
  lastBox.hidden = view.mode !== "replay";
  if (view.mode === "replay") text($("last"), view.last || "(the start of the game)");
  $("action-box").hidden = view.mode !== "play";
  $("news-box").hidden = view.mode !== "play";
  showActions();
  if (view.mode === "play" && view.thinking) {   // the server stopped its agents at its time limit: ask for the rest
    notice("The other players are still thinking…");
    setTimeout(carryOn, 50);
  }
}

function candidates() {
  const actions = state.view ? state.view.actions : [];
  return actions.filter((a) => state.chosen.every((s) => a.spaces.includes(s)));
}

function showActions() {
  const view = state.view;
  const list = $("actions");
  list.replaceChildren();
  if (!view || view.mode !== "play") return;
  const fits = new Set(candidates().map((a) => a.text));
  const words = $("filter").value.trim().split(/\s+/).filter(Boolean);
  $("filter").hidden = view.actions.length <= 12;
  let shown = 0, left = 0;
  for (const action of view.actions) {
    if (state.chosen.length && !fits.has(action.text)) continue;   // only what the clicks leave
    if (words.length && !words.every((w) => action.text.includes(w))) continue;
    if (shown >= state.limit) { left++; continue; }
    shown++;
    const li = make("li", "");
    li.value = view.actions.indexOf(action) + 1;
    const button = make("button", "act", action.text);
    button.type = "button";
    button.dataset.action = action.text;
    button.addEventListener("click", () => act(action.text));
    li.appendChild(button);
    if (action.cite) {
      const cite = make("div", "cite", action.cite.short);
      cite.title = [action.cite.rule, action.cite.title, action.cite.quote].filter(Boolean).join("\n");
      if (action.cite.where) cite.appendChild(make("span", "where", "  " + action.cite.where));
      li.appendChild(cite);
    }
    list.appendChild(li);
  }
  const more = $("more-actions");
  more.hidden = left === 0;
  text(more, "show " + left + " more");
  const waiting = view.terminal ? "The game is over." :
    view.actions.length ? (view.actions.some((a) => a.spaces.length) ? "Click a highlighted space, or an action:" : "Choose an action:") :
    "Waiting for " + view.to_move + ".";
  text($("waiting"), waiting);
  $("carry-on").hidden = !(view.actions.length && view.to_move !== view.seat && !view.terminal);
  // the board: spaces an action still fitting the clicks names
  const targets = new Set();
  for (const a of candidates()) for (const s of a.spaces) if (!state.chosen.includes(s)) targets.add(s);
  for (const g of $("board").querySelectorAll(".hit[data-space]")) {
    const s = g.dataset.space;
    g.classList.toggle("target", targets.has(s));
    g.classList.toggle("chosen", state.chosen.includes(s));
  }
  $("selection").hidden = state.chosen.length === 0;
  text($("selection-text"), "chosen: " + state.chosen.join(", "));
}

function onBoardClick(event) {
  const g = event.target.closest("[data-space]");
  if (!g || !state.view || state.view.mode !== "play") return;
  const space = g.dataset.space;
  if (state.chosen.includes(space)) return;
  const before = state.chosen;
  state.chosen = before.concat([space]);
  let fitting = candidates();
  if (!fitting.length) {           // a fresh start from this space
    state.chosen = [space];
    fitting = candidates();
  }
  if (!fitting.length) { state.chosen = before; return; }
  const distinct = new Set(fitting.map((a) => a.text));
  const more = fitting.some((a) => a.spaces.some((s) => !state.chosen.includes(s)));
  if (distinct.size === 1) { act(fitting[0].text); return; }
  if (!more) notice("More than one action fits: choose it in the list.");
  showActions();
}

// ------------------------------------------------------------------ playing
async function newGame() {
  notice("");
  try {
    const view = await api("/api/play", {
      players: Number($("players").value), seat: $("seat").value, agents: $("agents").value, seed: Number($("seed").value),
    });
    state.match = view.match;
    render(view);
  } catch (err) { notice(err.message); }
}

async function act(actionText) {
  notice("");
  try {
    render(await api("/api/play/" + state.match + "/act", { action: actionText }));
  } catch (err) {
    if (err.explanation) refusal(err.explanation); else notice(err.message);
    refresh();
  }
}

async function carryOn() {
  try { render(await api("/api/play/" + state.match + "/continue", {})); } catch (err) { notice(err.message); }
}

// ------------------------------------------------------------------ replaying
async function loadRecordFile(file) {
  notice("");
  try {
    const body = await file.text();
    const view = await api("/api/replay", { record: body, name: file.name });
    fillReplaySeats(view.seats);
    useReplay(view.replay, view.steps, view.error);
    render(view);
  } catch (err) { notice(err.message); }
}

function useReplay(id, steps, error) {
  state.replay = id;
  state.step = 0;
  $("timeline").max = String(steps);
  $("timeline").value = "0";
  if (error) notice(error);
}

async function showStep(step) {
  if (!state.replay) return;
  const max = Number($("timeline").max);
  state.step = Math.max(0, Math.min(max, step));
  $("timeline").value = String(state.step);
  const seat = $("replay-seat").value;
  try {
    const view = await api("/api/replay/" + state.replay + "?step=" + state.step + "&seat=" + encodeURIComponent(seat));
    text($("step-label"), "step " + view.step + " of " + view.steps);
    render(view);
  } catch (err) { notice(err.message); }
}

// ------------------------------------------------------------------ modes, set-up, watching
function setMode(mode) {
  state.mode = mode;
  $("tab-play").classList.toggle("active", mode === "play");
  $("tab-replay").classList.toggle("active", mode === "replay");
  $("play-controls").hidden = mode !== "play";
  $("replay-controls").hidden = mode !== "replay";
  refresh();
}

async function refresh() {
  if (state.mode === "play" && state.match) {
    try { render(await api("/api/play/" + state.match)); } catch (err) { notice(err.message); }
  } else if (state.mode === "replay" && state.replay) {
    showStep(state.step);
  } else {
    $("board").replaceChildren();
    for (const id of ["history", "news", "actions"]) $(id).replaceChildren();
    $("action-box").hidden = true;
    $("news-box").hidden = true;
    $("last-box").hidden = true;
    $("result").hidden = true;
    text($("status"), state.mode === "replay" ? "Open a record: a .json file written by leges simulate --records or leges play --record." : "");
  }
}

function fillSeats() {
  const info = state.info;
  const n = Number($("players").value);
  const seats = (info.seats || []).slice(0, n);
  const select = $("seat");
  const keep = select.value;
  select.replaceChildren();
  for (const s of seats) { const o = make("option", "", s); o.value = s; select.appendChild(o); }
  if (seats.includes(keep)) select.value = keep;
}

function fillReplaySeats(seats) {
  const select = $("replay-seat");
  const keep = select.value;
  select.replaceChildren();
  const pub = make("option", "", "everybody (public)"); pub.value = "public"; select.appendChild(pub);
  for (const s of seats) { const o = make("option", "", s); o.value = s; select.appendChild(o); }
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

async function watch() {
  try {
    const status = await api("/api/watch");
    if (state.version !== null && status.version !== state.version) {
      showErrors(status.errors);
      if (status.ok) {
        $("watch").classList.add("reloaded");
        text($("watch"), "reloaded " + new Date().toLocaleTimeString());
        if (!state.info.title) { await start(); }
        else await refresh();
      }
    }
    state.version = status.version;
  } catch (err) { /* the server is gone: try again later */ }
}

async function start() {
  const info = await api("/api/info");
  state.info = info;
  state.version = info.version;
  showErrors(info.errors);
  if (!info.title) return;
  text($("title"), info.title);
  document.title = info.title + " — Leges";
  const players = $("players");
  players.replaceChildren();
  for (let n = info.min_players; n <= info.max_players; n++) { const o = make("option", "", n); o.value = String(n); players.appendChild(o); }
  fillSeats();
  if (info.replays && info.replays.length) {
    const r = info.replays[0];
    fillReplaySeats(r.seats);
    useReplay(r.id, r.steps, null);
  }
  await newGame();
  if (info.replays && info.replays.length) setMode("replay");
}

function wire() {
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-replay").addEventListener("click", () => setMode("replay"));
  $("players").addEventListener("change", fillSeats);
  $("new-game").addEventListener("click", newGame);
  $("carry-on").addEventListener("click", carryOn);
  $("clear-selection").addEventListener("click", () => { state.chosen = []; showActions(); });
  $("filter").addEventListener("input", () => showActions());
  $("more-actions").addEventListener("click", () => { state.limit += 200; showActions(); });
  $("record-file").addEventListener("change", (e) => { if (e.target.files.length) loadRecordFile(e.target.files[0]); });
  $("timeline").addEventListener("input", (e) => showStep(Number(e.target.value)));
  $("step-first").addEventListener("click", () => showStep(0));
  $("step-prev").addEventListener("click", () => showStep(state.step - 1));
  $("step-next").addEventListener("click", () => showStep(state.step + 1));
  $("step-last").addEventListener("click", () => showStep(Number($("timeline").max)));
  $("replay-seat").addEventListener("change", () => showStep(state.step));
  document.addEventListener("keydown", (e) => {
    if (state.mode !== "replay" || ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    if (e.key === "ArrowLeft") { showStep(state.step - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { showStep(state.step + 1); e.preventDefault(); }
  });
  setInterval(watch, 1000);
}

wire();
start().catch((err) => notice(err.message));
