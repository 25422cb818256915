#!/bin/sh
# Round twenty-three's record of classic/strict's candidate (resumable): the agent of
# this tree with candidate.patch applied (classic/strict's row races its endgame:
# AgentConfig.endgame_cap=32, endgame_scored=32, endgame_score_margin=1; its version
# 0.2.0+fair.7b97a8f96953) plays the evaluation seeds 0-9999 with scripts/fair_games.py,
# the fresh deals 2000-9999 first. Two processes, one a core, append to one cache.
# Afterwards: python scripts/fair_games.py --cache "$CACHE" \
#     --parquet data/experiments/round-23/classic-strict-candidate.parquet
cd "$(dirname "$0")/../../.." || exit 1
TREE=${TREE:-${TMPDIR:-/tmp}/scoundrel-round-23}
CACHE=${CACHE:-${TMPDIR:-/tmp}/round-23-classic-strict.jsonl}
if [ ! -d "$TREE" ]; then
  git worktree add --detach "$TREE" HEAD &&
    git -C "$TREE" apply "$PWD/data/experiments/round-23/candidate.patch" || exit 1
fi
export PYTHONPATH="$TREE/src"
play() { python scripts/fair_games.py --seeds "$1" --cache "$CACHE"; }
(play 2000:6000 && play 0:1000) &
(play 6000:10000 && play 1000:2000) &
wait
