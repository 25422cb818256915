#!/bin/sh
# one background computation (leaf helper): round 12's net on the evaluation seeds, resumable
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
D=data/experiments/round-12
echo "$(date -u +%T) start net-eval"
python experiments/fair_ab.py --seeds 0:2000 --out $D/net-eval.jsonl --model $D/leaf-models.json --model-name classic/strict-net
echo "$(date -u +%T) done net-eval: $(wc -l < $D/net-eval.jsonl) games"
