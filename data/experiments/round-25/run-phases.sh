#!/bin/sh
# Round twenty-five's phase arms (resumable): the one-ply policy and the fair agent,
# alone and switching at 6, 12 or 24 unseen cards, on the policy's dev deals
# 1900000-1900499 (experiments/policy_phases.py), one file an arm, two processes.
# A shell without job control starts background commands with SIGINT ignored, so a
# Ctrl-C is passed on to them as SIGTERM (each game is written whole as it ends).
cd "$(dirname "$0")/../../.." || exit 1
out=data/experiments/round-25
arms() {
    for arm in "$@"; do
        python experiments/policy_phases.py --arm "$arm" --seeds 1900000:1900500 \
            --out "$out/phases-$(echo "$arm" | tr '>' '-').jsonl" || exit $?
    done
}
arms fair policy 'policy>12' 'policy>24' 'policy>6' &
a=$!
arms 'fair>12' 'fair>24' 'fair>6' &
b=$!
trap 'pkill -TERM -P $a; pkill -TERM -P $b; kill $a $b 2>/dev/null; exit 130' INT TERM
wait
