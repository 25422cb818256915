#!/bin/sh
# Round nineteen's hard/strict fit: a win net of eight hidden units fitted to the agent's
# shown chance of winning at every recorded hard/strict room, written alone into
# hard-leaf-net.json as hard/strict-net.
cd "$(dirname "$0")/../../.." || exit 1
R=data/experiments/round-19
rm -f $R/hard-leaf-net.json
python scripts/train_fair_leaf.py targets --variant hard/strict \
    --positions $R/hard-targets-a.jsonl --positions $R/hard-targets-b.jsonl --target win \
    --hidden 8 --out $R/hard-leaf-net.json --name hard/strict-net \
    --note "fitted to the shown chance of the shipped agent (0.2.0+fair.12549136b452) at the hard/strict rooms of experiments/leaf_targets.py"
