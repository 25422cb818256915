#!/bin/sh
# Round sixteen's training games and fit (resumable): the shipped agent's classic/equal
# games on seeds 1000000-1000799, outside the evaluation range, with the win model's
# features at every room boundary; then the logistic model of "this game was won" on them.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-16
python scripts/train_fair_leaf.py play --variant classic/equal --seeds 1000000:1000800 \
    --cache $R/classic-equal-train.jsonl
# the fit writes a copy of the shipped leaf_model.json with the classic/equal entry added;
# classic-equal-model.json keeps that entry alone
python scripts/train_fair_leaf.py fit --variant classic/equal --cache $R/classic-equal-train.jsonl \
    --out "${TMPDIR:-/tmp}/classic-equal-fit.json" \
    --note "games of the shipped agent (0.2.0+fair.9f2434caacd0, train_fair_leaf.py play --variant classic/equal), seeds 1000000-1000799"
