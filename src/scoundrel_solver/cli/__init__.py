"""The command-line programs, all in one place.

- ``entry``: the console-script entry points (made safe for closed pipes).
- ``options``: the options every command shares (the deal options
  ``--seed/--deck/--daily/--state/--seeds``, the variant, checked values) and
  the one error style: exit 2 with one line on bad input, exit 130 with one
  line on Ctrl-C, never a traceback.
- ``render``: what the commands print, and their progress bars (tqdm, stderr).
- One module per command: ``solve`` (``scoundrel-solve`` for one deal), with
  its branches ``batch`` (``--seeds``) and ``fair`` (``--fair``/``--advise``);
  ``eval`` (``scoundrel-eval``); ``play`` (``scoundrel-play``, over the library
  package ``scoundrel_solver.play``); ``census`` (``scoundrel-census``); ``web``
  (``scoundrel-web``, serving the app of ``scoundrel_solver.web``).

Library modules outside this package never import argparse.
"""
