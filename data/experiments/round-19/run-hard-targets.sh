#!/bin/sh
# Round nineteen's hard/strict positions (resumable): the shipped agent's hard/strict games on
# seeds 1020000-1023999, outside the evaluation range, with every room it is dealt and one
# deviation from each, valued by the agent (experiments/leaf_targets.py). Two processes,
# one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-19
python experiments/leaf_targets.py --variant hard/strict --seeds 1020000:1022000 \
    --out $R/hard-targets-a.jsonl &
python experiments/leaf_targets.py --variant hard/strict --seeds 1022000:1024000 \
    --out $R/hard-targets-b.jsonl
wait
