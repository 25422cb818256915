"""Train a masked linear softmax policy with REINFORCE on the vector env (numpy only).

    python examples/train_policy_gradient.py [--minutes 3] [--envs 256]
        [--variant classic] [--csv curve.csv] [--eval-seeds 0:1000]

The policy scores each legal action with a linear function of a few features
of (observation, action) read off the observation slots (what the action
heals, costs or equips, whether it flees) and samples from the softmax over
the legal actions only: the mask is applied before the softmax, so it never
picks an illegal action. REINFORCE: the return of an episode is its final
score (the env's rewards are the score, paid at the end), minus a running
mean baseline, scaled by a running standard deviation; each finished episode
adds ``advantage * sum_t grad log pi(a_t | s_t)`` to the update.

Every ``--log-every`` steps of all games together a line goes to stderr and,
with ``--csv FILE``, to that CSV file: env steps so far, episodes finished,
and the mean score and win rate of the episodes finished since the last line.
By default nothing is written to disk; the committed curve
``data/pg-learning-curve.csv`` is made with ``--csv data/pg-learning-curve.csv``.
At the end the greedy policy (highest score action) plays the seeds
``--eval-seeds`` once each.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time

import numpy as np
import numpy.typing as npt

import scoundrel_core as sc
from scoundrel_core.env import ScoundrelVectorEnv
from scoundrel_core.env.observation import FLED, HEALTH, LAST_KILL, POTION_USED, ROOM, WEAPON
from scoundrel_solver.provenance import csv_header, script_provenance

FloatArray = npt.NDArray[np.float64]

# Per action: kind and value of its card (flee: neither) and whether it uses the weapon.
KIND = np.array([int(sc.card(a >> 1).kind) if a < 88 else -1 for a in range(sc.NUM_ACTIONS)])
VALUE = np.array([sc.card(a >> 1).value if a < 88 else 0 for a in range(sc.NUM_ACTIONS)], float)
WITH_WEAPON = np.array([a < 88 and a & 1 == 1 for a in range(sc.NUM_ACTIONS)])
IS_FLEE = np.arange(sc.NUM_ACTIONS) == sc.NUM_ACTIONS - 1
IS_MONSTER, IS_WEAPON, IS_POTION = (np.equal(KIND, int(k)) for k in sc.Kind)

FEATURES = (
    "flee",
    "flee after flee",
    "potion heals",
    "potion wasted",
    "weapon value",
    "weapon gain",
    "barehanded damage",
    "weapon damage",
    "weapon wear",
    "deadly",
    "health x damage",
    "bias monster",
    "flee x room damage",
    "flee x health",
)


def features(obs: npt.NDArray[np.int8]) -> FloatArray:
    """(N, NUM_ACTIONS, F) features of every action in every game."""
    o = obs.astype(np.float64)
    health = o[:, HEALTH, None]
    weapon = o[:, WEAPON, None]
    last = o[:, LAST_KILL, None]
    used = o[:, POTION_USED, None]
    fled = o[:, FLED, None]
    v = VALUE[None, :]
    damage = np.where(
        IS_MONSTER, np.where(WITH_WEAPON, np.maximum(0.0, v - weapon), v), 0.0
    )
    heal = np.where(IS_POTION, np.minimum(v, 20.0 - health) * (1 - used), 0.0)
    # a used weapon loses reach: from its last kill (or 15 if unused) down to this monster
    reach = np.where(last > 0, last, 15.0)
    wear = np.where(IS_MONSTER & WITH_WEAPON, reach - v, 0.0)
    shape = damage.shape
    # what the room's monsters would cost barehanded (the alternative to fleeing)
    room = obs[:, ROOM].astype(np.int64) - 1
    room_damage = np.where(
        room >= 0, np.where(IS_MONSTER[2 * room.clip(0)], VALUE[2 * room.clip(0)], 0.0), 0.0
    ).sum(axis=1, keepdims=True)
    columns = [
        IS_FLEE + 0 * health,
        IS_FLEE * fled,
        heal / 10,
        IS_POTION * used,
        IS_WEAPON * v / 10 + 0 * health,
        IS_WEAPON * (v - weapon) / 10,
        np.where(IS_MONSTER & ~WITH_WEAPON, v, 0.0) / 14 + 0 * health,
        np.where(IS_MONSTER & WITH_WEAPON, damage, 0.0) / 14,
        wear / 14,
        (damage >= health).astype(float),
        damage * (20.0 - health) / 280,
        IS_MONSTER + 0 * health,
        IS_FLEE * room_damage / 40,
        IS_FLEE * health / 20,
    ]
    f = np.stack([np.broadcast_to(c, shape) for c in columns], axis=-1).astype(np.float64)
    return f


def policy(theta: FloatArray, feats: FloatArray, mask: npt.NDArray[np.bool_]) -> FloatArray:
    """Softmax over the legal actions of each game: (N, NUM_ACTIONS) probabilities."""
    logits = feats @ theta
    logits = np.where(mask, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(logits - top)
    total = e.sum(axis=1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def sample(probs: FloatArray, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    cum = probs.cumsum(axis=1)
    u = rng.random(len(probs))[:, None] * cum[:, -1:]
    return np.minimum((cum <= u).sum(axis=1), sc.NUM_ACTIONS - 1).astype(np.int64)


def train(args: argparse.Namespace) -> FloatArray:
    rng = np.random.default_rng(args.seed)
    envs = ScoundrelVectorEnv(args.envs, args.variant, max_episode_steps=200)
    theta = np.zeros(len(FEATURES))
    grad_sum = np.zeros((args.envs, len(FEATURES)))  # sum_t grad log pi, per running game
    moment = np.zeros_like(theta)
    second = np.zeros_like(theta)
    mean, var, adam_t = -150.0, 50.0**2, 0
    obs, info = envs.reset(seed=args.seed)
    ended = np.zeros(args.envs, np.bool_)
    steps = episodes = 0
    window: list[float] = []
    start = time.perf_counter()
    with open(args.csv or os.devnull, "w", newline="") as f:
        f.write(csv_header(args.stamp))  # "# key: value" lines: command, commit, date
        out = csv.writer(f)
        out.writerow(["env_steps", "episodes", "seconds", "mean_score", "win_rate", "games"])
        next_log = args.log_every
        # Stop at the time budget, or at --max-steps (a fixed amount of work, for tests).
        while time.perf_counter() - start < 60 * args.minutes and (
            args.max_steps is None or steps < args.max_steps
        ):
            mask = info["action_mask"]
            feats = features(obs)
            probs = policy(theta, feats, mask)
            actions = sample(probs, rng)
            live = ~ended
            rows = np.arange(args.envs)
            # grad log pi(a|s) = phi(s, a) - E_pi[phi(s, .)]
            chosen = feats[rows, actions]
            expected = np.einsum("na,naf->nf", probs, feats)
            grad_sum[live] += (chosen - expected)[live]
            obs, reward, terminated, truncated, info = envs.step(actions)
            steps += int(live.sum())
            done = (terminated | truncated) & live
            if done.any():
                scores = reward[done]
                for g in scores:
                    mean += 0.01 * (g - mean)
                    var += 0.01 * ((g - mean) ** 2 - var)
                adv = (scores - mean) / np.sqrt(var + 1e-8)
                grad = (adv[:, None] * grad_sum[done]).mean(axis=0)
                grad_sum[done] = 0.0
                # Adam ascent on the expected score
                adam_t += 1
                moment = 0.9 * moment + 0.1 * grad
                second = 0.999 * second + 0.001 * grad**2
                mhat = moment / (1 - 0.9**adam_t)
                vhat = second / (1 - 0.999**adam_t)
                theta += args.lr * mhat / (np.sqrt(vhat) + 1e-8)
                episodes += len(scores)
                window.extend(scores.tolist())
            ended = terminated | truncated
            if steps >= next_log and window:
                w = np.array(window)
                out.writerow([
                    steps, episodes, round(time.perf_counter() - start, 2),
                    round(float(w.mean()), 3), round(float((w > 0).mean()), 4), len(w),
                ])
                f.flush()
                print(
                    f"steps {steps:>10,}  episodes {episodes:>8,}  mean score {w.mean():8.2f}"
                    f"  win rate {100 * (w > 0).mean():5.2f}%",
                    file=sys.stderr,
                )
                window = []
                next_log += args.log_every
    return theta


def evaluate(theta: FloatArray, variant: str, seeds: range) -> tuple[float, float]:
    """Mean score and win rate of the greedy policy on each seed once."""
    envs = ScoundrelVectorEnv(len(seeds), variant, max_episode_steps=200)
    obs, info = envs.reset(seed=seeds.start)
    score = np.zeros(len(seeds))
    finished = np.zeros(len(seeds), np.bool_)
    while not finished.all():
        logits = np.where(info["action_mask"], features(obs) @ theta, -np.inf)
        actions = np.where(info["action_mask"].any(axis=1), logits.argmax(axis=1), 0)
        obs, reward, terminated, truncated, info = envs.step(actions)
        score += np.where(finished, 0.0, reward)
        finished |= terminated | truncated
    return float(score.mean()), float((score > 0).mean())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--minutes", type=float, default=3.0)
    p.add_argument("--max-steps", type=int, default=None,
                   help="stop after this many environment steps (default: only the time budget)")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--variant", default="classic")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1_000_000)
    p.add_argument("--log-every", type=int, default=200_000)
    p.add_argument("--csv", default=None, metavar="FILE",
                   help="write the learning curve to this CSV file (default: none)")
    p.add_argument("--eval-seeds", default="0:1000")
    args = p.parse_args(argv)
    args.stamp = script_provenance(__file__, argv)
    if args.csv:
        os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
    theta = train(args)
    print("weights:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, theta, strict=True)))
    a, _, b = args.eval_seeds.partition(":")
    mean, wins = evaluate(theta, args.variant, range(int(a), int(b)))
    print(f"greedy policy on seeds {args.eval_seeds} ({args.variant}): mean score {mean:.2f},"
          f" win rate {100 * wins:.2f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
