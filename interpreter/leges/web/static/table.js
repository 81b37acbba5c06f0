// The table of a game without a map (render/svg_table.py: `<g class="zone" data-zone=KEY>`, its
// cards `<g class="card face" data-label=LABEL>`) made clickable, as a map's spaces are: an action
// is chosen by the zones it names and by the cards it names (each with the zone it lies in, where
// the seat sees it: render/actions.py), click by click; what still fits is highlighted, and a
// click nothing fits asks the server why (`/why`, the existing explanation). Loaded before app.js
// and decision.js, whose `state`, `candidates`, `chosenNow`, `whyNot` and `notice` it uses when called.
"use strict";

// what a click may choose towards an action: its spaces; on a table, the zones it names, the zones
// its cards lie in and the cards themselves ("card:ZONE/LABEL")
function cardTarget(zone, label) { return "card:" + zone + "/" + label; }

function targetsOf(a) {
  const out = a.spaces.slice();
  for (const z of a.zones || []) if (!out.includes(z)) out.push(z);
  for (const c of a.cards || []) {
    if (!out.includes(c.zone)) out.push(c.zone);
    out.push(cardTarget(c.zone, c.label));
  }
  return out;
}

// the zones and cards that a click may still choose (`targets`), and those chosen, marked
function markTable(board, targets) {
  for (const g of board.querySelectorAll(".zone[data-zone]")) {
    const z = g.dataset.zone;
    g.classList.toggle("target", targets.has(z));
    g.classList.toggle("chosen", state.chosen.includes(z));
    for (const card of g.querySelectorAll(".card.face[data-label]")) {
      const c = cardTarget(z, card.dataset.label);
      card.classList.toggle("target", targets.has(c));
      card.classList.toggle("chosen", state.chosen.includes(c));
    }
  }
}

// a zone or a card of the table no action (still) names: the first action naming a zone (a card)
// that fits the clicks, with this zone (this card) instead — asked why it is not legal
function illegalTableClick(zone, label) {
  const view = state.view;
  if (view.terminal) { notice("The game is over."); return; }
  if (!view.actions.length) { notice("It is not your decision: " + seatName(view.to_move) + " is to decide."); return; }
  const naming = (a) => label != null ? (a.cards || []).length : (a.zones || []).length;
  const fitting = candidates().filter(naming);
  const pool = fitting.length ? fitting : view.actions.filter(naming);
  if (!pool.length) {
    notice(label != null ? "No action of yours now names a card: choose one in the list." :
      "No action of yours now names a zone" + (view.actions.some((a) => (a.cards || []).length) ? ": click a card." : ": choose one in the list."));
    return;
  }
  const action = pool[0];
  const was = label != null ? action.cards[0].label : action.zones[0];
  const now = label != null ? label : zone;
  let done = false;
  const swapped = action.text.split(" ").map((w) => {
    const [k, v] = w.split("=");
    if (!done && v === was) { done = true; return k + "=" + now; }
    return w;
  });
  whyNot(swapped.join(" "));
}

// a click on the table: a card (with the zone it lies in) or a zone; the clicks so far kept where they still fit
function onTableClick(g, event) {
  const zone = g.dataset.zone;
  const face = event.target.closest(".card.face[data-label]");
  const label = face ? face.dataset.label : null;
  const card = label != null ? cardTarget(zone, label) : null;
  const before = state.chosen;
  const fresh = [zone, card].filter((t) => t && !before.includes(t));
  if (!fresh.length) return;                      // clicked again: nothing new chosen
  const add = (ts) => before.concat(ts.filter((t) => !before.includes(t)));
  const tries = card ? [add([zone, card]), [zone, card], add([zone]), [zone]] : [add([zone]), [zone]];
  for (const chosen of tries) {
    state.chosen = chosen;
    if (candidates().length) { chosenNow(); return; }
  }
  state.chosen = before;
  illegalTableClick(zone, label);
}
