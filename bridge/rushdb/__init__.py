"""The RushDB side: the memory store over the official SDK, memory rows, and embeddings."""
