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
  $("board").innerHTML = view.svg;   // made by the server: every text in it is escaped
  const svg = $("board").querySelector("svg");
  if (svg) svg.addEventListener("click", onBoardClick);
  showLanguages(view);
  seatsInPicture($("board"));
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
  for (const [seat, key] of entries) {
    const url = location.origin + location.pathname + "#seat=" + key;
    const li = make("li", "", seatName(seat) + ": ");
    const a = make("a", "seat-link", url);
    a.href = url; a.target = "_blank"; a.dataset.seat = seat;
    li.appendChild(a);
    list.appendChild(li);
  }
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

function candidates() {
  const actions = state.view ? state.view.actions : [];
  return actions.filter((a) => { const t = targetsOf(a); return state.chosen.every((s) => t.includes(s)); });
}

function showActions() {
  const view = state.view;
  const list = $("actions");
  list.replaceChildren();
  if (!view || view.mode !== "play") return;
  const form = numbersOf(view.actions);
  showNumbers(form);
  $("list-all").hidden = !form;
  text($("list-all"), state.listAll ? "the form of numbers" : "list every option");
  if (form && !state.listAll) {
    $("filter").hidden = true; $("more-actions").hidden = true;
    text($("waiting"), "Choose the numbers:");
    $("carry-on").hidden = !(view.actions.length && view.to_move !== view.seat && !view.terminal);
    return;
  }
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
    const button = make("button", "act", inWords(action, action.text));
    if (button.textContent !== action.text) button.title = action.text;
    button.type = "button";
    button.dataset.action = action.text;
    button.addEventListener("click", () => act(action.text));
    li.appendChild(button);
    if (action.cite) {  // the citation on request: a "why?" per action
      const why = make("details", "why");
      why.appendChild(make("summary", "", "why?"));
      const cite = make("div", "cite", action.cite.short);
      cite.title = [action.cite.rule, action.cite.title, action.cite.quote].filter(Boolean).join("\n");
      if (action.cite.where) cite.appendChild(make("span", "where", "  " + action.cite.where));
      why.appendChild(cite);
      li.appendChild(why);
    }
    list.appendChild(li);
  }
  const more = $("more-actions");
  more.hidden = left === 0;
  text(more, "show " + left + " more");
  const waiting = view.terminal ? "The game is over." :
    view.actions.length ? (view.actions.some((a) => a.spaces.length) ? "Click a highlighted space, or an action:" :
      view.actions.some((a) => targetsOf(a).length) ? "Click a highlighted zone or card, or an action:" : "Choose an action:") :
    "Waiting for " + seatName(view.to_move) + ".";
  text($("waiting"), waiting);
  $("carry-on").hidden = !(view.actions.length && view.to_move !== view.seat && !view.terminal);
  // the board: spaces an action still fitting the clicks names
  const targets = new Set();
  for (const a of candidates()) for (const s of targetsOf(a)) if (!state.chosen.includes(s)) targets.add(s);
  for (const g of $("board").querySelectorAll(".hit[data-space]")) {
    const s = g.dataset.space;
    g.classList.toggle("target", targets.has(s));
    g.classList.toggle("chosen", state.chosen.includes(s));
  }
  markTable($("board"), targets);
  $("selection").hidden = state.chosen.length === 0;
  text($("selection-text"), "chosen: " + state.chosen.map((s) => s.startsWith("card:") ? s.slice(s.lastIndexOf("/") + 1) : s).join(", "));
}

// a decision whose options are every combination of a few numbers (a share-out): a form of
// numbers, each kept within what the numbers before it leave, instead of a list of hundreds
function numbersOf(actions) {
  if (!actions || actions.length < 13) return null;
  const first = actions[0].text.split(" ");
  const id = first[0], keys = first.slice(1).map((t) => t.split("=")[0]);
  if (!keys.length || keys.length > 6) return null;
  const rows = [];
  for (const a of actions) {
    const words = a.text.split(" ");
    if (words[0] !== id || words.length !== keys.length + 1) return null;
    const row = [];
    for (let i = 0; i < keys.length; i++) {
      const m = /^([^=]+)=(-?\d+)$/.exec(words[i + 1]);
      if (!m || m[1] !== keys[i]) return null;
      row.push(Number(m[2]));
    }
    rows.push(row);
  }
  return { id, keys, rows, texts: new Set(actions.map((a) => a.text)) };
}

function numberRange(form, i, values) {
  const fit = form.rows.filter((r) => r.slice(0, i).every((v, j) => v === values[j])).map((r) => r[i]);
  return fit.length ? [Math.min(...fit), Math.max(...fit)] : null;
}

function showNumbers(form) {
  const box = $("numbers");
  box.hidden = !form || state.listAll;
  if (box.hidden) { box.replaceChildren(); delete box.dataset.sig; return; }
  const sig = form.id + " " + form.keys.join(" ") + " " + form.rows.length;
  if (box.dataset.sig === sig) return;   // the same decision: the numbers typed so far stay
  box.dataset.sig = sig;
  box.replaceChildren();
  const inputs = [];
  form.keys.forEach((key, i) => {
    const label = make("label", "number", key + " ");
    const input = make("input", "");
    input.type = "number"; input.name = key; input.dataset.key = key;
    label.appendChild(input);
    label.appendChild(make("span", "range", ""));
    box.appendChild(label);
    inputs.push(input);
  });
  const go = make("button", "act", form.id);
  go.type = "submit";
  box.appendChild(go);
  const update = () => {
    const values = [];
    inputs.forEach((input, i) => {
      const range = numberRange(form, i, values);
      if (range) {
        input.min = String(range[0]); input.max = String(range[1]);
        if (input.value === "" || Number(input.value) < range[0] || Number(input.value) > range[1]) input.value = String(range[0]);
        text(input.parentNode.querySelector(".range"), range[0] + "–" + range[1]);
      }
      values.push(Number(input.value));
    });
  };
  inputs.forEach((input) => input.addEventListener("change", update));
  update();
  box.onsubmit = (e) => {
    e.preventDefault();
    const chosen = form.id + " " + inputs.map((input) => input.dataset.key + "=" + String(Number(input.value))).join(" ");
    if (form.texts.has(chosen)) act(chosen); else whyNot(chosen);
  };
}

// why something the page knows is not legal is not: asked, never played
async function whyNot(actionText) {
  try {
    const answer = await api("/api/play/" + state.match + "/why", { action: actionText });
    if (answer.explanation) refusal(answer.explanation);
    else if (answer.error) notice("'" + actionText + "' is not legal: " + answer.error);
    else if (answer.legal) act(actionText);
  } catch (err) { notice(err.message); }
}

// a space no action (still) names: the first action that fits the clicks, with this space instead
function illegalClick(space) {
  const view = state.view;
  if (view.terminal) { notice("The game is over."); return; }
  const fitting = candidates().filter((a) => a.spaces.length);
  const pool = fitting.length ? fitting : view.actions.filter((a) => a.spaces.length);
  if (!view.actions.length) { notice("It is not your decision: " + seatName(view.to_move) + " is to decide."); return; }
  if (!pool.length) { notice("No action of yours now names a space: choose one in the list."); return; }
  const action = pool[0];
  const target = action.spaces[Math.min(state.chosen.length, action.spaces.length - 1)];
  const words = action.text.split(" ");
  let done = false;
  const swapped = words.map((w) => {
    const [k, v] = w.split("=");
    if (!done && v === target) { done = true; return k + "=" + space; }
    return w;
  });
  whyNot(swapped.join(" "));
}

// the clicks chose one action: it is taken; else what still fits is shown, highlighted
function chosenNow() {
  const fitting = candidates();
  const distinct = new Set(fitting.map((a) => a.text));
  if (distinct.size === 1) { act(fitting[0].text); return; }
  const more = fitting.some((a) => targetsOf(a).some((s) => !state.chosen.includes(s)));
  if (!more) notice("More than one action fits: choose it in the list.");
  showActions();
}

function onBoardClick(event) {
  if (!state.view || state.view.mode !== "play") return;
  const zone = event.target.closest("[data-zone]");
  if (zone) { onTableClick(zone, event); return; }
  const g = event.target.closest("[data-space]");
  if (!g) return;
  const space = g.dataset.space;
  if (state.chosen.includes(space)) return;
  const before = state.chosen;
  state.chosen = before.concat([space]);
  let fitting = candidates();
  if (!fitting.length) {           // a fresh start from this space
    state.chosen = [space];
    fitting = candidates();
  }
  if (!fitting.length) { state.chosen = before; illegalClick(space); return; }
  const distinct = new Set(fitting.map((a) => a.text));
  const more = fitting.some((a) => targetsOf(a).some((s) => !state.chosen.includes(s)));
  if (distinct.size === 1) { act(fitting[0].text); return; }
  if (!more) notice("More than one action fits: choose it in the list.");
  showActions();
}

// ------------------------------------------------------------------ playing
function tableRequest() {
  const players = Number($("players").value), me = $("seat").value, spec = $("agents").value;
  const body = { players, seat: me, seed: Number($("seed").value) };
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
    if (!answer.same) render(answer);
    else { $("busy").hidden = !answer.busy && !view.thinking; }
  } catch (err) { /* asked again soon */ }
  finally { state.polling = false; }
}

// ------------------------------------------------------------------ variants
function showVariants() {
  const list = $("variant-list");
  list.replaceChildren();
  const variants = state.info.variants || [];
  $("variants-box").hidden = !variants.length;
  for (const v of variants) {
    const li = make("li", "variant");
    li.dataset.variant = v.id;
    const label = make("label", "variant-title");
    const box = make("input", "");
    box.type = "checkbox"; box.className = "variant-on"; box.dataset.variant = v.id; box.checked = !!v.on;
    box.addEventListener("change", variantsChanged);
    label.appendChild(box);
    label.appendChild(make("span", "", " " + v.title));
    if (v.kind) label.appendChild(make("span", "kind", " [" + v.kind + "]"));
    li.appendChild(label);
    if (v.description) li.appendChild(make("div", "description", v.description));
    if (v.provenance) li.appendChild(make("div", "provenance", "provenance: " + v.provenance));
    const rel = [];
    if (v.requires.length) rel.push("requires " + v.requires.join(", "));
    if (v.conflicts.length) rel.push("conflicts with " + v.conflicts.join(", "));
    if (v.overrides.length) rel.push("overrides " + v.overrides.join(", "));
    if (rel.length) li.appendChild(make("div", "relations", rel.join("; ")));
    for (const p of v.parameters) {
      const pl = make("label", "parameter", p.id + " ");
      let input;
      if (p.choices) {
        input = make("select", "");
        for (const c of p.choices) { const o = make("option", "", c); o.value = String(c); input.appendChild(o); }
      } else {
        input = make("input", "");
        if (p.type === "bool") input.type = "checkbox";
        else if (p.type === "int") { input.type = "number"; if (p.min != null) input.min = String(p.min); if (p.max != null) input.max = String(p.max); }
      }
      input.className = "variant-param"; input.dataset.variant = v.id; input.dataset.param = p.id; input.dataset.type = p.type;
      const start = p.value !== undefined ? p.value : p.default;   // the command line's value, else the default
      if (p.type === "bool") input.checked = ["true", "yes", "1", true].includes(start); else input.value = start == null ? "" : String(start);
      pl.appendChild(input);
      const bounds = p.min != null || p.max != null ? " (" + (p.min != null ? p.min : "") + "–" + (p.max != null ? p.max : "") + ")" : "";
      pl.appendChild(make("span", "param-info", bounds + " default " + p.default + (p.description ? ": " + p.description : "")));
      li.appendChild(pl);
    }
    list.appendChild(li);
  }
  variantsChanged();
}

function variantsChanged() {
  const c = variantConflict(), n = $("variant-conflict");
  n.hidden = !c;
  text(n, c || "");
  const on = chosenVariants().filter((r) => !r.includes("."));
  text($("variants-summary"), "(" + (state.info.variants || []).length + "): " + (on.length ? on.join(", ") + " on" : "none on"));
}

function chosenVariants() {
  const out = [];
  for (const box of document.querySelectorAll("#variant-list input.variant-on")) {
    if (!box.checked) continue;
    out.push(box.dataset.variant);
    for (const input of document.querySelectorAll("#variant-list .variant-param")) {
      if (input.dataset.variant !== box.dataset.variant) continue;
      const value = input.dataset.type === "bool" ? String(input.checked) : input.value;
      out.push(box.dataset.variant + "." + input.dataset.param + "=" + value);
    }
  }
  return out;
}

// a choice the variants' own relations refuse, said before the game is asked for (the server refuses it too)
function variantConflict() {
  const on = new Set(chosenVariants().filter((r) => !r.includes(".")));
  for (const v of state.info.variants || []) {
    if (!on.has(v.id)) continue;
    for (const other of v.conflicts) if (on.has(other)) return "variant '" + v.id + "' conflicts with '" + other + "': switch on one of them only";
    for (const need of v.requires) if (!on.has(need)) return "variant '" + v.id + "' requires variant '" + need + "'";
  }
  return null;
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
  for (const s of seats) { const o = make("option", "", seatName(s)); o.value = s; select.appendChild(o); }
  if (seats.includes(keep)) select.value = keep;
  fillSeatRows();
}

function fillSeatRows() {
  const rows = $("seat-rows");
  const before = {};
  for (const s of rows.querySelectorAll("select.who")) before[s.dataset.seat] = s.value;
  rows.replaceChildren(make("span", "", "the other seats:"));
  const n = Number($("players").value);
  for (const s of (state.info.seats || []).slice(0, n)) {
    if (s === $("seat").value) continue;
    const label = make("label", "seat-row", seatName(s) + " ");
    const who = make("select", "who");
    who.dataset.seat = s;
    for (const [value, words] of [["agent", "an agent"], ["person", "a person (a link)"]]) {
      const o = make("option", "", words); o.value = value; who.appendChild(o);
    }
    who.value = before[s] || "agent";
    label.appendChild(who);
    rows.appendChild(label);
  }
}

function fillReplaySeats(seats) {
  const select = $("replay-seat");
  const keep = select.value;
  select.replaceChildren();
  const pub = make("option", "", "everybody (public)"); pub.value = "public"; select.appendChild(pub);
  for (const s of seats) { const o = make("option", "", seatName(s)); o.value = s; select.appendChild(o); }
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
  showVariants();
  showTables();
  if (info.replays && info.replays.length) {
    const r = info.replays[0];
    fillReplaySeats(r.seats);
    useReplay(r.id, r.steps, null);
  }
  const joined = /^#seat=([0-9a-f]+)$/.exec(location.hash);
  if (joined) {   // a seat's link: this page is that seat's, at a table set up elsewhere
    state.match = joined[1];
    try { render(await api("/api/play/" + state.match)); } catch (err) { notice(err.message); }
    return;
  }
  await newGame();
  if (info.replays && info.replays.length) setMode("replay");
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
