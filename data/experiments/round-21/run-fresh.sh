#!/bin/sh
# Round twenty-one's third run (resumable): the race to 32 orders on seeds 3000-3999,
# fresh deals again (data/fair-games.parquet has the shipped agent's games there). Two
# processes, one a core.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-21
for half in 3000:3500 3500:4000; do
  python experiments/pimc_sequential.py --variant classic/strict --seeds "$half" \
      --cap 32 --margin 1 --out $R/sequential-${half%:*}.jsonl &
done
wait
