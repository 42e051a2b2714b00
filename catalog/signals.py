"""Signals the catalog sends for work other apps own; the catalog does not know who listens."""

from django.dispatch import Signal

# An admin asked for these products' search index to be rebuilt now (kwargs: product_ids).
product_reindex_requested = Signal()
