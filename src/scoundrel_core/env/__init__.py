"""Scoundrel as a gymnasium environment (the ``rl`` extra: ``pip install scoundrel-solver[rl]``).

Importing this module registers ``Scoundrel-v0``::

    import gymnasium
    env = gymnasium.make("scoundrel_core.env:Scoundrel-v0", variant="classic",
                         weapon_rule="strict", render_mode=None)
    envs = gymnasium.make_vec("scoundrel_core.env:Scoundrel-v0", num_envs=4096,
                              vectorization_mode="vector_entry_point")

- :class:`ScoundrelEnv` plays one game over the library's rules;
- :class:`ScoundrelVectorEnv` plays many games in integer arrays, stepped
  together by a numba kernel, with the same observations, rewards and masks;
- :mod:`.observation` documents the 86 slots of an observation and converts
  between observations and information states.

This package is the only place that imports gymnasium; ``import
scoundrel_core`` does not import it.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from .observation import OBS_SIZE, WORST_SCORE, decode, encode
from .scalar import ScoundrelEnv
from .vector import (
    MAX_LEGAL,
    ScoundrelVectorEnv,
    random_legal_actions,
    random_listed_actions,
)

__all__ = [
    "ENV_ID",
    "MAX_LEGAL",
    "OBS_SIZE",
    "WORST_SCORE",
    "ScoundrelEnv",
    "ScoundrelVectorEnv",
    "decode",
    "encode",
    "random_legal_actions",
    "random_listed_actions",
]

ENV_ID = "Scoundrel-v0"
"""The gymnasium id this package registers (``scoundrel_core.env:Scoundrel-v0`` in
``gymnasium.make``).
"""

if ENV_ID not in registry:
    register(
        id=ENV_ID,
        entry_point="scoundrel_core.env.scalar:ScoundrelEnv",
        vector_entry_point="scoundrel_core.env.vector:ScoundrelVectorEnv",
    )
