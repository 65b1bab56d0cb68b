"""`python -m precedent_bench`: the same as the `precedent-bench` command (the code-tree A/Bs
run it this way, with another tree's server code on PYTHONPATH)."""

import sys

from precedent_bench.cli import main

sys.exit(main())
