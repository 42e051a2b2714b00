"""manage.py load_reference_situations FILE… [--questions]: judged sets the ranking learns from (idempotent)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.reference_situations import (
    ReferenceLoadError,
    reference_questions_load,
    reference_situations_load,
)


class Command(BaseCommand):
    help = (
        "Laad beoordeelde situaties (JSON-regels met id, query, rel en forbid, zoals evaluate ze leest) als "
        "voorbeelden waar fase 2 van leert; met --questions beoordeelde richtlijnvragen (id, query, expect) "
        "waar richtlijnantwoorden van leren. Elk bestand is een bron; opnieuw laden werkt bij wat veranderde."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--questions", action="store_true", help="De bestanden bevatten richtlijnvragen.")

    def handle(self, *args, **options):
        load = reference_questions_load if options["questions"] else reference_situations_load
        for path in options["files"]:
            try:
                report = load(path=path)
            except ReferenceLoadError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(report.summary())
