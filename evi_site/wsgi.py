"""WSGI entry point for gunicorn; loads the embedding model and the spelling word lists before the first request."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evi_site.settings")
application = get_wsgi_application()

from embeddings.warmup import encoder_warm  # noqa: E402  (needs the settings configured above)
from lexical.typos import word_lists_warm  # noqa: E402

encoder_warm()
word_lists_warm()
