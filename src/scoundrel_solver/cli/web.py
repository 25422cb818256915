"""``scoundrel-web``: serve the play, review and analysis pages (:mod:`scoundrel_solver.web`)
on uvicorn.

Needs the ``web`` extra; without it the command says which package is missing
and how to install it, in one line, before anything starts. Exit codes: 0 after
a clean stop (Ctrl-C, SIGTERM or SIGHUP once the site is up: the workers are shut
down first), 1 when the address cannot be listened on (a port in use: one line,
before any worker starts), 2 bad options or the extra missing, 130 (128 + the
signal for SIGTERM and SIGHUP) stopped while starting.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from ..runs.workers import MAX_QUEUE, MAX_WORKERS
from .options import (
    Parser,
    UsageError,
    add_version_option,
    finished,
    positive_float,
    positive_int,
    run_command,
    worker_count,
)

__all__ = ["main"]

PROG = "scoundrel-web"


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free port) to 65535."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"port {text} is not in 0 to 65535")
    return n


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (a cap that is a cap)."""
    x = positive_float(text)
    if x == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return x


def _queue(text: str) -> int:
    """An argparse type: how many calls may wait for workers, 1..MAX_QUEUE."""
    n = positive_int(text)
    if n > MAX_QUEUE:
        raise argparse.ArgumentTypeError(f"{n} is more than {MAX_QUEUE:,}")
    return n


def _parser() -> Parser:
    p = Parser(prog=PROG, description="Play, review and analyse Scoundrel in the browser.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=worker_count, default=min(os.cpu_count() or 1, MAX_WORKERS),
                   help="solver and agent worker processes (default: the core count; at most "
                   f"{MAX_WORKERS})")
    p.add_argument("--max-seconds", type=_seconds, default=10.0, metavar="S",
                   help="cap on each exact solve; a cut-short answer says 'not proven' "
                   "(default 10)")
    p.add_argument("--queue", type=_queue, default=None, metavar="N",
                   help="requests waiting for workers before answering 503 "
                   f"(default 32 per worker; at most {MAX_QUEUE:,})")
    p.add_argument("--request-seconds", type=_seconds, default=60.0, metavar="S",
                   help="the most time of the workers one request may take as a whole (a "
                   "review: every decision, the fair agent's game and the solve); past it "
                   "the work is stopped and the answer is 503 (default 60)")
    p.add_argument("--data", default="data", metavar="DIR",
                   help="folder with census.parquet and fair-games.parquet for the census "
                   "page (default ./data)")
    p.add_argument("--open", action="store_true", help="open the home page in a browser")
    p.add_argument("--access-log", action="store_true", help="log every request")
    add_version_option(p)
    return p


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.common import Settings
        from ..web.server import listen, server_options
    except ImportError as err:
        raise UsageError(f"the web extra is not installed ({err.name}): "
                         "pip install 'scoundrel-solver[web]'") from None
    settings = Settings(workers=args.workers, max_seconds=args.max_seconds,
                        queue=args.queue or min(32 * args.workers, MAX_QUEUE),
                        data_dir=Path(args.data), request_seconds=args.request_seconds)
    # Bound first: an address in use is one line and exit 1 before any worker starts.
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    url = f"http://{args.host}:{port}/"

    def ready() -> None:
        # the workers are warm; uvicorn binds the port right after this returns
        print(f"{PROG}: ready on {url}", flush=True)
        if args.open:
            webbrowser.open(url)

    app = create_app(settings, on_ready=ready)
    config = uvicorn.Config(app, host=args.host, port=port, access_log=args.access_log,
                            log_level="warning", lifespan="on", **server_options())
    if args.access_log:
        # the Config just set every uvicorn logger to "warning", and the access lines are
        # INFO: let the access logger alone through, one line per request
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    server = uvicorn.Server(config)
    print(f"{PROG}: starting {args.workers} workers (they compile the solver first)",
          file=sys.stderr, flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn shuts down on Ctrl-C, SIGTERM or SIGHUP, then raises the signal again for
        # its caller: once the site was up, that is the asked-for clean stop (exit 0);
        # before, the start was interrupted (run_command's one line, exit 130 or 128 + n).
        if not server.started:
            raise
    return 0 if server.started else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-web``: serve the site until stopped; returns the exit code."""
    return run_command(PROG, lambda: _serve(_parser().parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(finished(main()))
