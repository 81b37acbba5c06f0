// Setting up and replaying in `leges serve`'s page: the variants to play, the seats, the replay
// of a record, the modes and the first request. Loaded before app.js, whose `state`, `api`,
// `render` and `notice` it uses when called.
"use strict";

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
    try { render(await api("/api/play/" + state.match)); }
    catch (err) {   // a seat taken by another browser, a link handed over: what happened, and what to do
      const hint = err.diagnostics && err.diagnostics[0] && err.diagnostics[0].hint;
      notice(err.message + (hint ? ". " + hint[0].toUpperCase() + hint.slice(1) + "." : ""));
    }
  } else if (state.mode === "replay" && state.replay) {
    showStep(state.step);
  } else {
    $("board").replaceChildren();
    state.drawn = "";
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
    try { render(await api("/api/play/" + state.match)); }
    catch (err) {   // a seat taken by another browser, a link handed over: what happened, and what to do
      const hint = err.diagnostics && err.diagnostics[0] && err.diagnostics[0].hint;
      notice(err.message + (hint ? ". " + hint[0].toUpperCase() + hint.slice(1) + "." : ""));
    }
    return;
  }
  await newGame();
  if (info.replays && info.replays.length) setMode("replay");
}
