#!/bin/sh
# Round twenty's arm (resumable) on more fresh seeds, 3000-4999: classic/equal's agent
# playing its endgame of sixteen sampled orders from 30 unseen cards instead of 24. The
# shipped agent's games there are round sixteen's classic-equal-model-fresh.jsonl. Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-20
for half in 3000:4000:c 4000:5000:d; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant classic/equal --seeds "$seeds" \
      --out $R/endgame30-$part.jsonl --opt endgame=30 &
done
wait
