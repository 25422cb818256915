#!/bin/sh
# The arms of round thirteen on the training-range seeds 1000850-1000999, kept out of
# the fit, one after another (each resumable: fair_ab.py skips the seeds already in its
# file): the agent with the win model fitted on hard/strict games, at the variant's win
# bonus (100) and at 400. The shipped agent's games on those seeds are in the training
# cache (hard-strict-train.jsonl).
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
R=data/experiments/round-13
M=src/scoundrel_solver/fair/leaf_model.json
for arm in "hard-model-train:100" "hard-model-x400-train:400"; do
  out=${arm%%:*}; bonus=${arm##*:}
  echo "$(date -u +%T) start $out (win bonus $bonus)"
  nice -n 5 python experiments/fair_ab.py --variant hard/strict --seeds 1000850:1001000 \
      --out $R/$out.jsonl --model $M --model-name hard/strict --weight win_bonus=$bonus || exit 1
  echo "$(date -u +%T) done $out: $(wc -l < $R/$out.jsonl) games"
done
