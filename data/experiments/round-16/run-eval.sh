#!/bin/sh
# Round sixteen's arm (resumable): classic/equal's agent with the win model fitted on its
# own games, on the evaluation seeds 0-1999 and the fresh seeds 2000-4999. The shipped
# agent's games on those seeds are data/fair-games.parquet's classic/equal rows, round
# fifteen's classic-equal-samples16-fresh.jsonl (2000-3999) and shipped-fresh.jsonl
# (4000-4999, played here). Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-16
M=$R/classic-equal-model.json
python experiments/fair_ab.py --variant classic/equal --seeds 0:2000 \
    --out $R/classic-equal-model-eval.jsonl --model $M &
python experiments/fair_ab.py --variant classic/equal --seeds 2000:5000 \
    --out $R/classic-equal-model-fresh.jsonl --model $M
wait
python experiments/fair_ab.py --variant classic/equal --seeds 4000:5000 --out $R/shipped-fresh.jsonl
