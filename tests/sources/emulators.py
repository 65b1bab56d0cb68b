"""The DMS stand-ins live in ``index_builder.sources.standins`` (the walls probe uses them
too, and benchmarks may not import tests/); this name stays for the tests' imports."""

from index_builder.sources.standins import *  # noqa: F401,F403
from index_builder.sources.standins import __all__  # noqa: F401
