// The page's words: the ruleset's phrases and display names in the language picked (engine/words.py
// makes them; the server sends them with each view). Seats, moves and events are shown in words
// where the ruleset gives them, else as the text forms the API and the records use — those never
// change: every request names a seat, an action, a zone by its text form, whatever the page shows.
// Loaded before app.js (it uses app.js's `$` and `make` only when called).
"use strict";

function language() {
  const pick = $("lang");
  return pick && pick.value ? pick.value : (localStorage.getItem("leges-lang") || "en");
}

// a text per language in the language picked: English, then the first given, then `fallback`
function pickWords(words, fallback) {
  if (!words) return fallback;
  const lang = language();
  return words[lang] || words[lang.split("-")[0]] || words.en || Object.values(words)[0] || fallback;
}

function inWords(entry, fallback) {
  return pickWords(entry && entry.words, fallback);
}

// a seat as people read it: its display name (seats[].say), else its name
function seatName(name) {
  const view = state.view, info = state.info;
  const words = (view && view.words && view.words.seats && view.words.seats[name]) ||
    (info && info.seat_words && info.seat_words[name]);
  return name == null ? name : pickWords(words, name);
}

// `red > black = yellow` (seat names, as the server writes a ranking) with the seats' display names
function seatsIn(ranking) {
  return String(ranking || "").split(" > ").map((g) => g.split(" = ").map(seatName).join(" = ")).join(" > ");
}

// the status line (render/text.status_line) with the seats' display names
function statusWords(view) {
  if (view.terminal || !view.phase) return view.status;
  let line = "phase " + view.phase + " · turn of " + seatName(view.turn);
  if (view.to_move && view.to_move !== view.turn && view.to_move !== "nobody") line += " · " + seatName(view.to_move) + " to decide";
  return line;
}

// what happened that the actions do not say (an event's phrase, a card shown): the log lines the seat
// has not seen yet, in words where the engine or the ruleset gives them
function logWords(view) {
  return ((view.words && view.words.log) || []).map((l) => inWords(l, l.text));
}

// the picture's seat areas (render/svg_table.py: `<g class="area player" data-player=NAME>`, its
// first text the seat's name and its marks) with the seats' display names: the server draws names,
// the language is the page's
function seatsInPicture(board) {
  for (const g of board.querySelectorAll("g.area.player[data-player]")) {
    const name = g.dataset.player, label = g.querySelector("text");
    if (label && label.textContent.startsWith(name)) label.textContent = seatName(name) + label.textContent.slice(name.length);
  }
}

function showLanguages(view) {
  const langs = (view.words && view.words.languages) || [];
  const pick = $("lang");
  $("lang-box").hidden = langs.length < 2;
  const want = language();
  if ([...pick.options].map((o) => o.value).join() !== langs.join()) {
    pick.replaceChildren();
    for (const l of langs) { const o = make("option", "", l); o.value = l; pick.appendChild(o); }
  }
  pick.value = langs.includes(want) ? want : (langs[0] || "");
}
