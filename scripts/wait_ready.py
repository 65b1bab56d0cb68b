"""Wait until a starting server answers /api/v1/health with every worker serving.

    python scripts/wait_ready.py https://localhost:8443 --pid 1234 [--timeout 900]

The quickstart printed "Serving ... Check: curl .../health" before the workers had loaded
the index and the model, so the first curl (and Word) met a refused connection. It now runs the
server in the background, waits here, and prints its banner only when this exits 0.

Exit 0: every worker answers (``server.serving == server.processes``), or sign-in is on and
/health answers 401 (a worker answered). 1: the server process ``--pid`` ended first (its log
says why). 2: not ready within ``--timeout`` seconds. The certificate is not checked: this
asks whether the server is up, not whether it is trusted (that is the browser's question).
"""

from __future__ import annotations

import argparse
import json
import os
import ssl
import sys
import time
import urllib.error
import urllib.request


def ready(base_url: str) -> bool:
    """Whether the server at ``base_url`` answers /health with all its workers serving."""
    context = ssl._create_unverified_context()  # noqa: S323 -- liveness only, see the docstring
    try:
        with urllib.request.urlopen(f"{base_url}/api/v1/health", timeout=5, context=context) as answer:
            health = json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code == 401  # sign-in is on: a worker answered, and that is all we can see
    except (OSError, ValueError):
        return False
    server = health.get("server") or {}
    return int(server.get("serving") or 0) >= int(server.get("processes") or 1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a child that exited but was not yet reaped is a zombie: gone for our purpose
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def wait(base_url: str, pid: int | None, timeout_s: float, poll_s: float = 1.0) -> int:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if ready(base_url):
            return 0
        if pid is not None and not alive(pid):
            return 1
        time.sleep(poll_s)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the server's base address, e.g. https://localhost:8443")
    parser.add_argument("--pid", type=int, help="the server's process id: stop waiting if it ends")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds to wait (default 900)")
    args = parser.parse_args(argv)
    code = wait(args.url.rstrip("/"), args.pid, args.timeout)
    if code == 2:
        print(f"The server at {args.url} did not answer /api/v1/health within {args.timeout:.0f} s.",
              file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
