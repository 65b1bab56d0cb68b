"""What the benchmarks share: the data they read (data.py), the indexes they build or open
(indexes.py), the loopback servers they drive (servers.py) and what they read off the machine
while they run (machine.py). One copy each; a benchmark never carries its own."""
