#!/bin/sh
# Round twenty-five's cost check (resumable): the shipped fair agent on the first 300
# evaluation seeds of classic/strict and of classic/equal, one process each, side by side
# (experiments/fair_ab.py, no options). A Ctrl-C stops both (see run-phases.sh).
cd "$(dirname "$0")/../../.." || exit 1
python experiments/fair_ab.py --variant classic/strict --seeds 0:300 \
    --out data/experiments/round-25/cost-classic-strict.jsonl &
a=$!
python experiments/fair_ab.py --variant classic/equal --seeds 0:300 \
    --out data/experiments/round-25/cost-classic-equal.jsonl &
b=$!
trap 'kill $a $b 2>/dev/null; exit 130' INT TERM
wait
