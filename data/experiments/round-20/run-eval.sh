#!/bin/sh
# Round twenty's arm (resumable): classic/equal's agent playing its endgame of sixteen
# sampled orders from 30 unseen cards instead of 24, on the fresh seeds 2000-2999. The
# shipped agent's games there are round sixteen's classic-equal-model-fresh.jsonl. Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-20
for half in 2000:2500:a 2500:3000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant classic/equal --seeds "$seeds" \
      --out $R/endgame30-$part.jsonl --opt endgame=30 &
done
wait
