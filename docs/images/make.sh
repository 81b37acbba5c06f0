#!/usr/bin/env bash
# The pictures of docs/rendering.md and the README: one game of each bundled ruleset (and of a card
# game without a map, tests/rulesets/open_draw), played at
# random from a fixed seed, drawn at one step by `leges render`. Run from the repository's top.
set -euo pipefail
records=$(mktemp -d)
leges() { .venv/bin/leges "$@"; }
leges simulate rulesets/tictactoe -p 2 -g 1 --seed 4 --records "$records" -q >/dev/null
leges simulate rulesets/pompeii -p 3 -g 1 --seed 7 --records "$records" -q >/dev/null
leges simulate rulesets/attika -p 3 -g 1 --seed 5 --records "$records" -q >/dev/null
leges simulate rulesets/alexander -p 4 -g 1 --seed 3 --records "$records" -q >/dev/null
leges simulate tests/rulesets/open_draw -p 3 -g 1 --seed 3 --records "$records" -q >/dev/null
leges render rulesets/tictactoe --record "$records/tictactoe-2p-seed4.json" --step 5 -o docs/images/tictactoe.svg
leges render rulesets/pompeii --record "$records/pompeii-3p-seed7.json" --step 120 --seat red -o docs/images/pompeii.svg
leges render rulesets/attika --record "$records/attika-3p-seed5.json" --step 110 -o docs/images/attika.svg
leges render rulesets/alexander --record "$records/alexander-4p-seed3.json" --step 150 -o docs/images/alexander.svg
leges render tests/rulesets/open_draw --record "$records/open_draw-3p-seed3.json" --step 3 --seat o -o docs/images/open_draw.svg
rm -rf "$records"
