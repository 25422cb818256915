#!/bin/sh
# Round twenty-four's classic/equal arm (resumable): classic/strict's endgame race on
# classic/equal from its own 16 sampled orders (AgentConfig.endgame_cap=32,
# endgame_scored=32, endgame_score_margin=1; endgame_samples stays 16), on the evaluation
# seeds 0-1999, whose games of the shipped agent are data/fair-games.parquet's.
# Two processes, one for each half of the seeds. A shell without job control starts
# background commands with SIGINT ignored, so a Ctrl-C is passed on to them as SIGTERM
# (each game is written whole as it ends; the one being played is lost).
cd "$(dirname "$0")/../../.." || exit 1
pids=""
for half in 0:1000 1000:2000; do
    python experiments/fair_ab.py --variant classic/equal --seeds "$half" \
        --opt endgame_cap=32 --opt endgame_scored=32 --opt endgame_score_margin=1 \
        --out "data/experiments/round-24/equal-race16-${half%%:*}.jsonl" &
    pids="$pids $!"
done
trap 'kill $pids 2>/dev/null; exit 130' INT TERM
wait
