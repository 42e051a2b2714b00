"""Gunicorn's sync and threaded workers, with the error pages gunicorn answers itself in Dutch.

Some requests never reach Django: an address longer than gunicorn's request-line limit (414),
headers too large (431), a malformed request line (400). Gunicorn answers those with its own
English page built in `gunicorn.util.write_error`; this worker puts a Dutch page in its place
(the status line keeps the standard English reason phrase, the technical detail goes to the log).
Gunicorn has no hook for these pages, so the worker replaces that one function in its own process.
"""

import html

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

TITLES = {
    400: "Ongeldig verzoek",
    403: "Geen toegang",
    414: "Adres te lang",
    417: "Verwachting niet ondersteund",
    431: "Verzoek te groot",
    500: "Er ging iets mis",
    501: "Niet ondersteund",
}
EXPLANATIONS = {
    414: "Het adres is te lang. Een situatie of vraag typt u in het formulier op de pagina, niet in het adres.",
    431: "Het verzoek bevat te veel of te grote kopregels. Sluit overbodige tabbladen of wis de cookies van deze site.",
    500: "Er ging aan onze kant iets mis. Probeer het zo opnieuw; blijft het misgaan, meld het dan aan de beheerder.",
}
DEFAULT_EXPLANATION = "Dit verzoek kan de server niet verwerken. Ga terug naar de startpagina en probeer het opnieuw."


def dutch_error_page(status: int) -> str:
    title = TITLES.get(status, TITLES[400])
    explanation = EXPLANATIONS.get(status, DEFAULT_EXPLANATION)
    return (
        '<!doctype html>\n<html lang="nl">\n<head><meta charset="utf-8"><title>'
        f"{html.escape(title)} – EVI Interventiewijzer</title></head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n<p>{html.escape(explanation)}</p>\n"
        '<p><a href="/">Naar de startpagina</a></p>\n</body>\n</html>\n'
    )


def write_dutch_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's contract, with a Dutch body; `mesg` (English, technical) is not shown."""
    body = dutch_error_page(status_int).encode("utf-8")
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode("latin-1")
    util.write_nonblock(sock, head + body)


class DutchThreadWorker(ThreadWorker):
    """gunicorn --worker-class evi_site.gunicorn_worker.DutchThreadWorker (threads as --threads says)."""

    def init_process(self):
        util.write_error = write_dutch_error
        super().init_process()


class DutchSyncWorker(SyncWorker):
    """gunicorn --worker-class evi_site.gunicorn_worker.DutchSyncWorker (one request at a time per process)."""

    def init_process(self):
        util.write_error = write_dutch_error
        super().init_process()
