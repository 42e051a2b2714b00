"""manage.py ask "<vraag>" [--json]"""

import json

from django.core.management.base import BaseCommand, CommandError

from lexical.typos import corrections_note
from search.answers import guideline_answer
from search.pipeline.errors import SearchInputError
from search.serializers import answer_json


class Command(BaseCommand):
    help = "Beantwoord een vraag over de richtlijnen, met bronvermelding."

    def add_arguments(self, parser):
        parser.add_argument("question", help="De vraag, in het Nederlands.")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        try:
            answer = guideline_answer(options["question"])
        except SearchInputError as error:
            raise CommandError(str(error)) from None
        data = answer_json(answer)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        if spelling := corrections_note(answer.spelling):
            self.stdout.write(spelling)
        self.stdout.write(answer.answer + "\n")
        for number, citation in enumerate(data["citations"], start=1):
            self.stdout.write(f"[{number}] {citation['document_title']} — {citation['section']} (passage {citation['chunk_id']})")

