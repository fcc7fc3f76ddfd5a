"""The atproto side: repositories (CAR files, MST proofs, commits), identities, and XRPC calls."""
