#!/bin/sh
# The arms of round fourteen on the evaluation seeds 0-1999 (resumable; rerun to go on):
# the shipped agent with 16 sampled orders in its endgame instead of 8, under the variant
# given as $1 (classic/strict or classic/equal). The shipped agent's games on those seeds
# are data/fair-games.parquet's rows of the variant.
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONPATH="$PWD/src"
R=data/experiments/round-14
variant=${1:-classic/strict}
name=$(echo "$variant" | tr / -)
echo "$(date -u +%T) start $name-samples16"
nice -n 5 python experiments/fair_ab.py --variant "$variant" --seeds 0:2000 \
    --out $R/$name-samples16-eval.jsonl --opt endgame_samples=16
echo "$(date -u +%T) done $name-samples16: $(wc -l < $R/$name-samples16-eval.jsonl) games"
