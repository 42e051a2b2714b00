"""manage.py tune_ranker [--queries F]… [--trials N] [--folds K] [--seed S] [--json]"""

import json
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.evaluation import EvaluationInputError, judged_queries_read
from search.tuning import ranker_tune

DEFAULT_SETS = ("judged_situations", "judged_situations_extra", "short_phrasings")


class Command(BaseCommand):
    help = (
        "Zoek betere parameters voor fase 2 op beoordeelde situaties en meet met k-voudige kruisvalidatie "
        "of ze ook winnen op situaties waarop ze niet gefit zijn. Verandert zelf niets."
    )

    def add_arguments(self, parser):
        parser.add_argument("--queries", type=Path, action="append", help="Beoordeelde situaties (herhaalbaar; standaard de eigen sets).")
        parser.add_argument("--trials", type=int, default=40, help="Aantal parametersets (het huidige meegeteld).")
        parser.add_argument("--folds", type=int, default=5)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        if options["trials"] < 2 or options["folds"] < 2:
            raise CommandError("Gebruik minstens 2 parametersets (--trials) en 2 vouwen (--folds).")
        from django.conf import settings

        paths = options["queries"] or [settings.BASE_DIR / "search" / "eval" / f"{name}.jsonl" for name in DEFAULT_SETS]
        try:
            queries = [q for path in paths for q in judged_queries_read(path) if q.rel]
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        if len(queries) < options["folds"]:
            raise CommandError(f"Te weinig beoordeelde situaties ({len(queries)}) voor {options['folds']} vouwen.")
        report = ranker_tune(queries, trials=options["trials"], folds=options["folds"], seed=options["seed"])
        if options["json"]:
            self.stdout.write(json.dumps({**{k: v for k, v in asdict(report).items() if k != "best"}, "adopt": report.adopt, "best": asdict(report.best)}))
            return
        self.stdout.write(
            f"{report.queries} situaties, {report.trials} parametersets, {report.folds}-voudige kruisvalidatie\n"
            f"nDCG@3 huidige parameters: {report.current_held_out}\n"
            f"nDCG@3 gefit, op niet-gebruikte situaties: {report.fitted_held_out}\n"
            f"nDCG@3 gefit, op de eigen situaties (overfit-indicatie): {report.fitted_in_sample}"
        )
        for name, (old, new) in report.changed.items():
            self.stdout.write(f"  {name}: {old} → {new}")
        self.stdout.write("Advies: overnemen." if report.adopt else "Advies: niet overnemen (geen winst op niet-gebruikte situaties).")
