"""Serving the app with cheroot: a pip-installable, pure-Python, threaded WSGI server
that terminates TLS itself (Office loads add-ins only over HTTPS), on Linux and Windows.
"""

from __future__ import annotations

import logging
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from index_builder.errors import ConfigError

log = logging.getLogger(__name__)


def make_server(app: Callable[..., Any], host: str, port: int, threads: int = 8,
                cert: Path | None = None, key: Path | None = None,
                socket_timeout_s: float = 30.0) -> Any:
    """A cheroot server for ``app``; HTTPS when a certificate and key are given.

    ``socket_timeout_s`` bounds each socket read: a client that announces more body than
    it sends is answered 400 after this long instead of holding a thread.
    """
    from cheroot import wsgi

    server = wsgi.Server((host, port), app, numthreads=threads, server_name="precedent",
                         timeout=socket_timeout_s, shutdown_timeout=5)
    server.ConnectionClass = _connection_class()
    if cert and key:
        for path, variable in ((cert, "PRECEDENT_CERT_FILE"), (key, "PRECEDENT_KEY_FILE")):
            if not Path(path).is_file():
                raise ConfigError(f"{variable} / --{'cert' if path == cert else 'key'}: no file "
                                  f"at {path}.")
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))
    return server


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

    class ClosingConnection(HTTPConnection):  # type: ignore[misc]
        RequestHandlerClass = ClosingRequest

    return ClosingConnection


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(app: Callable[..., Any], host: str, port: int, threads: int = 8,
          cert: Path | None = None, key: Path | None = None) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get a few seconds to finish."""
    server = make_server(app, host, port, threads, cert, key)
    scheme = "https" if server.ssl_adapter else "http"
    if threading.current_thread() is threading.main_thread():
        # Stopping from inside the handler would wait on the loop it interrupted (a hang):
        # turn SIGTERM into the same unwinding as Ctrl-C instead.
        signal.signal(signal.SIGTERM, _interrupt)
        signal.signal(signal.SIGINT, _interrupt)  # also when started with SIGINT ignored (&)
    log.info("Serving on %s://%s:%d (%d threads)", scheme, host, port, threads)
    try:
        server.start()  # blocks
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        log.info("Server stopped.")
