"""What the benchmarks read off the machine while they run: load, CPU time, memory, TCP
counters, and the percentiles they report. Linux /proc; the machines are shared, so every
timing is printed beside the load it was measured under."""

from __future__ import annotations

import math
import os
import resource
from pathlib import Path
from typing import Any, Sequence


def load_average(digits: int = 2) -> str:
    """The 1, 5 and 15 minute load averages, e.g. ``"3.10 2.75 2.02"``."""
    return " ".join(f"{x:.{digits}f}" for x in os.getloadavg())


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (0 for no values): the value ``pct`` % of them are at or below."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, so figures survive a busy machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_sample(pid: int) -> dict[str, Any]:
    """Resident memory (MB), threads and open file descriptors of a process."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return {"rss_mb": round(int(status["VmRSS"].split()[0]) / 1024, 1),
            "threads": int(status["Threads"]),
            "open_files": len(os.listdir(f"/proc/{pid}/fd"))}


# Kernel TCP counters (Linux /proc/net/netstat and snmp) that explain a lost request:
# a full accept queue drops connections (ListenOverflows/ListenDrops: the client retries its
# SYN after 1 s, 3 s, 7 s ...), a socket closed with unread data answers with a reset
# (TCPAbortOnData), an established connection reset (EstabResets). Machine-wide: other
# processes on a shared machine add to them, so they are read beside the client's counts.
TCP_COUNTERS = {"TcpExt": ("ListenOverflows", "ListenDrops", "TCPAbortOnData", "TCPAbortOnClose",
                           "TCPAbortOnTimeout"),
                "Tcp": ("EstabResets", "AttemptFails")}


def tcp_counters() -> dict[str, int]:
    out: dict[str, int] = {}
    for name in ("/proc/net/netstat", "/proc/net/snmp"):
        try:
            lines = Path(name).read_text().splitlines()
        except OSError:
            continue
        for head, values in zip(lines[::2], lines[1::2]):
            prefix, keys = head.split(":", 1)
            wanted = TCP_COUNTERS.get(prefix, ())
            for key, value in zip(keys.split(), values.split(":", 1)[1].split()):
                if key in wanted:
                    out[key] = int(value)
    return out


def memory() -> dict[str, float]:
    """This process's resident memory now (all, anonymous, file-backed pages such as a
    memory-mapped index) and at its peak, MB."""
    fields = {"VmRSS:": "rss_mb", "RssAnon:": "rss_anon_mb", "RssFile:": "rss_file_mb"}
    out: dict[str, float] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key = line.split(":")[0] + ":"
            if key in fields:
                out[fields[key]] = round(int(line.split()[1]) / 1024)
    return {**out, "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
