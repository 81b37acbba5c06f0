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
  busy: 0,               // requests under way that may let agents think
  listAll: false,        // a decision of numbers: its options listed after all
  polling: false,
  drawn: "",             // the board's SVG now in the page, with the language its seats are named in
};

// the server's secret, given to this page alone with its HTML: every API request carries it
const TOKEN = document.querySelector('meta[name="leges-token"]').content;

async function busy(promise, what) {
  state.busy++;
  showBusy(what);
  try { return await promise; } finally { state.busy--; showBusy(); }
}

function showBusy(what) {
  const thinking = state.busy > 0 || (state.view && state.view.mode === "play" && state.view.thinking);
  $("busy").hidden = !thinking;
  if (what) text($("busy-text"), what);
  else if (!state.busy) text($("busy-text"), "the agents are thinking…");
}

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
  n.appendChild(make("div", "refused", "'" + why.action + "' is not legal for " + seatName(why.seat)));
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
  const same = state.view && state.view.mode === view.mode && state.view.match === view.match &&
    state.view.history && state.view.history.length === view.history.length && state.view.seat === view.seat;
  state.view = view;
  if (!same) { state.chosen = []; state.limit = 60; state.listAll = false; $("filter").value = ""; }
  showLanguages(view);
  const drawn = language() + "\n" + view.svg;
  if (state.drawn !== drawn) {   // the same picture is kept: a click half made on it (pressed, not yet let go) still counts
    state.drawn = drawn;
    $("board").innerHTML = view.svg;   // made by the server: every text in it is escaped
    const svg = $("board").querySelector("svg");
    if (svg) svg.addEventListener("click", onBoardClick);
    seatsInPicture($("board"));
  }
  fitBoard();
  text($("status"), (view.seat ? seatName(view.seat) + " — " : "") + statusWords(view));
  showTable(view);
  showCurtain(view);
  const result = $("result");
  result.hidden = !view.result;
  if (view.result) {
    const scores = Object.entries(view.result.scores).map(([k, v]) => seatName(k) + " " + v).join(", ");
    text(result, "Game over: " + seatsIn(view.result.ranking) + " (scores: " + scores + ")");
  }
  const news = $("news");
  news.replaceChildren();
  const newsSaid = view.news_words || [];
  (view.news || []).forEach((line, i) => news.appendChild(make("li", "", inWords(newsSaid[i], line))));
  for (const t of (view.news_told || [])) news.appendChild(told(t));
  if (view.note) notice(view.note);
  const history = $("history");
  history.replaceChildren();
  const said = (view.words && view.words.history) || [];
  const events = view.told || [];   // the events told (their phrases), each after the entry it came with
  const eventsAfter = (n) => { for (const t of events) if (t.after === n) history.appendChild(told(t)); };
  eventsAfter(0);
  view.history.forEach((line, i) => {
    const li = make("li", "", inWords(said[i], line));
    li.value = i + 1;        // numbered as entries: the events between them count not
    li.dataset.text = line;  // the text form, as records and the API write it
    if (li.textContent !== line) li.title = line;
    history.appendChild(li);
    eventsAfter(i + 1);
  });
  history.scrollTop = history.scrollHeight;
  const lastBox = $("last-box");
  lastBox.hidden = view.mode !== "replay";
  if (view.mode === "replay") text($("last"), view.last || "(the start of the game)");
  $("action-box").hidden = view.mode !== "play";
  $("news-box").hidden = view.mode !== "play";
  showActions();
  showBusy();
  if (view.mode === "play" && view.thinking && view.match === state.match) {   // the server stopped its agents at its time limit: ask for the rest
    setTimeout(carryOn, 50);
  }
}

// an event told (a log line the engine words: an event's phrase, a card shown), in the language picked
function told(t) {
  const li = make("li", "event", inWords(t, t.text));
  li.dataset.log = t.text;   // the log line, as the API's observation writes it
  li.title = t.text;
  return li;
}

// the board scaled to what the window leaves it: the whole board and hand in sight, never cut
function fitBoard() {
  const box = $("board"), svg = box.querySelector("svg");
  if (!svg) return;
  const w = Number(svg.getAttribute("width")), h = Number(svg.getAttribute("height"));
  if (!w || !h) return;
  const top = box.getBoundingClientRect().top + window.scrollY;
  const aside = document.querySelector("aside");
  const asideMin = parseFloat(getComputedStyle(aside).minWidth) || 320;
  const roomW = Math.max(200, document.documentElement.clientWidth - asideMin - 56);
  const roomH = Math.max(200, window.innerHeight - top - 12);
  const scale = Math.min(1, roomW / w, roomH / h);
  svg.style.width = Math.floor(w * scale) + "px";
  svg.style.height = Math.floor(h * scale) + "px";
}

// the table: who sits where, the variants in force, the links for the other people
function showTable(view) {
  const line = $("table-line");
  line.hidden = view.mode !== "play";
  if (view.mode === "play") {
    const seats = (view.seats || []).map((s) => seatName(s) + " (" + (view.people.includes(s) ? "person" : (view.agents[s] || "agent")) + ")");
    const variants = view.variants && view.variants.length ? variantWords(view.variants) : "none (the rules as written)";
    line.replaceChildren(make("div", "", "Seats: " + seats.join(", ") + (view.hotseat ? " — hot seat" : "")),
                         make("div", "variants-on", "Variants: " + variants));
  }
  const links = $("links"), list = $("link-list");
  list.replaceChildren();
  const entries = Object.entries(view.links || {});
  links.hidden = view.mode !== "play" || !entries.length;
  const claimed = view.claimed || {};
  for (const [seat, key] of entries) {
    const url = location.origin + location.pathname + "#seat=" + key;
    const li = make("li", "", seatName(seat) + (claimed[seat] ? " (taken by a browser): " : " (not opened yet): "));
    const a = make("a", "seat-link", url);
    a.href = url; a.target = "_blank"; a.dataset.seat = seat;
    li.appendChild(a);
    if (claimed[seat] && !view.terminal) {
      const give = make("button", "hand-over", "hand over");
      give.type = "button";
      give.title = "a new link for this seat (the old one seats nobody); every seat is told";
      give.addEventListener("click", () => handOver(seat));
      li.appendChild(give);
    }
    list.appendChild(li);
  }
  const deal = $("deal");
  deal.hidden = !(view.mode === "play" && view.deal && !view.deal.secret);
  if (!deal.hidden) text(deal, "The deal is not secret: seed " + view.deal.seed + ". Whoever knows it can compute every hidden card.");
  const told = $("handovers");
  told.replaceChildren(...(view.mode === "play" ? view.handovers || [] : []).map((line) => make("li", "", line)));
  told.hidden = !told.children.length;
  const record = $("record-link");
  record.hidden = !(view.mode === "play" && view.terminal);
  $("undo").hidden = !(view.mode === "play" && view.undo);
}

// `three_moves`, `three_moves.escape_moves=5` → "three_moves (escape_moves=5)"
function variantWords(requests) {
  const named = new Map();
  for (const r of requests) {
    const m = /^([A-Za-z_]\w*)(?:\.(\w+))?(?:=(.*))?$/.exec(r);
    if (!m) continue;
    if (!named.has(m[1])) named.set(m[1], []);
    if (m[3] !== undefined) named.get(m[1]).push((m[2] ? m[2] + "=" : "") + m[3]);
  }
  return [...named].map(([id, ps]) => ps.length ? id + " (" + ps.join(", ") + ")" : id).join(", ");
}

// a hot seat: the next person's view stays covered until that person says it is there
function showCurtain(view) {
  const curtain = $("curtain");
  curtain.hidden = !(view.mode === "play" && view.curtain);
  if (view.mode === "play" && view.curtain) {
    text($("curtain-text"), "Pass the screen to " + seatName(view.curtain) + ". The others look away.");
    text($("reveal"), "I am " + seatName(view.curtain) + ": show my view");
    $("reveal").dataset.seat = view.curtain;
  }
}

// ------------------------------------------------------------------ playing
function tableRequest() {
  const players = Number($("players").value), me = $("seat").value, spec = $("agents").value;
  const body = { players, seat: me };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = seed;   // practice only: a table with other people is dealt in secret by the server
  const people = [...document.querySelectorAll("#seat-rows select.who")].filter((s) => s.value === "person").map((s) => s.dataset.seat);
  const hotseat = $("hotseat").checked;
  if (people.length || hotseat) {
    body.seats = {};
    for (const s of state.info.seats.slice(0, players)) body.seats[s] = s === me || people.includes(s) ? "person" : spec;
    body.hotseat = hotseat;
  } else body.agents = spec;
  if (state.info.variants && state.info.variants.length) body.variants = chosenVariants();
  return body;
}

async function newGame() {
  notice("");
  const conflict = variantConflict();
  if (conflict) { notice(conflict); return; }
  try {
    const view = await busy(api("/api/play", tableRequest()));
    state.match = view.match;
    history.replaceState(null, "", location.pathname);
    if (view.people.length > 1 || view.hotseat) remember(view);
    $("variants-box").open = false;
    render(view);
  } catch (err) { notice(err.message); }
}

async function act(actionText) {
  notice("");
  try {
    render(await busy(api("/api/play/" + state.match + "/act", { action: actionText })));
  } catch (err) {
    if (err.explanation) refusal(err.explanation); else notice(err.message);
    refresh();
  }
}

async function carryOn() {
  const match = state.match;
  try {
    const view = await busy(api("/api/play/" + match + "/continue", {}));
    if (state.mode === "play" && state.match === match) render(view);
  } catch (err) { notice(err.message); }
}

async function handOver(seat) {
  if (!confirm("Hand " + seatName(seat) + "'s seat to a new link? Its old link will seat nobody, and every seat is told.")) return;
  try { render(await api("/api/play/" + state.match + "/handover", { seat })); }
  catch (err) { notice(err.message); }
}

async function undo() {
  notice("");
  try { render(await busy(api("/api/play/" + state.match + "/undo", {}), "the game played again without your last decision…")); }
  catch (err) { notice(err.message); }
}

async function reveal() {
  try { render(await api("/api/play/" + state.match + "/reveal", { seat: $("reveal").dataset.seat })); } catch (err) { notice(err.message); }
}

async function downloadRecord() {
  try {
    const record = await api("/api/play/" + state.match + "/record");
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url; a.download = record.ruleset + "-" + record.players + "p-seed" + record.seed + ".json";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) { notice(err.message); }
}

// the tables set up in this tab (several at once: each goes on while the page is at another)
function tables() {
  try { return JSON.parse(sessionStorage.getItem("leges-tables") || "[]"); } catch (err) { return []; }
}

function remember(view) {
  const list = tables().filter((t) => t.key !== view.match);
  const seats = view.seats.map((s) => s + (view.people.includes(s) ? "" : "*")).join(" ");
  list.push({ key: view.match, ruleset: view.ruleset, label: "table " + (list.length + 1) + ": " + seats + (view.hotseat ? " (hot seat)" : "") +
              " — " + new Date().toLocaleTimeString() });
  try { sessionStorage.setItem("leges-tables", JSON.stringify(list.slice(-8))); } catch (err) { /* private mode: no list */ }
  showTables();
}

function showTables() {
  const list = tables().filter((t) => !state.info || t.ruleset === state.info.ruleset);
  const select = $("tables");
  select.replaceChildren();
  $("tables-box").hidden = !list.length;
  const none = make("option", "", "—"); none.value = ""; select.appendChild(none);
  for (const t of list) { const o = make("option", "", t.label); o.value = t.key; select.appendChild(o); }
  select.value = list.some((t) => t.key === state.match) ? state.match : "";
}

async function goToTable(key) {
  if (!key) return;
  state.match = key;
  notice("");
  try { render(await api("/api/play/" + key)); } catch (err) { notice(err.message); }
}

// a page waiting for another person (or for agents) asks often, cheaply: the server says "same"
async function poll() {
  const view = state.view;
  if (state.polling || state.busy || state.mode !== "play" || !state.match || !view || view.mode !== "play" || view.terminal) return;
  if (view.your_turn && !view.thinking && !(view.people && view.people.length > 1)) return;   // alone with agents: nothing moves meanwhile
  state.polling = true;
  try {
    const match = state.match;
    const answer = await api("/api/play/" + match + "?stamp=" + view.stamp);
    const now = state.view;
    const stale = state.mode !== "play" || state.match !== match || state.busy || !now || now.mode !== "play" ||
      (answer.stamp !== undefined && answer.stamp < now.stamp);   // an answer overtaken by the page's own request
    if (stale) return;
    const seen = answer.same || (answer.stamp !== undefined && answer.stamp === now.stamp);   // (the stamp counts the changes: the page drew this one)
    if (!seen) render(answer);
    else { $("busy").hidden = !answer.busy && !view.thinking; }
  } catch (err) { /* asked again soon */ }
  finally { state.polling = false; }
}

function wire() {
  $("tab-play").addEventListener("click", () => setMode("play"));
  $("tab-replay").addEventListener("click", () => setMode("replay"));
  $("players").addEventListener("change", fillSeats);
  $("lang").addEventListener("change", (e) => {
    localStorage.setItem("leges-lang", e.target.value);
    if (state.info && state.info.title) { fillSeats(); fillReplaySeats(state.view && state.view.mode === "replay" ? state.view.seats : [...$("replay-seat").options].slice(1).map((o) => o.value)); }
    if (state.view) render(state.view);
  });
  $("seat").addEventListener("change", fillSeatRows);
  $("undo").addEventListener("click", undo);
  $("tables").addEventListener("change", (e) => goToTable(e.target.value));
  $("reveal").addEventListener("click", reveal);
  $("record-link").addEventListener("click", downloadRecord);
  $("list-all").addEventListener("click", () => { state.listAll = !state.listAll; showActions(); });
  window.addEventListener("resize", fitBoard);
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
  setInterval(poll, 500);
}

wire();
start().catch((err) => notice(err.message));
