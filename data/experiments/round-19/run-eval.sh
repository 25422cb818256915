#!/bin/sh
# Round nineteen's arm (resumable): classic/strict's agent with the win net of leaf-net.json
# as its leaf's win model, on the evaluation seeds 0-1999. The shipped agent's games on
# those seeds are data/fair-games.parquet's classic/strict rows. Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-19
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant classic/strict --seeds "$seeds" \
      --out $R/net-$part.jsonl --model $R/leaf-net.json --model-name classic/strict-net &
done
wait
