#!/bin/sh
# Round eighteen's training games and fit (resumable): the shipped agent's classic/equal
# games, which its leaf plays on round sixteen's model of classic/equal's games, on seeds
# 1000800-1001599 (outside the evaluation range and round sixteen's training seeds), in two
# processes, one a core; then the same logistic model of "this game was won" fitted on
# these games alone: a second turn of fitting the win model to the games of the agent
# that plays it.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-18
python scripts/train_fair_leaf.py play --variant classic/equal --seeds 1000800:1001200 \
    --cache $R/classic-equal-train-a.jsonl &
python scripts/train_fair_leaf.py play --variant classic/equal --seeds 1001200:1001600 \
    --cache $R/classic-equal-train-b.jsonl
wait
# the fit writes a copy of the shipped leaf_model.json with the classic/equal entry
# replaced; classic-equal-model.json keeps that entry alone
python scripts/train_fair_leaf.py fit --variant classic/equal \
    --cache $R/classic-equal-train-a.jsonl --cache $R/classic-equal-train-b.jsonl \
    --out "${TMPDIR:-/tmp}/classic-equal-fit2.json" \
    --note "games of the shipped agent (0.2.0+fair.12549136b452, train_fair_leaf.py play --variant classic/equal), seeds 1000800-1001599"
