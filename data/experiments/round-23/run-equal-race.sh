#!/bin/sh
# Round twenty-three's classic/equal arm (resumable): classic/strict's candidate race on
# classic/equal, from 8 sampled orders instead of 16 (AgentConfig.endgame_samples=8,
# endgame_cap=32, endgame_scored=32, endgame_score_margin=1), on the evaluation seeds
# 0-1999, whose games of the shipped agent are data/fair-games.parquet's. One process.
cd "$(dirname "$0")/../../.." || exit 1
python experiments/fair_ab.py --variant classic/equal --seeds 0:2000 \
    --opt endgame_samples=8 --opt endgame_cap=32 --opt endgame_scored=32 \
    --opt endgame_score_margin=1 --out data/experiments/round-23/equal-race.jsonl
