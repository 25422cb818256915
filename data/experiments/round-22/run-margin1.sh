#!/bin/sh
# Round twenty-two's fourth arm (resumable): the agent's race to 32 orders whose
# tie-breaking scores race too (AgentConfig.endgame_cap=32, endgame_scored=32,
# endgame_score_margin=1: from 8 orders, doubled while the best two tied actions' totals
# are within one point an order), on the evaluation seeds 0-1999, whose games of the
# shipped agent are data/fair-games.parquet's. Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-22
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant classic/strict --seeds "$seeds" \
      --opt endgame_cap=32 --opt endgame_scored=32 --opt endgame_score_margin=1 \
      --out $R/margin1-$part.jsonl &
done
wait
