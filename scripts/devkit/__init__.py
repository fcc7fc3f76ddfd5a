"""Tools for developing pdsmem that the demo, the benchmarks and the tests share.

- ``pds``: a real local reference PDS and PLC directory (``scripts/pds``), run as a child process;
- ``rushdb``: a real local RushDB server (``scripts/rushdb``), run as child processes;
- ``service``: the life cycle both servers share (``restart``, ``close``, ``with``);
- ``timing``: the benchmarks' timing and rate lines;
- ``events``: valid AgentMemoryEvent v1 inputs;
- ``repo_builder``: real, signed repository CARs built offline, broken on request;
- ``faker_texts``: memory texts around values Faker makes in 48 locales, for the privacy gate;
- ``catalog_labels``: the labels of three translation catalogs, and the values put after them.

The tests import these (with ``scripts/`` on ``sys.path``); nothing here imports the tests.
"""
