#!/bin/sh
# Round nineteen's fit: a win net of eight hidden units fitted to the agent's shown chance of
# winning at every recorded room (the agent's own and the deviations'), written alone into
# leaf-net.json as classic/strict-net.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-19
rm -f $R/leaf-net.json
python scripts/train_fair_leaf.py targets --variant classic/strict \
    --positions $R/targets-a.jsonl --positions $R/targets-b.jsonl --target win \
    --hidden 8 --out $R/leaf-net.json --name classic/strict-net \
    --note "fitted to the shown chance of the shipped agent (0.2.0+fair.12549136b452) at the rooms of experiments/leaf_targets.py"
