#!/bin/sh
# Round eighteen's arm (resumable): classic/equal's agent with the win model fitted on the
# games of the agent that plays round sixteen's model (classic-equal-model.json), on seeds
# 2000-3999. The shipped agent's games on those seeds are round sixteen's arm
# (../round-16/classic-equal-model-fresh.jsonl), which plays as the shipped agent does.
# Two processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-18
M=$R/classic-equal-model.json
python experiments/fair_ab.py --variant classic/equal --seeds 2000:3000 \
    --out $R/classic-equal-model-a.jsonl --model $M &
python experiments/fair_ab.py --variant classic/equal --seeds 3000:4000 \
    --out $R/classic-equal-model-b.jsonl --model $M
wait
