"""manage.py recommend "<situatie>" [--top-k K] [--mode two-stage|hybrid|vector] [--json]
manage.py recommend --queries-file F.jsonl --json"""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from lexical.typos import corrections_note
from search.pipeline.errors import SearchInputError
from search.pipeline.request import MODES, SearchRequest
from search.serializers import outcome_json
from search.services import search_perform


class Command(BaseCommand):
    help = "Geef interventie-aanbevelingen voor een situatie (of voor elke regel van een JSONL-bestand)."

    def add_arguments(self, parser):
        parser.add_argument("situation", nargs="?", help="De situatie van de werknemer, in het Nederlands.")
        parser.add_argument("--queries-file", type=Path, help='JSONL met per regel {"id": …, "query": …}.')
        parser.add_argument("--top-k", type=int, default=settings.SEARCH_TOP_K)
        parser.add_argument("--mode", choices=MODES, default="two-stage")
        parser.add_argument("--json", action="store_true", help="Eén JSON-object per situatie.")

    def handle(self, *args, **options):
        if bool(options["situation"]) == bool(options["queries_file"]):
            raise CommandError("Geef óf een situatie óf --queries-file.")
        queries = _read_queries(options["queries_file"]) if options["queries_file"] else [(None, options["situation"])]
        for query_id, query in queries:
            try:
                outcome = search_perform(request=SearchRequest(query=query, mode=options["mode"], top_k=options["top_k"]))
            except SearchInputError as error:
                if options["queries_file"]:
                    self.stdout.write(json.dumps({"id": query_id, "query": query, "error": str(error)}, ensure_ascii=False))
                    continue
                raise CommandError(str(error)) from None
            if options["json"]:
                self.stdout.write(json.dumps(outcome_json(outcome, query_id=query_id), ensure_ascii=False))
            else:
                self.stdout.write(_as_text(outcome_json(outcome, query_id=query_id)))


def _read_queries(path: Path) -> list[tuple[object, str]]:
    if not path.exists():
        raise CommandError(f"Bestand niet gevonden: {path}")
    queries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            queries.append((row.get("id", number), row["query"]))
        except (json.JSONDecodeError, KeyError, AttributeError):
            raise CommandError(f"{path}, regel {number}: verwacht een JSON-object met een 'query'.") from None
    return queries


def _as_text(data: dict) -> str:
    lines = [f"Situatie: {data['query']}", f"Modus: {data['mode']} · ranker: {data['ranker']} · {data['timings_ms'].get('total')} ms"]
    if spelling := corrections_note(data["retrieval"].get("spelling") or {}):
        lines.append(spelling)
    if data["message"]:
        lines.append(data["message"])
    for rec in data["recommendations"]:
        lines.append(f"\n### {rec['rank']}. {rec['name']}  (relevantie {rec['relevance_score']:.2f})")
        lines.append(rec["reasoning"])
        for citation in rec["guidelines"]:
            lines.append(f"  - {citation['document_title']} — {citation['section']}")
        lines.append(f"  Link: {rec['url']} {rec['url_note']}".rstrip())
    if data["note"]:
        lines.append(f"\n{data['note']}")
    return "\n".join(lines)
