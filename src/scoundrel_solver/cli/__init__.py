"""The command-line programs, all in one place.

``entry`` holds the console-script entry points (made safe for closed pipes);
each command has one module: ``solve`` (``scoundrel-solve``, with ``fair`` for
its ``--fair``/``--advise`` branch), ``eval`` (``scoundrel-eval``) and ``play``
(``scoundrel-play``, over the library package ``scoundrel_solver.play``). Library
modules outside this package never import argparse.
"""
