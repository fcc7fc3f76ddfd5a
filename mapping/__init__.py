"""Pure mapping between AgentMemoryEvent v1 and dev.bastienrobert.memory.record.

Nothing in this package performs I/O or talks to a network; ``tests/test_layers.py`` enforces it.
"""
