"""The curated intervention catalog."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from pgvector.django import HnswIndex, VectorField

from embeddings.constants import EMBEDDING_DIMENSIONS

# The fields an import row may set and an export writes, in this order.
IMPORT_FIELDS = (
    "name", "portal_id", "url", "description", "category", "problem_areas", "phase", "absence_weeks_min",
    "absence_weeks_max", "audience", "target_roles", "sectors", "delivery", "typical_duration",
    "time_to_start_days", "price_text", "price_from_eur", "price_to_eur", "benefits_employee", "benefits_employer", "is_first_step",
    "guidelines_curated",
)


class Category(models.TextChoices):
    ARBEIDSVOORWAARDEN = "Arbeidsvoorwaarden", "Arbeidsvoorwaarden"
    PREVENTIE = "Preventie", "Preventie"
    ARBEIDSINHOUD = "Arbeidsinhoud", "Arbeidsinhoud"
    ARBEIDSVERHOUDINGEN = "Arbeidsverhoudingen", "Arbeidsverhoudingen"
    SOCIALE_OMSTANDIGHEDEN = "Sociale omstandigheden", "Sociale omstandigheden"
    BELASTBAARHEID = "Verbetering belastbaarheid", "Verbetering belastbaarheid"
    ARBEIDSOMSTANDIGHEDEN = "Arbeidsomstandigheden", "Arbeidsomstandigheden"
    VITALITEIT = "Vitaliteit & Loopbaan", "Vitaliteit & Loopbaan"


class Phase(models.TextChoices):
    PREVENTIE = "preventie", "Preventie"
    KORT_VERZUIM = "kort_verzuim", "Kort verzuim"
    LANG_VERZUIM = "lang_verzuim", "Lang verzuim"
    RE_INTEGRATIE = "re_integratie", "Re-integratie"
    WERKGEVER_BELEID = "werkgever_beleid", "Werkgever-beleid"


class Audience(models.TextChoices):
    WERKNEMER = "werknemer", "Werknemer"
    LEIDINGGEVENDE = "leidinggevende", "Leidinggevende"
    TEAM = "team", "Team"
    ORGANISATIE = "organisatie", "Organisatie"


class Delivery(models.TextChoices):
    ONLINE = "online", "Online"
    OP_LOCATIE = "op_locatie", "Op locatie"
    BEIDE = "beide", "Online en op locatie"


class UrlStatus(models.TextChoices):
    UNCHECKED = "unchecked", "Niet gecontroleerd"
    OK = "ok", "Werkt"
    BROKEN = "broken", "Kapot"
    UNREACHABLE = "unreachable", "Niet bereikbaar"


def _tags(verbose_name: str) -> ArrayField:
    return ArrayField(models.CharField(max_length=80), verbose_name=verbose_name, default=list, blank=True)


# Columns only SQL reads: the vector and the tsvector (parsing a tsvector of ~100 lexemes into Python per
# product cost ~6 ms for a search's 50 candidates). Load products with `.defer(*UNUSED_IN_PYTHON)`.
UNUSED_IN_PYTHON = ("embedding", "search_vector")


class Product(models.Model):
    name = models.CharField("naam", max_length=200, unique=True)
    slug = models.SlugField(max_length=200, unique=True)
    portal_id = models.PositiveIntegerField("portaal-id", null=True, blank=True, unique=True)
    description = models.TextField("omschrijving")
    category = models.CharField("categorie", max_length=40, choices=Category.choices)
    problem_areas = _tags("probleemgebieden")
    phase = models.CharField("fase", max_length=20, choices=Phase.choices)
    absence_weeks_min = models.PositiveSmallIntegerField(
        "verzuim vanaf (weken)", null=True, blank=True, help_text="Leeg = ook zonder verzuim."
    )
    absence_weeks_max = models.PositiveSmallIntegerField(
        "verzuim tot (weken)", null=True, blank=True, help_text="Leeg = geen bovengrens; 0 = alleen zonder verzuim."
    )
    audience = models.CharField("doelgroep", max_length=20, choices=Audience.choices, default=Audience.WERKNEMER)
    target_roles = _tags("functies")
    sectors = _tags("sectoren")
    delivery = models.CharField("uitvoering", max_length=20, choices=Delivery.choices)
    typical_duration = models.CharField("duur", max_length=200, blank=True)
    time_to_start_days = models.PositiveSmallIntegerField("start binnen (dagen)", null=True, blank=True)
    price_text = models.CharField("prijs", max_length=200, blank=True)
    price_from_eur = models.PositiveIntegerField(
        "prijs vanaf (€, excl. btw)", null=True, blank=True,
        help_text="Het laagste bedrag waarvoor het product af te nemen is; leeg = onbekend. Een budget in de zoekvraag laat duurdere producten weg.",
    )
    price_to_eur = models.PositiveIntegerField(
        "prijs tot (€, excl. btw)", null=True, blank=True, help_text="Alleen invullen bij een vaste prijs of een bekende bovengrens."
    )
    benefits_employee = models.TextField("voordelen werknemer", blank=True)
    benefits_employer = models.TextField("voordelen werkgever", blank=True)

    url = models.URLField("url", max_length=500, blank=True)
    url_status = models.CharField("url-status", max_length=20, choices=UrlStatus.choices, default=UrlStatus.UNCHECKED)
    url_checked_at = models.DateTimeField("laatst gecontroleerd", null=True, blank=True)
    url_http_status = models.PositiveSmallIntegerField("HTTP-status", null=True, blank=True)
    url_final_url = models.URLField("eind-url", max_length=500, blank=True)
    url_failure_count = models.PositiveSmallIntegerField("opeenvolgende fouten", default=0)
    url_error = models.CharField("laatste fout", max_length=300, blank=True)
    # The URL check that holds this row (catalog.services.product_url_validate): a run id, and when it
    # started; started_at is cleared when the run has recorded its result.
    url_check_id = models.CharField(max_length=64, blank=True, editable=False)
    url_check_started_at = models.DateTimeField(null=True, blank=True, editable=False)

    is_active = models.BooleanField("actief", default=True)
    guidelines_curated = models.BooleanField(
        "richtlijnen gecureerd",
        default=False,
        help_text="Aangevinkt: alleen de richtlijndocumenten die aan dit product gekoppeld zijn (bij het document, "
        "'onderbouwt producten') worden geciteerd, en zonder koppeling niets. Uit: documenten en secties die de "
        "problemen van het product noemen.",
    )
    is_first_step = models.BooleanField(
        "breed eerste stap",
        default=False,
        help_text="Een veilige, brede eerste stap (zoals een vroegconsult of spreekuur) die het advies aanvult "
        "wanneer een situatie te weinig specifieke interventies oplevert.",
    )

    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    embedding_model = models.CharField(max_length=100, blank=True, editable=False)
    embedding_source_hash = models.CharField(max_length=64, blank=True, editable=False)
    embedded_at = models.DateTimeField("embedding bijgewerkt", null=True, blank=True, editable=False)
    search_vector = SearchVectorField(null=True, editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField("gewijzigd", auto_now=True)

    class Meta:
        verbose_name = "product"
        verbose_name_plural = "producten"
        ordering = ["name"]
        indexes = [
            HnswIndex(
                name="product_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(fields=["search_vector"], name="product_search_gin"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(url_status__in=UrlStatus.values), name="product_url_status_valid"
            ),
            models.CheckConstraint(condition=models.Q(phase__in=Phase.values), name="product_phase_valid"),
            models.CheckConstraint(condition=models.Q(category__in=Category.values), name="product_category_valid"),
            models.CheckConstraint(
                condition=models.Q(absence_weeks_min__isnull=True)
                | models.Q(absence_weeks_max__isnull=True)
                | models.Q(absence_weeks_min__lte=models.F("absence_weeks_max")),
                name="product_absence_window_ordered",
            ),
            models.CheckConstraint(
                condition=models.Q(price_from_eur__isnull=True)
                | models.Q(price_to_eur__isnull=True)
                | models.Q(price_from_eur__lte=models.F("price_to_eur")),
                name="product_price_range_ordered",
                violation_error_message="De prijs 'tot' mag niet lager zijn dan de prijs 'vanaf'.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ProductPosting(models.Model):
    """One lexeme of a product's `search_vector` with its occurrences per field (tsvector labels A–D).

    A derived index, written only by the database trigger of migration catalog.0008 whenever a
    product's search_vector changes: BM25F needs each shortlisted product's term frequencies per
    field, and unnesting 60 tsvectors per search cost 30–50 ms at 10,000 products, where a btree
    range scan per (product, query lexeme) costs a few (lexical.sql). PostgreSQL has no per-field
    BM25 of its own, and the BM25 extensions (pg_search, vchord_bm25) are not in the embedded server.
    """

    pk = models.CompositePrimaryKey("product", "lexeme")
    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="+", db_index=False)  # the primary key leads with it
    lexeme = models.TextField(db_collation="C")  # bytewise order, so a prefix is one index range
    a = models.PositiveIntegerField(default=0)
    b = models.PositiveIntegerField(default=0)
    c = models.PositiveIntegerField(default=0)
    d = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "productterm"
        verbose_name_plural = "producttermen"
