// The decision panel of `leges serve`'s page: the actions offered (listed, filtered, or as a form of
// numbers) and the clicks on the board that narrow them to one. Loaded before app.js, whose
// `state`, `api`, `act`, `make`, `text` and `notice` it uses when called.
"use strict";

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

// a space no action (still) names: the first action that fits the clicks, with this space instead —
// or, for a choice the map relates to spaces (a column's number: render/board_choice.py), with the value
// this space has; a space that no action can take says so
function illegalClick(space) {
  const view = state.view;
  if (view.terminal) { notice("The game is over."); return; }
  const fitting = candidates().filter((a) => a.spaces.length);
  const pool = fitting.length ? fitting : view.actions.filter((a) => a.spaces.length);
  if (!view.actions.length) { notice("It is not your decision: " + seatName(view.to_move) + " is to decide."); return; }
  const nothing = "No action takes this space now: choose one in the list.";
  if (!pool.length) { notice(nothing); return; }
  const action = pool[0];
  const related = action.board || {};
  const words = action.text.split(" ");
  let done = false;
  const swapped = words.map((w) => {
    const [k, v] = w.split("=");
    if (done || v === undefined) return w;
    if (related[k]) {
      if (related[k][space] === undefined) return w;
      done = true; return k + "=" + related[k][space];
    }
    const target = action.spaces[Math.min(state.chosen.length, action.spaces.length - 1)];
    if (v === target) { done = true; return k + "=" + space; }
    return w;
  });
  if (!done) { notice(nothing); return; }   // never the unchanged action: it is legal, and would be played
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
