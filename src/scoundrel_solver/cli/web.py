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
DEFAULT_DATABASE = Path("~/.local/state/scoundrel-web/ranked.sqlite3")
"""The ranked store when ``--database`` is not given (its folder is made if missing)."""
DEFAULT_LIMIT = "20/second;600/minute"
"""The web package's ``ratelimit.DEFAULT_LIMIT`` (here without importing the web extra)."""
START_LIMIT = "20/hour"
"""The web package's ``ratelimit.START_LIMIT``."""


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


def _rate(text: str) -> str | None:
    """An argparse type: a rate limit (``20/second;600/minute``, read by the ``limits``
    library once the web extra is loaded) or ``none``."""
    return None if text.strip().lower() == "none" else text


def _numba_cache() -> None:
    """NUMBA_CACHE_DIR, when set, must be a folder the workers can write their compiled
    kernels to (numba's own error would come later, from a worker, as a traceback)."""
    where = os.environ.get("NUMBA_CACHE_DIR")
    if not where:
        return
    path = Path(where)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"NUMBA_CACHE_DIR {where}: cannot make the folder "
                         f"({err.strerror})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"NUMBA_CACHE_DIR {where}: the folder is not writable")


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
    p.add_argument("--database", default=str(DEFAULT_DATABASE), metavar="PATH|URL",
                   help="the ranked daily's store: a SQLite file, or a postgresql:// URL that "
                   f"every server process shares (default {DEFAULT_DATABASE})")
    p.add_argument("--secret-file", default=None, metavar="FILE",
                   help="the secret the ranked deals come from, made if missing (default: "
                   "beside a SQLite store; required with a postgresql:// store)")
    p.add_argument("--rate-limit", type=_rate, default=DEFAULT_LIMIT, metavar="LIMITS",
                   help="requests one client may make, answered 429 with Retry-After beyond "
                   f"it ('none' for no limit; default {DEFAULT_LIMIT})")
    p.add_argument("--ranked-start-limit", type=_rate, default=START_LIMIT, metavar="LIMITS",
                   help="ranked games one client may start, each a new row in the store "
                   f"('none' for no limit; default {START_LIMIT})")
    p.add_argument("--rate-limit-storage", default="memory://", metavar="URI",
                   help="where the counts live (default memory://, each process its own; "
                   "redis://host for one count across processes)")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help="proxies trusted to set X-Forwarded-For and -Proto (comma-separated "
                   "addresses or *; default: uvicorn's, 127.0.0.1)")
    p.add_argument("--open", action="store_true", help="open the home page in a browser")
    p.add_argument("--access-log", action="store_true", help="log every request")
    add_version_option(p)
    return p


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.common import Settings
        from ..web.ranked import SecretError
        from ..web.ratelimit import check_limit
        from ..web.server import listen, server_options
        from ..web.store import StoreError
    except ImportError as err:
        raise UsageError(f"the web extra is not installed ({err.name}): "
                         "pip install 'scoundrel-solver[web]'") from None
    for option, value in (("--rate-limit", args.rate_limit),
                          ("--ranked-start-limit", args.ranked_start_limit)):
        try:
            if value is not None:
                check_limit(value)
        except ValueError as err:
            raise UsageError(f"argument {option}: {err}") from None
    _numba_cache()
    database = args.database
    if database == str(DEFAULT_DATABASE):
        # the default's folder is ours to make; a folder given by the user must exist
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    settings = Settings(workers=args.workers, max_seconds=args.max_seconds,
                        queue=args.queue or min(32 * args.workers, MAX_QUEUE),
                        data_dir=Path(args.data), request_seconds=args.request_seconds,
                        database=database,
                        secret_file=None if args.secret_file is None else Path(args.secret_file),
                        rate_limit=args.rate_limit, rate_limit_storage=args.rate_limit_storage,
                        ranked_start_limit=args.ranked_start_limit)
    # Bound first: an address in use is one line and exit 1 before any worker starts.
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    url = f"http://{args.host}:{port}/"

    def ready() -> None:
        # the workers are warm; uvicorn binds the port right after this returns
        print(f"{PROG}: ready on {url}", flush=True)
        if args.open:
            webbrowser.open(url)

    try:
        app = create_app(settings, on_ready=ready)
    except (StoreError, SecretError) as err:
        sock.close()
        raise UsageError(str(err)) from None
    # proxy headers are read only from --forwarded-allow-ips (uvicorn's default: 127.0.0.1,
    # or $FORWARDED_ALLOW_IPS): the client's address is what the rate limit counts by
    config = uvicorn.Config(app, host=args.host, port=port, access_log=args.access_log,
                            log_level="warning", lifespan="on", proxy_headers=True,
                            forwarded_allow_ips=args.forwarded_allow_ips, **server_options())
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
