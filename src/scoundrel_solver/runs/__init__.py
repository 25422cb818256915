"""Runs over many deals and the files they leave: what a long run writes, reads back and adds up.

- :mod:`.seeds`: ranges of deal seeds ``A:B``, kept lazy (a range may span all 2**64 seeds);
- :mod:`.jsonl`: the JSON-lines files resumable runs append to (stop at any moment,
  resume, several writers at once);
- :mod:`.result_rows`: the one check of a solver result read back from a file;
- :mod:`.batch`: solving a range of seeds into a results file (``scoundrel-solve --seeds``);
- :mod:`.eval_rows`: the rows of ``scoundrel-eval --out``, one game per line;
- :mod:`.summary`: what many games add up to, with the one Wilson interval of a win rate.

The commands in :mod:`scoundrel_solver.cli` and the census build on these. Nothing is
imported here, so a module needing only :mod:`.jsonl` or :mod:`.seeds` does not load the
exact search that :mod:`.batch` runs.
"""
