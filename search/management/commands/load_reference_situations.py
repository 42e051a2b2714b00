"""manage.py load_reference_situations FILE… : judged sets that stage 2 learns from (idempotent)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from search.reference_situations import ReferenceLoadError, reference_situations_load


class Command(BaseCommand):
    help = (
        "Laad beoordeelde situaties (JSON-regels met id, query, rel en forbid, zoals evaluate ze leest) als "
        "voorbeelden waar fase 2 van leert. Elk bestand is een bron; opnieuw laden werkt bij wat veranderde."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)

    def handle(self, *args, **options):
        for path in options["files"]:
            try:
                report = reference_situations_load(path=path)
            except ReferenceLoadError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(report.summary())
