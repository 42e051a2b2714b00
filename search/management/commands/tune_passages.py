"""manage.py tune_passages [--questions F]… [--json]"""

import json
from dataclasses import asdict
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from search.answer_evaluation import judged_questions_read
from search.evaluation import EvaluationInputError
from search.passage_tuning import Figures, passages_tune
from search.pipeline.passage_scoring import FITTED, WEIGHT_NAMES

EVAL_DIR = Path(settings.BASE_DIR) / "search" / "eval"
# Next to the law questions, the questions about the team's guideline summaries (guideline_questions_* by
# section), so a fit that helps the laws cannot quietly push out the only text the corpus has of a guideline.
GUIDELINE_SETS = ("guideline_questions.jsonl", "guideline_boundary_questions.jsonl")


def _share(figures: Figures) -> str:
    count = max(figures.questions, 1)
    return f"{figures.cited_at_1 / count:.3f} / {figures.cited_at_3 / count:.3f} ({figures.cited_at_1} / {figures.cited_at_3} van {figures.questions})"


class Command(BaseCommand):
    help = (
        "Fit de gewichten waarmee richtlijnpassages voor een vraag gescoord worden (betekenis, plaats in beide lijsten, "
        "originele wettekst, stem van beoordeelde vragen) op beoordeelde wetvragen, leave-one-set-out: per set de "
        "gewichten gefit op de andere sets, gemeten op die set, naast de huidige gewichten. Verandert niets; "
        "overnemen doet een ontwikkelaar in search/pipeline/passage_scoring.py als de niet-gebruikte sets winnen."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--questions", type=Path, action="append",
            help="Beoordeelde vragen (herhaalbaar, minstens twee sets; standaard search/eval/law_questions*.jsonl en de richtlijnvragen).",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        paths = options["questions"] or [
            *sorted(EVAL_DIR.glob("law_questions*.jsonl")), *sorted(EVAL_DIR.glob("guideline_questions_*.jsonl")), *(EVAL_DIR / name for name in GUIDELINE_SETS)
        ]
        try:
            questions = [q for path in paths for q in judged_questions_read(path)]
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        if len({q.source for q in questions if q.answerable}) < 2:
            raise CommandError("Geef minstens twee sets met beantwoordbare vragen: elke set wordt een keer weggelaten.")
        report = passages_tune(questions)
        if options["json"]:
            self.stdout.write(json.dumps({
                "folds": [
                    {"held_out": f.held_out, "current": asdict(f.current), "fitted": asdict(f.fitted), "weights": asdict(f.weights)}
                    for f in report.folds
                ],
                "current_held_out": asdict(report.current_held_out),
                "fitted_held_out": asdict(report.fitted_held_out),
                "in_sample": asdict(report.in_sample),
                "reachable": report.reachable,
                "current": asdict(FITTED),
                "fitted_on_all": asdict(report.fitted_on_all),
            }))
            return
        self.stdout.write("| weggelaten set | huidige gewichten geciteerd@1 / @3 | gefit op de andere sets |\n|---|---|---|")
        for fold in report.folds:
            self.stdout.write(f"| {fold.held_out} | {_share(fold.current)} | {_share(fold.fitted)} |")
        total = report.current_held_out.questions
        self.stdout.write(
            f"\nNiet-gebruikt, alle sets: huidige gewichten {_share(report.current_held_out)}, "
            f"gefit {_share(report.fitted_held_out)}\n"
            f"Gefit op alles, op de eigen vragen (overfit-indicatie): {_share(report.in_sample)}\n"
            f"Bereikbaar (elk verwacht artikel bij de kandidaten): {report.reachable} van {total}"
        )
        for name in WEIGHT_NAMES:
            old, new = getattr(FITTED, name), getattr(report.fitted_on_all, name)
            self.stdout.write(f"  {name}: {old}" + (f" → {new}" if new != old else ""))
