#!/usr/bin/env bash
# The search bot against greedy (issue 12's goals), measured with `raiders simulate` and its 95%
# intervals; the results are in docs/simulate.md ("The search bot").
#   - 4-player deluxe: one search seat (P1) against three greedy seats; goal: P1 wins ≥ 60%
#     (an equal player wins 25%).
#   - classic solo (difficulty 3): survival of search against greedy on the same seeds;
#     goal: clearly better (intervals apart).
# Environment: GAMES (default 300), BUDGET (default 30), JOBS (default 2), SEED (default 1),
# SOLO_GAMES (default 300). The figures do not depend on JOBS.
# Cost on the 2-core dev machine: search:30 is ~0.25 s of one core per deluxe game (its playouts
# stop at the floor's end), ~0.06 s per solo game, so the defaults take ~1.5 min of both cores for
# deluxe and under 20 s for solo.
set -euo pipefail
GAMES=${GAMES:-300}
BUDGET=${BUDGET:-30}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
SOLO_GAMES=${SOLO_GAMES:-300}
echo "== deluxe, 4 players: search:$BUDGET in seat 1, greedy in seats 2-4"
time raiders simulate --players 4 --bots "search:$BUDGET,greedy,greedy,greedy" \
  --games "$GAMES" --jobs "$JOBS" --seed "$SEED" | sed -n '1,6p;/Wins by bot/,/^Games/p'
for bot in "search:$BUDGET" greedy; do
  echo "== classic solo (difficulty 3): $bot"
  time raiders simulate --ruleset classic --variant solo --players 1 --bots "$bot" \
    --games "$SOLO_GAMES" --jobs "$JOBS" --seed "$SEED" | sed -n '1,3p'
done
