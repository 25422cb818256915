#!/bin/sh
# one background computation (leaf helper): round 12's second arm on the training-range seeds
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
D=data/experiments/round-12
echo "$(date -u +%T) start net-x2-train"
python experiments/fair_ab.py --seeds 1003400:1003566 --out $D/net-x2-train.jsonl --model $D/leaf-models.json --model-name classic/strict-net-x2
echo "$(date -u +%T) done net-x2-train: $(wc -l < $D/net-x2-train.jsonl) games"
