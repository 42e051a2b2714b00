"""manage.py calibrate_acceptance [--background]: how often the judged sets accept each product when it is shown."""

from django.core.management.base import BaseCommand
from tqdm import tqdm

from jobs.queue import enqueue
from search.product_acceptance import product_acceptance_refresh
from search.tasks import calibrate_product_acceptance


class Command(BaseCommand):
    help = (
        "Speel alle beoordeelde situaties na en tel per product hoe vaak het in de top 3 kwam en hoe vaak "
        "de beoordelaars het daar passend vonden; fase 2 weegt dat mee. Opnieuw draaien geeft hetzelfde."
    )

    def add_arguments(self, parser):
        parser.add_argument("--background", action="store_true", help="Door de Celery-worker laten doen (zonder wachtrij: meteen hier).")

    def handle(self, *args, **options):
        if options["background"]:
            # Without a broker the task runs here and now (as reindex_embeddings does): slower, never lost.
            enqueue(calibrate_product_acceptance)
            self.stdout.write("Acceptatie per product wordt op de achtergrond berekend (Celery-worker).")
            return
        with tqdm(total=0, desc="Situaties", unit="situatie", disable=options["verbosity"] == 0) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            result = product_acceptance_refresh(progress=progress)
        self.stdout.write(f"Acceptatie berekend op {result.situations} situaties uit {result.sources} sets ({result.rows} regels).")
