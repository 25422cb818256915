#!/bin/sh
# Round twenty-one's arm (resumable): classic/strict's agent drawing more orders in its
# endgame while its choice is close (experiments/pimc_sequential.py: from 8 orders,
# doubled while the most wins lead the next by at most one, up to 32), on the evaluation
# seeds 0-1999, whose games of the shipped agent are data/fair-games.parquet's. Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-21
for half in 0:1000:a 1000:2000:b; do
  seeds=${half%:*}; part=${half##*:}
  python experiments/pimc_sequential.py --variant classic/strict --seeds "$seeds" \
      --cap 32 --margin 1 --out $R/sequential-$part.jsonl &
done
wait
