"""manage.py benchmark_search [--queries F] [--rounds N] [--mode M] [--questions F]: search latency per stage and
throughput, and with --questions the guideline retrieval latency of the instant (extractive) answer.

Runs every judged situation once to warm up (model load, connections), then N measured rounds.
The query-embedding cache is cleared before each round, so every measured search pays for its
embedding, as a new situation would. Nothing is written to the search log.
"""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from embeddings.encoder import query_cache_clear
from search.answer_evaluation import judged_questions_read
from search.answers import guideline_answer
from search.evaluation import (
    DEFAULT_QUERIES,
    STAGES,
    EvaluationInputError,
    judged_queries_read,
    percentile,
)
from search.pipeline.request import MODES, SearchRequest
from search.pipeline.run import search_run


class Command(BaseCommand):
    help = "Meet de zoeksnelheid per fase (p50/p95) en het aantal zoekvragen per seconde."

    def add_arguments(self, parser):
        parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--mode", choices=MODES, default="two-stage")
        parser.add_argument("--questions", type=Path, help="Richtlijnvragen (JSONL) om ook het zoeken in passages te meten.")

    def handle(self, *args, **options):
        if options["rounds"] < 1:
            raise CommandError("--rounds moet minstens 1 zijn.")
        try:
            queries = [q.query for q in judged_queries_read(options["queries"])]
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        for query in queries:
            search_run(SearchRequest(query=query, mode=options["mode"]))
        timings = {stage: [] for stage in ("context", *STAGES)}
        started = time.perf_counter()
        for _ in range(options["rounds"]):
            query_cache_clear()
            for query in queries:
                outcome = search_run(SearchRequest(query=query, mode=options["mode"]))
                for stage in timings:
                    timings[stage].append(outcome.timings_ms.get(stage, 0.0))
        elapsed = time.perf_counter() - started
        count = len(queries) * options["rounds"]
        self.stdout.write(f"{count} zoekvragen ({len(queries)} situaties × {options['rounds']} rondes, modus {options['mode']}), één proces")
        self.stdout.write("| fase | p50 ms | p95 ms | max ms |\n|---|---|---|---|")
        for stage, values in timings.items():
            self.stdout.write(f"| {stage} | {percentile(values, 50)} | {percentile(values, 95)} | {round(max(values), 2)} |")
        self.stdout.write(f"Doorvoer: {count / elapsed:.1f} zoekvragen/s in één proces")
        if options["questions"]:
            self._questions(options["questions"], options["rounds"])

    def _questions(self, path: Path, rounds: int) -> None:
        try:
            questions = [q.query for q in judged_questions_read(path)]
        except EvaluationInputError as error:
            raise CommandError(str(error)) from None
        for question in questions:
            guideline_answer(question, generate=False)
        timings = {"retrieve": [], "total": []}
        for _ in range(rounds):
            query_cache_clear()
            for question in questions:
                answer = guideline_answer(question, generate=False)
                for stage in timings:
                    timings[stage].append(answer.timings_ms.get(stage, 0.0))
        self.stdout.write(f"\n{len(questions) * rounds} richtlijnvragen ({len(questions)} × {rounds} rondes), direct antwoord zonder LLM")
        self.stdout.write("| fase | p50 ms | p95 ms | max ms |\n|---|---|---|---|")
        for stage, values in timings.items():
            self.stdout.write(f"| {stage} | {percentile(values, 50)} | {percentile(values, 95)} | {round(max(values), 2)} |")
