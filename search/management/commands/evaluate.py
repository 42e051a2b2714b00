"""manage.py evaluate [--queries F] [--modes vector,hybrid,two-stage] [--json]"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.evaluation import DEFAULT_QUERIES, STAGES, EvaluationInputError, evaluate, judged_queries_read
from search.pipeline.run import MODES

COLUMNS = ("ndcg@3", "hit@3", "precision@3", "forbidden_in_top3", "citation_rate", "url_display_rate")


class Command(BaseCommand):
    help = "Meet de rankingkwaliteit (nDCG@3, hit@3, …) en snelheid per zoekmodus op beoordeelde situaties."

    def add_arguments(self, parser):
        parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
        parser.add_argument("--modes", default="vector,hybrid,two-stage")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--details", action="store_true", help="Ook de top 3 per situatie tonen.")

    def handle(self, *args, **options):
        modes = [m.strip() for m in options["modes"].split(",") if m.strip()]
        unknown = [m for m in modes if m not in MODES]
        if unknown or not modes:
            raise CommandError(f"Onbekende modus {', '.join(unknown) or '(leeg)'}; kies uit {', '.join(MODES)}.")
        try:
            queries = judged_queries_read(options["queries"])
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        result = evaluate(queries, modes, details=options["details"])
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        self.stdout.write(f"{len(queries)} situaties uit {options['queries']}\n")
        header = ["mode", *COLUMNS, *(f"{s} p50/p95 ms" for s in STAGES)]
        self.stdout.write("| " + " | ".join(header) + " |")
        self.stdout.write("|" + "---|" * len(header))
        for mode, row in result["modes"].items():
            cells = [mode, *(str(row[c]) for c in COLUMNS), *(f"{row[f'{s}_p50_ms']} / {row[f'{s}_p95_ms']}" for s in STAGES)]
            self.stdout.write("| " + " | ".join(cells) + " |")
        if options["details"]:
            for mode, rows in result["details"].items():
                self.stdout.write(f"\n{mode}:")
                for row in rows:
                    if row["ndcg@3"] < 1:
                        self.stdout.write(f"  {row['id']} nDCG {row['ndcg@3']}: {row['top3']}  rel={row['rel']} forbid={row['forbid']}")
