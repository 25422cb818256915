#!/bin/sh
# one background computation (leaf helper): arms of round 12, one after another, resumable
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
D=data/experiments/round-12
M=$D/leaf-models.json
for arm in "net:classic/strict-net:1003400:1003821:net-train" "net:classic/strict-net:0:2000:net-eval" "logistic:classic/strict-net-logistic:1003400:1003821:logistic-train"; do
  model=$(echo $arm | cut -d: -f2); a=$(echo $arm | cut -d: -f3); b=$(echo $arm | cut -d: -f4); out=$(echo $arm | cut -d: -f5)
  echo "$(date -u +%T) start $out ($model, seeds $a:$b)"
  python experiments/fair_ab.py --seeds $a:$b --out $D/$out.jsonl --model $M --model-name $model
  echo "$(date -u +%T) done $out: $(wc -l < $D/$out.jsonl) games"
done
