#!/bin/sh
# Round twenty-two's second arm (resumable): the agent's own race
# (AgentConfig.endgame_cap=32: from 8 orders, doubled while more than one action is
# within one win of the most, up to 32, every action's wins on every order drawn, the
# scores that break ties of wins over the first 8 orders), on the evaluation seeds
# 0-1999, whose games of the shipped agent are data/fair-games.parquet's. Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-22
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/fair_ab.py --variant classic/strict --seeds "$seeds" \
      --opt endgame_cap=32 --out $R/race-$part.jsonl &
done
wait
