"""manage.py evaluate [--queries F]… [--modes vector,hybrid,two-stage] [--questions F]… [--json]"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.answer_evaluation import CUTOFFS, evaluate_answers, judged_questions_read
from search.evaluation import (
    CITATION_SUBJECTS,
    DEFAULT_QUERIES,
    STAGES,
    EvaluationInputError,
    citation_subjects_read,
    evaluate,
    judged_queries_read,
)
from search.pipeline.request import EVALUATION_MODES

COLUMNS = ("ndcg@3", "hit@3", "precision@3", "forbidden_in_top3", "citation_rate", "citations_on_subject", "url_display_rate")
ANSWER_COLUMNS = ("answerable", *(f"cited@{k}" for k in CUTOFFS), "abstained_wrongly", "unanswerable", "abstention_rate")


class Command(BaseCommand):
    help = (
        "Meet de rankingkwaliteit (nDCG@3, hit@3, …) en snelheid per zoekmodus op beoordeelde situaties, "
        "en met --questions de bronvermelding en het terecht zwijgen van richtlijnantwoorden. Een set wordt "
        "gemeten zonder zijn eigen beoordeelde situaties als voorbeeld (bron = bestandsnaam)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--queries", type=Path, action="append", help="Beoordeelde situaties (herhaalbaar).")
        parser.add_argument("--modes", default="vector,hybrid,two-stage")
        parser.add_argument("--questions", type=Path, action="append", default=[], help="Beoordeelde richtlijnvragen (herhaalbaar).")
        parser.add_argument("--subjects", type=Path, default=CITATION_SUBJECTS, help="Tabel product → documenten over zijn onderwerp.")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--details", action="store_true", help="Ook de top 3 per situatie en de gemiste vragen tonen.")

    def handle(self, *args, **options):
        modes = [m.strip() for m in options["modes"].split(",") if m.strip()]
        unknown = [m for m in modes if m not in EVALUATION_MODES]
        if unknown or not modes:
            raise CommandError(f"Onbekende modus {', '.join(unknown) or '(leeg)'}; kies uit {', '.join(EVALUATION_MODES)}.")
        query_files = options["queries"] or ([] if options["questions"] else [DEFAULT_QUERIES])
        try:
            query_sets = {str(path): judged_queries_read(path) for path in query_files}
            questions = [q for path in options["questions"] for q in judged_questions_read(path)]
            subjects = citation_subjects_read(options["subjects"])
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        results = {
            name: evaluate(queries, modes, details=options["details"], subjects=subjects) for name, queries in query_sets.items()
        }
        answers = evaluate_answers(questions, details=options["details"]) if questions else None
        if options["json"]:
            data = dict(next(iter(results.values()), {}))  # the first set at the top level, as before
            data["sets"] = results
            if answers is not None:
                data["answers"] = answers
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        for name, result in results.items():
            self._write_ranking(name, len(query_sets[name]), result, details=options["details"])
        if answers is not None:
            self._write_answers(answers, [str(p) for p in options["questions"]])

    def _write_ranking(self, name: str, count: int, result: dict, *, details: bool) -> None:
        self.stdout.write(f"{count} situaties uit {name}\n")
        header = ["mode", *COLUMNS, *(f"{s} p50/p95 ms" for s in STAGES)]
        self.stdout.write("| " + " | ".join(header) + " |")
        self.stdout.write("|" + "---|" * len(header))
        for mode, row in result["modes"].items():
            cells = [mode, *(str(row[c]) for c in COLUMNS), *(f"{row[f'{s}_p50_ms']} / {row[f'{s}_p95_ms']}" for s in STAGES)]
            self.stdout.write("| " + " | ".join(cells) + " |")
        if details:
            for mode, rows in result["details"].items():
                self.stdout.write(f"\n{mode}:")
                for row in rows:
                    if row["ndcg@3"] < 1:
                        self.stdout.write(f"  {row['id']} nDCG {row['ndcg@3']}: {row['top3']}  rel={row['rel']} forbid={row['forbid']}")
        self.stdout.write("")

    def _write_answers(self, answers: dict, paths: list[str]) -> None:
        self.stdout.write(f"Richtlijnvragen uit {', '.join(paths)}\n")
        header = [*ANSWER_COLUMNS, "p50/p95 ms"]
        self.stdout.write("| " + " | ".join(header) + " |")
        self.stdout.write("|" + "---|" * len(header))
        self.stdout.write("| " + " | ".join([*(str(answers[c]) for c in ANSWER_COLUMNS), f"{answers['p50_ms']} / {answers['p95_ms']}"]) + " |")
        for miss in answers.get("misses", []):
            self.stdout.write(f"  {miss['id']}: {miss['query']}  →  {miss['cited']}")
