"""Load the local embedding model when a web process starts, not on its first search.

Loading USE takes ~1.5 s (e5 longer); without this the first search in every fresh gunicorn worker
paid for it. Under `gunicorn --preload` this runs once in the master, before it forks, and the
workers share the loaded weights copy-on-write.
"""

import logging

from django.db import DatabaseError, connections

from embeddings.encoder import E5_MODEL, USE_MODEL, UnknownModelError, encoder_for
from embeddings.selectors import active_embedding_model

logger = logging.getLogger(__name__)

LOCAL_MODELS = (USE_MODEL, E5_MODEL)


def encoder_warm() -> str | None:
    """Load (and run once) the encoder of the active model if it is a local one; the model's name, or None.

    Never fails the start: without a database or with a remote model the first search loads it as before.
    """
    try:
        model = active_embedding_model()
        if model not in LOCAL_MODELS:
            return None  # a remote model has nothing to load, and a call here would cost money
        encoder_for(model).encode(["opwarmen"], query=True)
        return model
    except (DatabaseError, UnknownModelError) as error:
        logger.warning("embedding model not preloaded (%s); the first search will load it", error)
        return None
    finally:
        # A forked worker must never inherit the master's database connection.
        connections.close_all()
