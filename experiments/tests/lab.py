"""What the experiments' tests share: an experiment script loaded as a module, and a
small deal played at random (the experiments are scripts, not a package)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import scoundrel_core as sc
from scoundrel_core import FULL_DECK, State
from scoundrel_core.info import InfoState, observe

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "experiments"


def load_experiment(name: str) -> ModuleType:
    """``experiments/<name>.py`` imported as a module, registered under its name (as an
    import is, so what looks a module up by name, such as dataclasses, finds it)."""
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def walk(seed: int, n_cards: int, steps: int) -> tuple[State, InfoState]:
    """A small random deal played ``steps`` random moves on (flees included)."""
    rng = random.Random(seed)
    s = sc.new_game(deck=rng.sample(FULL_DECK, n_cards), partial=True)
    info = InfoState.initial(s)
    for _ in range(steps):
        if s.is_over:
            break
        a = rng.choice(sc.legal_actions(s))
        s2 = sc.apply(s, a)
        info = observe(info, a, s2)
        s = s2
    return s, info
