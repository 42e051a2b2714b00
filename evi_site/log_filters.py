"""Logging filters: a probe with a bad Host header is noise, not an error with a traceback."""

import logging


class BadHostAsWarning(logging.Filter):
    """Turns django.security.DisallowedHost records into one-line warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        return True
