"""Per-thread switches a `with` block turns on: bulk loaders use them to quiet per-row signal receivers."""

import contextlib
import threading


class ThreadFlag:
    def __init__(self) -> None:
        self._local = threading.local()

    def active(self) -> bool:
        return getattr(self._local, "on", False)

    @contextlib.contextmanager
    def activated(self):
        previous = self.active()
        self._local.on = True
        try:
            yield
        finally:
            self._local.on = previous
