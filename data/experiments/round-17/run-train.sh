#!/bin/sh
# Round seventeen's training games and fit (resumable): the shipped agent's classic/strict
# games on seeds 1000000-1000799, outside the evaluation range, with the win model's
# features at every room boundary; then the logistic model of "this game was won" on them.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-17
python scripts/train_fair_leaf.py play --variant classic/strict --seeds 1000000:1000800 \
    --cache $R/classic-strict-train.jsonl
# the fit writes a copy of the shipped leaf_model.json with the classic/strict entry
# replaced; classic-strict-model.json keeps that entry alone
python scripts/train_fair_leaf.py fit --variant classic/strict --cache $R/classic-strict-train.jsonl \
    --out "${TMPDIR:-/tmp}/classic-strict-fit.json" \
    --note "games of the shipped agent (0.2.0+fair.12549136b452, train_fair_leaf.py play --variant classic/strict), seeds 1000000-1000799"
