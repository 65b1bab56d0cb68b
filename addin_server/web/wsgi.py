"""Serving the app with cheroot: a pip-installable, pure-Python, threaded WSGI server
that terminates TLS itself (Office loads add-ins only over HTTPS), on Linux and Windows.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any, Callable

from index_builder.errors import ConfigError

log = logging.getLogger(__name__)


def make_server(app: Callable[..., Any], host: str, port: int, threads: int = 8,
                cert: Path | None = None, key: Path | None = None,
                socket_timeout_s: float = 30.0, backlog: int = 256,
                keep_alive_limit: int = 500, listener: socket.socket | None = None,
                balance: Any = None) -> Any:
    """A cheroot server for ``app``; HTTPS when a certificate and key are given.

    ``socket_timeout_s`` bounds each socket read: a client that announces more body than
    it sends is answered 400 after this long instead of holding a thread; an idle
    keep-alive connection is closed after it too.

    ``backlog`` and ``keep_alive_limit`` replace cheroot's defaults of 5 and 10, sized for
    a handful of browsers: with 20 panes or more the server answered most requests with
    "Connection: close" (over 10 idle connections), every pane reconnected for its next
    request, and the reconnects overflowed a listen queue of 5 while the request threads
    held the interpreter: the kernel dropped them, the pane waited 1 s, 3 s, 7 s for its
    retried connection, or gave up (benchmarks/results/connection-faults/README.md).

    ``listener``: a socket already bound and listening, shared with other worker processes
    (web/prefork.py); the server accepts from it instead of binding its own, and ``balance``
    (prefork.Balance) says when to leave a new connection to a less loaded worker.
    """
    from cheroot import wsgi

    kind = wsgi.Server if listener is None else _shared_listener_server(listener, balance)
    server = kind((host, port), app, numthreads=threads, server_name="precedent",
                  timeout=socket_timeout_s, shutdown_timeout=5, request_queue_size=backlog)
    server.keep_alive_conn_limit = keep_alive_limit
    server.ConnectionClass = _connection_class()
    if cert and key:
        for path, variable in ((cert, "PRECEDENT_CERT_FILE"), (key, "PRECEDENT_KEY_FILE")):
            if not Path(path).is_file():
                raise ConfigError(f"{variable} / --{'cert' if path == cert else 'key'}: no file "
                                  f"at {path}.")
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))
    return server


def connection_options(server: Any) -> dict[str, Any]:
    """make_server's connection keywords from ``ServerSettings``."""
    return {"socket_timeout_s": server.idle_timeout_s, "backlog": server.backlog,
            "keep_alive_limit": server.keep_alive_limit}


def _shared_listener_server(listener: socket.socket, balance: Any) -> type:
    """cheroot's server, accepting from a socket the parent bound (every worker holds it)."""
    from cheroot import wsgi

    class SharedListenerServer(wsgi.Server):  # type: ignore[misc]
        def bind(self, family: int, type: int, proto: int = 0) -> socket.socket:
            self.socket = listener
            self.bind_addr = listener.getsockname()[:2]
            return listener

        def prepare(self) -> None:
            super().prepare()  # "binds" (above), listens again (harmless), starts the threads
            # Every worker's selector wakes for a new connection and one accept wins: the
            # others must find nothing at once, not wait out cheroot's 1 s accept timeout
            # with all their keep-alive connections stalled behind it.
            listener.settimeout(0)
            self.balance = balance
            if balance is not None:
                accept = self._connections._from_server_socket

                def balanced_accept(sock: socket.socket) -> Any:
                    if balance.should_yield():
                        time.sleep(YIELD_S)
                        return None
                    return accept(sock)

                self._connections._from_server_socket = balanced_accept

        def stop(self) -> None:
            # cheroot wakes its accept by connecting to its own port: another worker would
            # accept that. This worker's selector stops without it; its copy is closed.
            own, self.socket = self.socket, None
            super().stop()
            if own is not None:
                own.close()

    return SharedListenerServer


def _connection_class() -> type:
    """cheroot's connection, whose requests honour the app's "Connection: close".

    Without it cheroot keeps the connection and first drains the rest of a declared body:
    after a body that never arrived, that read fails and the client gets no answer at all.
    """
    from cheroot.server import HTTPConnection, HTTPRequest

    class ClosingRequest(HTTPRequest):  # type: ignore[misc]
        def send_headers(self) -> None:
            if any(name.lower() == b"connection" and value.lower() == b"close"
                   for name, value in self.outheaders):
                self.close_connection = True
            super().send_headers()

        def respond(self) -> None:
            super().respond()
            if self.close_connection:
                _drain_unread_body(self)

    class ClosingConnection(HTTPConnection):  # type: ignore[misc]
        RequestHandlerClass = ClosingRequest

        def __init__(self, server: Any, sock: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(server, sock, *args, **kwargs)
            # Counted while open, for the workers' balance (web/prefork.py).
            self._balance = getattr(server, "balance", None)
            if self._balance is not None:
                self._balance.opened()

        def close(self) -> None:
            counted, self._balance = self._balance, None
            try:
                super().close()
            finally:
                if counted is not None:
                    counted.closed()

    return ClosingConnection


YIELD_S = 0.001  # a worker leaving a new connection to a less loaded sibling looks again after this

# Lingering close: what the server reads and throws away of a body it answered without
# reading, before it closes the connection.
DRAIN_MAX_BYTES = 64 * 1024 * 1024
DRAIN_MAX_S = 5.0


def _drain_unread_body(request: Any) -> None:
    """Read (and discard) the rest of a request body the app did not read, then let cheroot
    close. Closing a socket with unread bytes makes the kernel answer with a reset, which
    destroys the response still in flight: a 2 MB paste refused with 413, or any request
    answered early on a connection closed for lack of keep-alive room, reached the client as
    a connection reset instead of its answer (cheroot has no lingering close of its own).
    Bounded in bytes and seconds, so a client that never finishes cannot hold the thread.
    """
    rfile = getattr(request, "rfile", None)
    if rfile is None or getattr(rfile, "remaining", 1) == 0:
        return
    deadline = time.monotonic() + DRAIN_MAX_S
    drained = 0
    try:
        request.conn.socket.settimeout(1.0)
        while drained < DRAIN_MAX_BYTES and time.monotonic() < deadline:
            data = rfile.read(64 * 1024)
            if not data:
                break
            drained += len(data)
    except Exception as exc:  # a client gone, a malformed chunk, a timeout: just close
        log.debug("Stopped draining an unread request body: %s", type(exc).__name__)
    log.debug("Drained %d unread request body bytes before closing", drained)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(app: Callable[..., Any], host: str, port: int, threads: int = 8,
          cert: Path | None = None, key: Path | None = None,
          on_ready: Callable[[], None] | None = None, **connections: Any) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get a few seconds to finish.

    ``connections``: make_server's socket_timeout_s, backlog, keep_alive_limit and listener;
    ``on_ready``: called once the server accepts connections (a worker tells its parent)."""
    server = make_server(app, host, port, threads, cert, key, **connections)
    scheme = "https" if server.ssl_adapter else "http"
    if threading.current_thread() is threading.main_thread():
        # Stopping from inside the handler would wait on the loop it interrupted (a hang):
        # turn SIGTERM into the same unwinding as Ctrl-C instead.
        signal.signal(signal.SIGTERM, _interrupt)
        signal.signal(signal.SIGINT, _interrupt)  # also when started with SIGINT ignored (&)
    try:
        server.prepare()
        log.info("Serving on %s://%s:%d (%d threads%s)", scheme, host, server.bind_addr[1],
                 threads, f", pid {os.getpid()}" if connections.get("listener") else "")
        if on_ready is not None:
            on_ready()
        server.serve()  # blocks
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        log.info("Server stopped.")
