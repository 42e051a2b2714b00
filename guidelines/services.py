"""Writes to the guideline corpus: ingesting documents atomically and idempotently."""

import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction

from catalog.models import Category, Product
from embeddings.services import Embedded, embedded_confirm, texts_embed
from embeddings.texts import chunk_text_for_embedding
from guidelines.models import GuidelineChunk, GuidelineDocument, InterventionMapping
from guidelines.parsing import PARSER_VERSION, count_tokens, parse_sections

logger = logging.getLogger(__name__)

EMBED_BATCH = 64
# Control characters other than tab and newlines come from bad conversions and break rendering.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class IngestionError(Exception):
    """Bad input for ingestion; the message is Dutch and meant for the admin who ran it."""


@dataclass(frozen=True)
class IngestResult:
    document: GuidelineDocument
    status: str  # "aangemaakt", "vervangen" or "ongewijzigd"
    chunk_count: int


def guideline_file_read(path: Path) -> str:
    """Read one Markdown/plain-text file, refusing what cannot be a guideline text."""
    if not path.exists():
        raise IngestionError(f"Bestand niet gevonden: {path}")
    if not path.is_file():
        raise IngestionError(f"Geen bestand (maar een map of iets anders): {path}")
    size, limit_mb = path.stat().st_size, settings.GUIDELINE_MAX_FILE_MB
    if size > limit_mb * 1_000_000:
        raise IngestionError(
            f"Bestand is te groot ({size / 1_000_000:.1f} MB; maximaal {limit_mb:g} MB, instelling GUIDELINE_MAX_FILE_MB). "
            f"Splits het in delen en lees die samen in als één document: {path}"
        )
    raw = path.read_bytes()
    if b"\x00" in raw[:8192]:
        raise IngestionError(f"Binair bestand, geen tekst of Markdown: {path}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise IngestionError(
            f"Bestand is geen geldige UTF-8-tekst (positie {error.start}); sla het op als UTF-8: {path}"
        ) from None
    if not text.strip():
        raise IngestionError(f"Bestand is leeg: {path}")
    return _CONTROL.sub("", text)


def _clean_line(value: str) -> str:
    return " ".join(_CONTROL.sub(" ", value).split())


def _check_metadata(*, title: str, source: str, url: str) -> None:
    """The limits of the columns, and only web links, checked before anything is parsed or embedded."""
    for label, value, limit in (("titel", title, 300), ("bron", source, 100), ("url", url, 500)):
        if len(value) > limit:
            raise IngestionError(f"De {label} is te lang ({len(value)} tekens; maximaal {limit}).")
    if url:
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise IngestionError(f"De url '{url[:80]}' is geen http(s)-adres.") from None


def document_ingest(
    *,
    title: str,
    source: str,
    texts: list[str],
    url: str = "",
    summary: str = "",
    replace: bool = False,
    is_summary: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> IngestResult:
    """Create or replace a document from its texts; unchanged content is a no-op, a swap is one transaction."""
    title, source, url = _clean_line(title), _clean_line(source), url.strip()
    if not title:
        raise IngestionError("Een titel is verplicht (--title).")
    if not source:
        raise IngestionError("Een bron is verplicht (--source), bijvoorbeeld NVAB, UWV of Arbowet.")
    _check_metadata(title=title, source=source, url=url)
    content_hash = hashlib.sha256(f"parser {PARSER_VERSION}\n\f\n".encode() + "\n\f\n".join(texts).encode()).hexdigest()

    existing = GuidelineDocument.objects.filter(title=title).first()
    if existing and existing.content_hash == content_hash:
        _update_metadata(existing, source=source, url=url, summary=summary, is_summary=is_summary)
        return IngestResult(existing, "ongewijzigd", existing.chunks.count())
    if existing and not replace:
        raise IngestionError(
            f"Document '{title}' bestaat al met andere inhoud. Gebruik --replace om het te vervangen."
        )

    sections = [section for text in texts for section in parse_sections(text, document_title=title)]
    if not sections:
        raise IngestionError(f"Geen tekst gevonden om in te lezen voor '{title}'.")
    # Embed before the transaction so no lock is held while the model runs; the swap itself is atomic.
    embedding_texts = [chunk_text_for_embedding(title, section.path, section.text) for section in sections]
    batches = []
    for start in range(0, len(sections), EMBED_BATCH):
        batches.append(texts_embed(embedding_texts[start : start + EMBED_BATCH]))
        if progress:
            progress(len(batches[-1].vectors), len(sections))
    model = batches[0].model if all(batch.model == batches[0].model for batch in batches) else ""
    embedded = Embedded(model, np.concatenate([batch.vectors for batch in batches]))

    try:
        with transaction.atomic():
            embedded = embedded_confirm(embedded, embedding_texts)
            document, created = GuidelineDocument.objects.select_for_update().get_or_create(
                title=title,
                defaults={"source": source, "url": url, "summary": summary, "content_hash": content_hash, "is_summary": is_summary},
            )
            if not created:
                if document.content_hash == content_hash:
                    return IngestResult(document, "ongewijzigd", document.chunks.count())
                if not replace:
                    raise IngestionError(
                        f"Document '{title}' bestaat al met andere inhoud. Gebruik --replace om het te vervangen."
                    )
                document.chunks.all().delete()
                document.source, document.url, document.content_hash = source, url, content_hash
                document.is_summary = is_summary
                document.summary = summary or document.summary
                document.save()
            GuidelineChunk.objects.bulk_create(
                GuidelineChunk(
                    document=document,
                    ordinal=ordinal,
                    section_path=section.path[:500],
                    article=section.article[:20],
                    content=section.text,
                    token_count=count_tokens(section.text),
                    content_hash=hashlib.sha256(section.text.encode()).hexdigest(),
                    embedding=vector.tolist(),
                    embedding_model=embedded.model,
                )
                for ordinal, (section, vector) in enumerate(zip(sections, embedded.vectors, strict=True), start=1)
            )
    except IntegrityError:
        logger.warning("concurrent ingestion of %r; retrying once", title)
        if not replace:
            raise IngestionError(f"Document '{title}' werd tegelijk door een ander proces ingelezen; probeer opnieuw.") from None
        return document_ingest(
            title=title, source=source, texts=texts, url=url, summary=summary, replace=True, is_summary=is_summary
        )
    logger.info("ingested %r: %d chunks (%s)", title, len(sections), "new" if created else "replaced")
    return IngestResult(document, "aangemaakt" if created else "vervangen", len(sections))


def _update_metadata(document: GuidelineDocument, *, source: str, url: str, summary: str, is_summary: bool) -> None:
    changed = {
        field: value
        for field, value in {"source": source, "url": url, "summary": summary}.items()
        if value and getattr(document, field) != value
    }
    if document.is_summary != is_summary:
        changed["is_summary"] = is_summary
    if changed:
        GuidelineDocument.objects.filter(pk=document.pk).update(**changed)
        for field, value in changed.items():
            setattr(document, field, value)


class MappingImportError(Exception):
    """An interventiewijzer row is invalid; the Dutch message names the row."""


@dataclass(frozen=True)
class MappingImportReport:
    changed_mapping_ids: list[int]
    affected_product_ids: set[int]
    unchanged: int


def mapping_import(*, rows: list[dict]) -> MappingImportReport:
    """Create or update wijzer mappings by problem statement, all or nothing."""
    changed: list[int] = []
    affected: set[int] = set()
    unchanged = 0
    with transaction.atomic():
        for number, row in enumerate(rows, start=1):
            statement = str(row.get("problem_statement") or "").strip()
            if not statement:
                raise MappingImportError(f"Regel {number}: de probleemstelling ontbreekt.")
            if row.get("category") not in Category.values:
                raise MappingImportError(f"Regel {number}: onbekende categorie {row.get('category')!r}.")
            names = list(row.get("products") or [])
            products = list(Product.objects.filter(name__in=names))
            missing = sorted(set(names) - {p.name for p in products})
            if missing:
                raise MappingImportError(f"Regel {number}: onbekende producten {', '.join(missing)}.")
            values = {
                "category": row["category"],
                "intervention_type": str(row.get("intervention_type") or "").strip(),
                "keywords": [str(k).strip().lower() for k in row.get("keywords") or [] if str(k).strip()],
            }
            mapping, created = InterventionMapping.objects.select_for_update().get_or_create(
                problem_statement=statement, defaults=values
            )
            product_ids = {p.id for p in products}
            current_ids = set() if created else set(mapping.products.values_list("id", flat=True))
            same = not created and all(getattr(mapping, k) == v for k, v in values.items()) and current_ids == product_ids
            if same:
                unchanged += 1
                continue
            for key, value in values.items():
                setattr(mapping, key, value)
            mapping.save()
            mapping.products.set(products)
            changed.append(mapping.id)
            affected |= product_ids | current_ids
    return MappingImportReport(changed, affected, unchanged)


def product_guidelines_link(*, links: dict[str, list[str]]) -> int:
    """Link products to the guideline documents that back them (adds, never removes an admin's links);
    titles not in the corpus yet are skipped, so a later run links laws ingested meanwhile. Returns new links."""
    products = {p.name: p for p in Product.objects.filter(name__in=list(links))}
    unknown = sorted(set(links) - set(products))
    if unknown:
        raise MappingImportError(f"Onbekende producten in de richtlijnkoppelingen: {', '.join(unknown)}.")
    documents = {d.title: d for d in GuidelineDocument.objects.filter(title__in={t for titles in links.values() for t in titles})}
    through = GuidelineDocument.products.through
    wanted = {(documents[title].id, products[name].id) for name, titles in links.items() for title in titles if title in documents}
    existing = set(through.objects.filter(product_id__in=[p.id for p in products.values()]).values_list("guidelinedocument_id", "product_id"))
    new = wanted - existing
    through.objects.bulk_create([through(guidelinedocument_id=d, product_id=p) for d, p in new], ignore_conflicts=True)
    return len(new)
