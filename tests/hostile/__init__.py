"""A corpus of hostile inputs for pdsmem, generated and hand-made (run by ``tests/test_hostile.py``).

The modules build cases as plain data, each with the outcome pdsmem owes it:

- ``records`` (generated), ``handmade`` and ``forged``: memory record views for the import
  mapper, ``pdsmem convert from-record`` and ``pdsmem validate``.
- ``jsonl``: JSON Lines text that no record view turns into.
- ``events``: AgentMemoryEvents for the export mapper.
- ``cars`` (generated) and ``cars_handmade``: repository CAR files for ``verify_repo``, the
  importer, ``pdsmem verify`` and ``pdsmem import``.
- ``outcomes``: the outcome types and the per-case time bound.

``docs/reliability.md`` ("Hostile input") counts the cases.
"""
