"""A learned value of an information state: data from the agent's own play, a model, its use.

- :mod:`.features`: what a player sees at a decision, as named numbers (the data's
  columns and the model's inputs, from one definition).
- :mod:`.selfplay`: the fair agent plays seeded deals and every decision becomes a row
  (what it saw, every action's shown values, the game's outcome), appended to a
  JSON-lines file as each game ends; :func:`.selfplay.to_parquet` flattens it.
- :mod:`.calibration`: how well shown chances of winning match the games' outcomes
  (expected calibration error, overall and per phase of the game).
- :mod:`.model`: the learned value (a small network over the features), its JSON file,
  and its inference: a numpy twin and a numba kernel behind one checked facade.
- :mod:`.train`: fitting the model with scikit-learn (the ``train`` extra).

The command is ``scoundrel-value`` (:mod:`scoundrel_solver.cli.value`).
"""
