#!/bin/sh
# Round seventeen's cost check (resumable): the shipped agent's classic/strict CPU seconds
# in data/fair-games.parquet were recorded at another time, so both sides are played here
# side by side, one process a core, on seeds 4000-4299, which the arm's evaluation did not
# play: the agent as shipped, and the agent with classic-strict-model.json.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-17
python experiments/fair_ab.py --variant classic/strict --seeds 4000:4300 \
    --out $R/cost-shipped.jsonl &
python experiments/fair_ab.py --variant classic/strict --seeds 4000:4300 \
    --out $R/cost-model.jsonl --model $R/classic-strict-model.json
wait
