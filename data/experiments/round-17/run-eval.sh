#!/bin/sh
# Round seventeen's arm (resumable): classic/strict's agent with the win model fitted on
# its own games, on the evaluation seeds 0-3999. The shipped agent's games on those seeds
# are data/fair-games.parquet's classic/strict rows. Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-17
M=$R/classic-strict-model.json
python experiments/fair_ab.py --variant classic/strict --seeds 0:2000 \
    --out $R/classic-strict-model-a.jsonl --model $M &
python experiments/fair_ab.py --variant classic/strict --seeds 2000:4000 \
    --out $R/classic-strict-model-b.jsonl --model $M
wait
