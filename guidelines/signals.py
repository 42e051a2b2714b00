"""Signals the guideline corpus sends for work other apps own; it does not know who listens."""

from django.dispatch import Signal

# An admin asked for these passages' embeddings to be computed again (kwargs: chunk_ids).
chunk_reembed_requested = Signal()
