"""Guideline corpus (documents split into citable chunks) and the interventiewijzer."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from pgvector.django import HnswIndex, VectorField

from catalog.models import Category, Product
from embeddings.constants import EMBEDDING_DIMENSIONS


class GuidelineDocument(models.Model):
    title = models.CharField("titel", max_length=300, unique=True)
    source = models.CharField("bron", max_length=100, help_text="Bijvoorbeeld NVAB, STECR, UWV, Arbowet, Wetten.")
    url = models.URLField("url", max_length=500, blank=True)
    summary = models.TextField("samenvatting", blank=True)
    is_summary = models.BooleanField(
        "eigen samenvatting",
        default=False,
        help_text="Door het team in eigen woorden geschreven samenvatting, geen originele tekst van de bron.",
    )
    content_hash = models.CharField("inhoud-hash", max_length=64, db_index=True)
    ingested_at = models.DateTimeField("ingelezen op", auto_now=True)
    # What the document is about, for citing it only on its subject (search.pipeline.evidence); stored,
    # so a search does not stem every title and summary again.
    topic_vector = models.GeneratedField(
        expression=SearchVector("title", "summary", config="dutch"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    products = models.ManyToManyField(
        Product,
        related_name="guideline_documents",
        blank=True,
        verbose_name="onderbouwt producten",
        help_text="Producten waarvoor dit document als onderbouwing geciteerd mag worden. Een product met zulke "
        "koppelingen citeert alleen uit zijn gekoppelde documenten; zonder koppelingen alleen uit documenten of "
        "secties over zijn eigen problemen.",
    )

    class Meta:
        verbose_name = "richtlijndocument"
        verbose_name_plural = "richtlijndocumenten"
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title


class GuidelineChunk(models.Model):
    document = models.ForeignKey(GuidelineDocument, on_delete=models.CASCADE, related_name="chunks")
    ordinal = models.PositiveIntegerField("volgnummer")
    section_path = models.CharField("sectie", max_length=500, blank=True)
    article = models.CharField(
        "artikel", max_length=20, blank=True, help_text="Artikelnummer zoals '2.15' of '5:8' wanneer de sectie een wetsartikel is."
    )
    content = models.TextField("tekst")
    token_count = models.PositiveIntegerField("tokens", default=0)
    content_hash = models.CharField(max_length=64)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    embedding_model = models.CharField(max_length=100, blank=True, editable=False)
    search_vector = models.GeneratedField(
        expression=SearchVector("section_path", weight="A", config="dutch")
        + SearchVector("content", weight="B", config="dutch"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        verbose_name = "richtlijnpassage"
        verbose_name_plural = "richtlijnpassages"
        ordering = ["document", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["document", "ordinal"], name="chunk_unique_ordinal_per_document"),
        ]
        indexes = [
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(fields=["search_vector"], name="chunk_search_gin"),
            models.Index(fields=["document", "article"], name="chunk_document_article"),
        ]

    def __str__(self) -> str:
        return f"{self.document.title} — {self.section_path or f'passage {self.ordinal}'}"


class InterventionMapping(models.Model):
    """One line of the interventiewijzer: a problem statement pointing to an intervention type and products."""

    problem_statement = models.TextField("probleemstelling", unique=True)
    category = models.CharField("categorie", max_length=40, choices=Category.choices)
    intervention_type = models.CharField("type interventie", max_length=200)
    products = models.ManyToManyField(Product, related_name="intervention_mappings", blank=True, verbose_name="producten")
    keywords = ArrayField(models.CharField(max_length=80), verbose_name="trefwoorden", default=list, blank=True)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    embedding_model = models.CharField(max_length=100, blank=True, editable=False)
    search_vector = SearchVectorField(null=True, editable=False)

    class Meta:
        verbose_name = "interventiewijzer-regel"
        verbose_name_plural = "interventiewijzer"
        ordering = ["category", "problem_statement"]
        indexes = [GinIndex(fields=["search_vector"], name="mapping_search_gin")]
        constraints = [
            models.CheckConstraint(condition=models.Q(category__in=Category.values), name="mapping_category_valid"),
        ]

    def __str__(self) -> str:
        return self.problem_statement
