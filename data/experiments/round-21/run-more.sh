#!/bin/sh
# Round twenty-one's second run (resumable), two processes, one a core: the race up to
# 32 orders on seeds 2000-2999, deals the first run did not see (data/fair-games.parquet
# has the shipped agent's games there); and the cheaper race, up to 16 orders, on seeds
# 0-999, then the side-by-side cost check of the shipped agent and both races (cost.py).
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-21
python experiments/pimc_sequential.py --variant classic/strict --seeds 2000:3000 \
    --cap 32 --margin 1 --out $R/sequential-fresh.jsonl &
{ python experiments/pimc_sequential.py --variant classic/strict --seeds 0:1000 \
    --cap 16 --margin 1 --out $R/race16-a.jsonl && python $R/cost.py; } &
wait
