#!/bin/sh
# Round twenty-two's first arm (resumable): round twenty-one's race to 32 orders with
# no action dropped (experiments/pimc_sequential.py --no-drop: every action tallied on
# every order drawn, as the values a player is shown need), on the evaluation seeds
# 0-1999, whose games of the shipped agent are data/fair-games.parquet's. Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-22
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/pimc_sequential.py --variant classic/strict --seeds "$seeds" \
      --cap 32 --margin 1 --no-drop --out $R/all32-$part.jsonl &
done
wait
