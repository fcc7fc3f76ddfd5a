"""I/O: the PDS (XRPC, repository reads and verification, export), RushDB, and local state."""
