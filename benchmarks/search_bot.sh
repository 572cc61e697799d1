#!/usr/bin/env bash
# The search bot against greedy (issue 12), measured with `raiders simulate` and its 95%
# intervals. GAMES (default 200) games each; BUDGET playouts per decision (default 40).
# Figures: win.seat.P1 (the search seat; an equal player wins 25% of 4-player games) and
# classic solo survival (search vs greedy on the same seeds).
set -euo pipefail
GAMES=${GAMES:-200}
BUDGET=${BUDGET:-40}
JOBS=${JOBS:-2}
echo "== deluxe, 4 players: search:$BUDGET in seat 1, greedy in seats 2-4"
time raiders simulate --ruleset deluxe --players 4 --games "$GAMES" --jobs "$JOBS" \
  --bots "search:$BUDGET,greedy,greedy,greedy" | sed -n '1,6p;/Wins by bot/,/^Games/p'
echo "== classic solo: search:$BUDGET"
time raiders simulate --ruleset classic --variant solo --players 1 --games "$GAMES" \
  --jobs "$JOBS" --bots "search:$BUDGET" | sed -n '1,3p'
echo "== classic solo: greedy, the same seeds"
raiders simulate --ruleset classic --variant solo --players 1 --games "$GAMES" \
  --jobs "$JOBS" --bots greedy | sed -n '1,3p'
