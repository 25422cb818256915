#!/bin/sh
# The arm of round thirteen on the evaluation seeds 0-1999 (resumable): the agent with
# the win model fitted on hard/strict games at the win bonus chosen on the training-range
# seeds ($1, default the variant's 100). The shipped agent's games on those seeds are
# data/fair-games.parquet's hard/strict rows.
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
R=data/experiments/round-13
M=src/scoundrel_solver/fair/leaf_model.json
bonus=${1:-100}
echo "$(date -u +%T) start hard-model-eval (win bonus $bonus)"
nice -n 5 python experiments/fair_ab.py --variant hard/strict --seeds 0:2000 \
    --out $R/hard-model-eval.jsonl --model $M --model-name hard/strict --weight win_bonus=$bonus
echo "$(date -u +%T) done hard-model-eval: $(wc -l < $R/hard-model-eval.jsonl) games"
