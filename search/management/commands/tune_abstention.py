"""manage.py tune_abstention [--questions F]… [--json]"""

import json
from dataclasses import asdict
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from search.abstention_tuning import AbstentionTuningError, Mistakes, abstention_tune
from search.answer_evaluation import judged_questions_read
from search.evaluation import EvaluationInputError

EVAL_DIR = Path(settings.BASE_DIR) / "search" / "eval"
# Every judged question set: answerable law and guideline questions, the ones the corpus cannot answer and the out-of-domain lines.
DEFAULT_GLOBS = ("law_questions*.jsonl", "guideline_questions.jsonl", "guideline_questions_*.jsonl", "guideline_boundary_questions.jsonl", "unanswerable_questions*.jsonl", "out_of_domain.jsonl")


def _mistakes(figures: Mistakes) -> str:
    return f"{figures.silent} van {figures.answerable} ten onrechte stil, {figures.answered} van {figures.unanswerable} ten onrechte beantwoord ({figures.total} fouten)"


class Command(BaseCommand):
    help = (
        "Fit het model dat beslist of het corpus een richtlijnvraag beantwoordt (search/pipeline/abstention.py) op de "
        "beoordeelde vragen, leave-one-set-out: per set gefit op de andere sets en daarop gemeten, naast het huidige model. "
        "Verandert niets; overnemen doet een ontwikkelaar met de waarden van 'gefit op alles' als de niet-gebruikte sets winnen."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--questions", type=Path, action="append",
            help="Beoordeelde vragen (herhaalbaar, minstens twee sets; standaard alle wet-, richtlijn- en onbeantwoordbare vragen in search/eval).",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        paths = options["questions"] or sorted({path for pattern in DEFAULT_GLOBS for path in EVAL_DIR.glob(pattern)})
        try:
            questions = [q for path in paths for q in judged_questions_read(path)]
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        if len({q.source for q in questions}) < 2 or not any(q.answerable for q in questions) or all(q.answerable for q in questions):
            raise CommandError("Geef minstens twee sets, met beantwoordbare én onbeantwoordbare vragen: elke set wordt een keer weggelaten.")
        try:
            report = abstention_tune(questions)
        except AbstentionTuningError as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps({
                "folds": [{"held_out": f.held_out, "current": asdict(f.current), "fitted": asdict(f.fitted)} for f in report.folds],
                "current_held_out": asdict(report.current_held_out),
                "fitted_held_out": asdict(report.fitted_held_out),
                "in_sample": asdict(report.in_sample),
                "fitted_on_all": asdict(report.fitted_on_all),
            }))
            return
        self.stdout.write("| weggelaten set | huidig model: stil / beantwoord | gefit op de andere sets |\n|---|---|---|")
        for fold in report.folds:
            self.stdout.write(f"| {fold.held_out} | {fold.current.silent} / {fold.current.answered} | {fold.fitted.silent} / {fold.fitted.answered} |")
        self.stdout.write(
            f"\nNiet-gebruikt, alle sets, gefit op de andere sets: {_mistakes(report.fitted_held_out)}\n"
            f"Huidig model op dezelfde sets (gefit op alles, dus deels op de eigen vragen): {_mistakes(report.current_held_out)}\n"
            f"Gefit op alles, op de eigen vragen (overfit-indicatie): {_mistakes(report.in_sample)}\n"
            f"Gefit op alles (voor search/pipeline/abstention.py):\n{report.fitted_on_all!r}"
        )
