"""The server under load and faults: simulated lawyers, lost connections, crashes, soaks, latency, code-tree A/Bs."""
