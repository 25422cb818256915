#!/bin/sh
# Round seventeen's second arm (resumable): hard/strict's agent with round thirteen's win
# model of hard/strict games (shipped in leaf_model.json as hard/strict, which no variant
# plays by default) at a win bonus of 200, between the 100 and 400 round thirteen tried,
# on the evaluation seeds 0-1999. The shipped agent's games on those seeds are
# data/fair-games.parquet's hard/strict rows. Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-17
M=src/scoundrel_solver/fair/leaf_model.json
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant hard/strict --seeds "$seeds" \
      --out $R/hard-model-x200-$part.jsonl --model $M --model-name hard/strict \
      --weight win_bonus=200 &
done
wait
