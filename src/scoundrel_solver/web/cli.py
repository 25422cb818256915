"""``scoundrel-web``: serve the play, review and analysis pages on uvicorn.

Exit codes: 0 after a clean stop (Ctrl-C or SIGTERM), 2 bad options.
"""

from __future__ import annotations

import argparse
import os
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from .. import __version__

__all__ = ["main"]

PROG = "scoundrel-web"


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return n


def _positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x > 0 or x == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return x


def _port(text: str) -> int:
    n = _positive_int(text) if text != "0" else 0
    if n > 65535:
        raise argparse.ArgumentTypeError(f"port {text} is above 65535")
    return n


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG, description="Play, review and analyse Scoundrel in the browser.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=_positive_int, default=os.cpu_count() or 1,
                   help="solver and agent worker processes (default: the core count)")
    p.add_argument("--max-seconds", type=_positive_float, default=10.0, metavar="S",
                   help="cap on each exact solve; a cut-short answer says 'not proven' "
                   "(default 10)")
    p.add_argument("--queue", type=_positive_int, default=None, metavar="N",
                   help="requests waiting for workers before answering 503 "
                   "(default 32 per worker)")
    p.add_argument("--data", default="data", metavar="DIR",
                   help="folder with census.parquet and fair-games.parquet for the census "
                   "page (default ./data)")
    p.add_argument("--open", action="store_true", help="open the home page in a browser")
    p.add_argument("--access-log", action="store_true", help="log every request")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``scoundrel-web``: serve the site until stopped; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        import uvicorn

        from .app import create_app
        from .common import Settings
    except ImportError as err:
        print(f"{PROG}: the web extra is not installed ({err.name}): "
              "pip install 'scoundrel[web]'", file=sys.stderr)
        return 2
    settings = Settings(workers=args.workers, max_seconds=args.max_seconds,
                        queue=args.queue or 32 * args.workers, data_dir=Path(args.data))
    url = f"http://{args.host}:{args.port}/"

    def ready() -> None:
        # the workers are warm; uvicorn binds the port right after this returns
        print(f"{PROG}: ready on {url}", flush=True)
        if args.open:
            webbrowser.open(url)

    app = create_app(settings, on_ready=ready)
    config = uvicorn.Config(app, host=args.host, port=args.port, access_log=args.access_log,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    print(f"{PROG}: starting {args.workers} workers (they compile the solver first)",
          file=sys.stderr, flush=True)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":
    raise SystemExit(main())
