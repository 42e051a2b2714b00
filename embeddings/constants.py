"""Shared by the vector columns of every app and by the encoders."""

EMBEDDING_DIMENSIONS = 512  # e5 (384-d) is zero-padded to this (embeddings.encoder)
