"""WSGI entry point for gunicorn; loads the embedding model before the first request (embeddings.warmup)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evi_site.settings")
application = get_wsgi_application()

from embeddings.warmup import encoder_warm  # noqa: E402  (needs the settings configured above)

encoder_warm()
