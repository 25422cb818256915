#!/bin/sh
# Round nineteen's training positions (resumable): the shipped agent's classic/strict games
# on seeds 1010000-1015999, outside the evaluation range, with every room it is dealt and
# one deviation from each, valued by the agent (experiments/leaf_targets.py). Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-19
python experiments/leaf_targets.py --variant classic/strict --seeds 1010000:1013000 \
    --out $R/targets-a.jsonl &
python experiments/leaf_targets.py --variant classic/strict --seeds 1013000:1016000 \
    --out $R/targets-b.jsonl
wait
