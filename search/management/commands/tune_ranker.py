"""manage.py tune_ranker [--queries F]… [--trials N] [--folds K] [--seed S] [--no-votes] [--save] [--json]"""

import json
from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.evaluation import EvaluationInputError, judged_queries_read
from search.pipeline.ranking.versions import active_ranking
from search.selectors import voted_searches
from search.services import ranking_version_save
from search.tuning import ranker_tune

DEFAULT_SETS = ("judged_situations", "judged_situations_extra", "short_phrasings")


class Command(BaseCommand):
    help = (
        "Zoek betere parameters voor fase 2 op beoordeelde situaties en op de stemmen van specialisten (👍 boven 👎 "
        "in dezelfde zoekvraag), en meet met k-voudige kruisvalidatie of ze ook winnen op wat niet gebruikt is. "
        "Met --save wordt een winnende set een nieuwe rankingversie die direct rankt (terug te zetten in de admin)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--queries", type=Path, action="append", help="Beoordeelde situaties (herhaalbaar; standaard de eigen sets).")
        parser.add_argument("--trials", type=int, default=40, help="Aantal parametersets (het huidige meegeteld).")
        parser.add_argument("--folds", type=int, default=5)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--no-votes", action="store_true", help="Alleen de beoordeelde situaties gebruiken.")
        parser.add_argument("--save", action="store_true", help="Sla een winnende set op als nieuwe, actieve rankingversie.")
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
        active = active_ranking()
        voted = [] if options["no_votes"] else voted_searches()
        report = ranker_tune(
            queries, voted, trials=options["trials"], folds=options["folds"], seed=options["seed"], base=active.params
        )
        saved = None
        if options["save"] and report.adopt:
            saved = ranking_version_save(report=report, based_on_id=active.version_id)
        if options["json"]:
            figures = {k: v for k, v in asdict(report).items() if k not in ("base", "best")}
            self.stdout.write(json.dumps({
                **figures, "adopt": report.adopt, "changed": report.changed, "best": asdict(report.best),
                "saved_version": saved.id if saved else None,
            }))
            return
        self.stdout.write(
            f"{report.queries} situaties, {report.vote_pairs} voorkeursparen uit {report.vote_searches} zoekvragen met stemmen, "
            f"{report.trials} parametersets, {report.folds}-voudige kruisvalidatie "
            f"(vanaf {'versie ' + str(active.version_id) if active.version_id else 'de ingebouwde parameters'})\n"
            f"nDCG@3 huidige parameters: {report.current_held_out}\n"
            f"nDCG@3 gefit, op niet-gebruikte situaties: {report.fitted_held_out}\n"
            f"nDCG@3 gefit, op de eigen situaties (overfit-indicatie): {report.fitted_in_sample}"
        )
        if report.vote_pairs:
            self.stdout.write(
                f"Voorkeuren gevolgd: huidige parameters {report.current_pair_agreement}, "
                f"gefit op niet-gebruikte stemmen {report.fitted_held_out_pair_agreement}"
            )
        for name, (old, new) in report.changed.items():
            self.stdout.write(f"  {name}: {old} → {new}")
        if saved:
            self.stdout.write(f"Opgeslagen als rankingversie {saved.id}; die rankt vanaf de volgende zoekvraag.")
        elif report.adopt:
            self.stdout.write("Advies: overnemen (opslaan met --save).")
        else:
            self.stdout.write("Advies: niet overnemen (geen winst op niet-gebruikte situaties of stemmen zonder verlies aan nDCG@3).")
