"""manage.py validate_urls [--wait]: check the booking link of every active product."""

import time

from celery.result import EagerResult
from django.core.management.base import BaseCommand, CommandError

from catalog.models import Product, UrlStatus
from catalog.selectors import product_ids_with_url
from catalog.tasks import validate_product_url
from jobs.queue import enqueue

POLL_INTERVAL_S = 0.25


class Command(BaseCommand):
    help = (
        "Controleer de url van alle actieve producten via de achtergrondtaken. "
        "Met --wait wacht het commando op de worker en toont het de uitkomst per product."
    )

    def add_arguments(self, parser):
        parser.add_argument("--wait", action="store_true", help="Wachten tot alle controles klaar zijn en een overzicht tonen.")
        parser.add_argument("--timeout", type=float, default=300.0, help="Hoe lang --wait maximaal wacht, in seconden (standaard 300).")

    def handle(self, *args, **options):
        ids = product_ids_with_url()
        if not ids:
            self.stdout.write("Geen actieve producten met een url gevonden.")
            return
        results = [enqueue(validate_product_url, product_id) for product_id in ids]
        if not options["wait"]:
            ran_here = sum(isinstance(result, EagerResult) for result in results)
            if ran_here:
                self.stdout.write(f"URL-controle van {ran_here} product(en) direct uitgevoerd (Redis niet bereikbaar of eager-modus).")
            if len(ids) > ran_here:
                self.stdout.write(f"URL-controle van {len(ids) - ran_here} product(en) ingepland.")
            return
        pending = _wait(results, timeout=options["timeout"])
        self._print_table(ids)
        if pending:
            raise CommandError(
                f"{len(pending)} van de {len(ids)} controles waren na {options['timeout']:g} s nog niet klaar. "
                "Draait er een worker? Start er een met: celery -A evi_site worker"
            )

    def _print_table(self, ids: list[int]) -> None:
        products = Product.objects.filter(id__in=ids).order_by("name")
        rows = [("Product", "Status", "HTTP-code", "Eind-url")] + [
            (p.name, p.get_url_status_display(), str(p.url_http_status or "-"), p.url_final_url or "-") for p in products
        ]
        widths = [max(len(row[column]) for row in rows) for column in range(3)]
        for row in rows:
            self.stdout.write("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths)), row[3]]).rstrip())
        counts = {status.label: sum(1 for p in products if p.url_status == status) for status in UrlStatus}
        summary = ", ".join(f"{count} {label.lower()}" for label, count in counts.items() if count)
        self.stdout.write(f"\nOverzicht van {len(rows) - 1} product(en): {summary}.")


def _wait(results: list, *, timeout: float) -> list:
    """Poll the result store until every check has finished; returns those that had not by the deadline."""
    deadline = time.monotonic() + timeout
    pending = list(results)
    while pending:
        pending = [result for result in pending if not result.ready()]
        if not pending or time.monotonic() >= deadline:
            break
        time.sleep(POLL_INTERVAL_S)
    return pending
