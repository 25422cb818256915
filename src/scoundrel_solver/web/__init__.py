"""scoundrel-web: play, review and analyse Scoundrel in the browser.

The game, hints, review and their words are the coach's
(:mod:`scoundrel_solver.coach`); here is only the web's side of them:

- :mod:`.game`: the deal and line a request names, replayed and checked;
- :mod:`.view`: what the player may see of a position;
- :mod:`.tasks` and :mod:`.pool`: solver and agent work in worker processes;
- :mod:`.api`, :mod:`.pages`: the JSON endpoints and the HTML pages;
- :mod:`.learn`: the how-to-play page's rules (``docs/rules.md``) and tutorial;
- :mod:`.ranked` and :mod:`.store`: the ranked daily (a secret deal, played on the
  server) and its store of games and leaderboards (SQLite or PostgreSQL);
- :mod:`.ratelimit`: per-client rate limits;
- :mod:`.app`: the Starlette app (limits, CSP, errors), which the command
  ``scoundrel-web`` (:mod:`scoundrel_solver.cli.web`) serves.

Needs the ``web`` extra (starlette, uvicorn, jinja2, markdown, sqlalchemy, slowapi).
"""
