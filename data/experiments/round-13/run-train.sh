#!/bin/sh
# The training games of hard/strict: the shipped agent on seeds 1000000-1001499,
# the win model's features at every room boundary and the outcome (resumable).
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
exec nice -n 5 python scripts/train_fair_leaf.py play --variant hard/strict \
    --seeds 1000000:1001500 --cache data/experiments/round-13/hard-strict-train.jsonl
