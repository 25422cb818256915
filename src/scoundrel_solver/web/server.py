"""The HTTP server's bounds: how large a request's head may be, how long a client may take
to send it, how many connections are served at once, and the listening socket.

uvicorn is run with its h11 protocol, which bounds the bytes it holds of an
unfinished request head (:data:`MAX_HEAD_BYTES`; past it the client gets
uvicorn's own 400 and the connection is closed), and with a subclass that
closes a connection whose request head is not complete :data:`HEAD_SECONDS`
after its first byte (or after the connection opened), so a client trickling
headers cannot hold a connection. Idle keep-alive connections close after
:data:`KEEP_ALIVE_SECONDS`; beyond :data:`MAX_CONNECTIONS` open connections,
uvicorn answers 503.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEAD_SECONDS", "KEEP_ALIVE_SECONDS", "MAX_CONNECTIONS", "MAX_HEAD_BYTES",
           "TimedHeadProtocol", "listen", "server_options"]

MAX_HEAD_BYTES: Final = 32 * 1024
"""Bytes of a request line and headers held while they arrive (a query is at most 8 KiB)."""
HEAD_SECONDS: Final = 10.0
"""Seconds a client has to send a whole request head, from its connection or its first byte."""
KEEP_ALIVE_SECONDS: Final = 5
"""Seconds an idle connection stays open after a response."""
MAX_CONNECTIONS: Final = 500
"""Connections (and requests) served at once; past it, uvicorn answers 503. Below the
usual limit of 1,024 open files, which the workers' pipes share."""


class TimedHeadProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request head."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: the clock of its first request head starts now."""
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()  # no answer: the client is not reading one anyway

    def data_received(self, data: bytes) -> None:
        """Bytes in: a head still incomplete keeps (or starts) its clock; a whole one stops it."""
        super().data_received(data)
        # Waiting for a head (IDLE) with bytes of it in hand: the head's clock runs.
        if self.conn.their_state is h11.IDLE:
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: no clock left running for it."""
        self._disarm()
        super().connection_lost(exc)


def server_options() -> dict[str, Any]:
    """The uvicorn ``Config`` options that bound what one client may hold."""
    return {"http": TimedHeadProtocol, "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
            "timeout_keep_alive": KEEP_ALIVE_SECONDS, "limit_concurrency": MAX_CONNECTIONS}


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, made before anything else starts, so that an
    address in use is told at once (an OSError naming the address)."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as err:
        raise OSError(err.errno, f"cannot resolve host {host!r}: {err.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        why = (err.strerror or str(err)).lower()
        raise OSError(err.errno, f"cannot listen on {host}:{port}: {why}") from None
    return sock
