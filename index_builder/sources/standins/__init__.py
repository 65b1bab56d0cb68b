"""Stand-ins for the DMS services the sources talk to: Entra ID + Microsoft Graph, and iManage
Work, as loopback HTTPS servers answering their documented request and response shapes.

The sources' real client code (MSAL, ``index_builder/sources/http.py``) talks to them
unchanged, pointed at by URL; the tests (tests/sources/) and the walls probe
(``precedent-bench walls``) use them. Each module names the reference page of every endpoint
it answers. Faults are switched on per use (``Emulator.faults``): throttling with Retry-After,
expired tokens, an expired delta link (410), a proxy that blocks ``$batch``. Nothing here was
checked against the real services (docs/sources.md lists what to run against a test tenant).
"""

from index_builder.sources.standins.graph import GraphEmulator, big_graph_in_process
from index_builder.sources.standins.imanage import IManageEmulator, big_imanage_in_process
from index_builder.sources.standins.library import EVERYONE, EVERYONE_EXCEPT_EXTERNAL, Doc, Folder, Library
from index_builder.sources.standins.server import Emulator, Faults, loopback_tls, self_signed

__all__ = ["Doc", "EVERYONE", "EVERYONE_EXCEPT_EXTERNAL", "Emulator", "Faults", "Folder",
           "GraphEmulator", "IManageEmulator", "Library", "big_graph_in_process",
           "big_imanage_in_process", "loopback_tls", "self_signed"]
