"""What every search did (SearchLog), what it recommended with which sources, and the specialists' votes."""

from django.conf import settings
from django.db import models
from pgvector.django import VectorField

from catalog.models import Product
from embeddings.constants import EMBEDDING_DIMENSIONS
from guidelines.models import GuidelineChunk


class SearchMode(models.TextChoices):
    TWO_STAGE = "two-stage", "Twee fasen"
    HYBRID = "hybrid", "Hybride"
    VECTOR = "vector", "Alleen vector"


class RankingParameterSet(models.Model):
    """A version of the stage-2 parameters fitted by `tune_ranker`, with what it was fitted on and how
    it scored on situations it was not fitted on. At most one is active; with none, the built-in
    parameters rank. Only the tunable values are stored: the rest follow the code."""

    values = models.JSONField("parameterwaarden", default=dict)
    is_active = models.BooleanField("actief", default=False)
    judged_situations = models.PositiveIntegerField("beoordeelde situaties")
    vote_pairs = models.PositiveIntegerField("voorkeursparen uit stemmen")
    vote_searches = models.PositiveIntegerField("zoekvragen met stemmen")
    held_out_ndcg = models.FloatField("nDCG@3 op niet-gebruikte situaties")
    baseline_ndcg = models.FloatField("nDCG@3 van de vorige parameters")
    held_out_pair_agreement = models.FloatField("voorkeuren gevolgd, niet-gebruikt", null=True, blank=True)
    baseline_pair_agreement = models.FloatField("voorkeuren gevolgd door de vorige", null=True, blank=True)
    trials = models.PositiveIntegerField("parametersets geprobeerd")
    folds = models.PositiveSmallIntegerField("vouwen")
    based_on = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name="gefit vanaf")
    created_at = models.DateTimeField("aangemaakt", auto_now_add=True)
    activated_at = models.DateTimeField("laatst geactiveerd", null=True, blank=True)

    class Meta:
        verbose_name = "rankingversie"
        verbose_name_plural = "rankingversies"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["is_active"], condition=models.Q(is_active=True), name="ranking_one_active_version"),
            models.CheckConstraint(condition=models.Q(held_out_ndcg__gte=0, held_out_ndcg__lte=1), name="ranking_ndcg_in_unit_interval"),
        ]

    def __str__(self) -> str:
        return f"versie {self.pk}"


class SearchLog(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="searches")
    query = models.TextField("zoekvraag")
    context = models.JSONField("context", default=dict, blank=True)
    mode = models.CharField("modus", max_length=20, choices=SearchMode.choices, default=SearchMode.TWO_STAGE)
    top_k = models.PositiveSmallIntegerField()
    ranker = models.CharField("ranker", max_length=20, blank=True)
    fallback_reason = models.CharField("terugvalreden", max_length=300, blank=True)
    candidate_count = models.PositiveIntegerField("kandidaten", default=0)
    canonical_count = models.PositiveIntegerField("na ontdubbelen", default=0)
    expanded = models.BooleanField("uitgebreid met interventiewijzer", default=False)
    hyde_used = models.BooleanField("HyDE gebruikt", default=False)
    note = models.CharField("notitie", max_length=300, blank=True)
    budget_note = models.CharField("budgetnotitie", max_length=200, blank=True)
    message = models.CharField("melding", max_length=300, blank=True)
    timings_ms = models.JSONField("tijden (ms)", default=dict, blank=True)
    retrieval = models.JSONField("ophalen (deelvragen, beoordeling, herschrijvingen)", default=dict, blank=True)
    # What the specialist filled in next to the text (role, sector, duration, budget), so the
    # search can be replayed with other parameters when its votes are learned from.
    request_fields = models.JSONField("velden van het formulier", default=dict, blank=True)
    ranking_version = models.ForeignKey(
        RankingParameterSet, on_delete=models.PROTECT, null=True, blank=True, related_name="searches",
        verbose_name="rankingversie",
    )
    created_at = models.DateTimeField("tijdstip", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "zoekvraag"
        verbose_name_plural = "zoekvragen"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"], name="searchlog_user_recent")]
        constraints = [
            models.CheckConstraint(condition=models.Q(mode__in=SearchMode.values), name="searchlog_mode_valid"),
        ]

    def __str__(self) -> str:
        return self.query[:80]


class Recommendation(models.Model):
    class Section(models.TextChoices):
        ADVICE = "advies", "Werknemergerichte interventies"
        WORKPLACE = "werkplek", "Preventieve/Werkplek oplossingen"

    search = models.ForeignKey(SearchLog, on_delete=models.CASCADE, related_name="recommendations")
    section = models.CharField("onderdeel", max_length=10, choices=Section.choices, default=Section.ADVICE)
    product = models.ForeignKey(Product, on_delete=models.SET_NULL, null=True, related_name="recommendations")
    product_name = models.CharField("product", max_length=200)
    rank = models.PositiveSmallIntegerField("positie")
    relevance_score = models.FloatField("relevantie")
    impact_score = models.FloatField("impact")
    fit_score = models.FloatField("passendheid")
    guidelines_score = models.FloatField("richtlijnen")
    feasibility_score = models.FloatField("haalbaarheid")
    similarity = models.FloatField("similariteit")
    feedback_multiplier = models.FloatField("feedbackfactor", default=1.0)
    reasoning = models.TextField("onderbouwing")
    url_shown = models.URLField("getoonde url", max_length=500)
    url_status = models.CharField("url-status bij zoeken", max_length=20)

    class Meta:
        verbose_name = "aanbeveling"
        verbose_name_plural = "aanbevelingen"
        ordering = ["search", "section", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["search", "section", "rank"], name="recommendation_unique_rank"),
            models.UniqueConstraint(fields=["search", "product"], name="recommendation_unique_product"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.product_name}"


class Citation(models.Model):
    """A guideline chunk cited for a recommendation: the provenance of the advice."""

    recommendation = models.ForeignKey(Recommendation, on_delete=models.CASCADE, related_name="citations")
    chunk = models.ForeignKey(GuidelineChunk, on_delete=models.SET_NULL, null=True, related_name="citations")
    position = models.PositiveSmallIntegerField("positie")
    score = models.FloatField("score")
    document_title = models.CharField("document", max_length=300)
    source = models.CharField("bron", max_length=100)
    section = models.CharField("sectie", max_length=500, blank=True)
    url = models.URLField(max_length=500, blank=True)
    # Provenance: when the search read the passage, which text it was (a later edit gives another
    # hash), and whether an LLM was shown it. Empty for citations stored before these were kept.
    retrieved_at = models.DateTimeField("gelezen op", null=True, blank=True)
    content_sha256 = models.CharField("sha256 van de passage", max_length=64, blank=True)
    used_in_prompt = models.BooleanField("aan taalmodel getoond", default=False)

    class Meta:
        verbose_name = "bronvermelding"
        verbose_name_plural = "bronvermeldingen"
        ordering = ["recommendation", "position"]
        constraints = [
            models.UniqueConstraint(fields=["recommendation", "position"], name="citation_unique_position"),
        ]


class FeedbackVote(models.Model):
    class Value(models.IntegerChoices):
        UP = 1, "👍"
        DOWN = -1, "👎"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="feedback_votes")
    recommendation = models.ForeignKey(Recommendation, on_delete=models.CASCADE, related_name="votes")
    value = models.SmallIntegerField("stem", choices=Value.choices)
    comment = models.CharField("toelichting", max_length=1000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "feedback"
        verbose_name_plural = "feedback"
        constraints = [
            models.UniqueConstraint(fields=["user", "recommendation"], name="vote_unique_per_user_recommendation"),
            models.CheckConstraint(condition=models.Q(value__in=[1, -1]), name="vote_value_plus_or_minus_one"),
        ]


class ApiToken(models.Model):
    """A bearer token for integrations; only its SHA-256 is stored, the token itself is shown once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField("omschrijving", max_length=100)
    prefix = models.CharField("begin van de token", max_length=8, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField("aangemaakt", auto_now_add=True)
    last_used_at = models.DateTimeField("laatst gebruikt", null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "API-token"
        verbose_name_plural = "API-tokens"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class ReferenceSituation(models.Model):
    """A situation a specialist judged: which products suit it and which must stay out of its top 3.

    Stage 2 lets the judgements of the situations most like a new one count towards its products'
    impact (search.pipeline.precedents). Loaded from the judged sets (`load_reference_situations`,
    `load_demo`) and curated in the admin.
    """

    source = models.CharField("bron", max_length=100, help_text="De beoordeelde set (bestandsnaam) waar de situatie uit komt.")
    external_id = models.CharField("kenmerk", max_length=100)
    text = models.TextField("situatie")
    is_active = models.BooleanField("actief", default=True)
    created_at = models.DateTimeField("aangemaakt", auto_now_add=True)
    updated_at = models.DateTimeField("bijgewerkt", auto_now=True)

    class Meta:
        verbose_name = "beoordeelde situatie"
        verbose_name_plural = "beoordeelde situaties"
        ordering = ["source", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "external_id"], name="reference_unique_source_id"),
            models.CheckConstraint(condition=~models.Q(text=""), name="reference_text_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.source} {self.external_id}"


class ReferenceJudgement(models.Model):
    class Grade(models.IntegerChoices):
        IDEAL = 2, "ideaal"
        ACCEPTABLE = 1, "passend"
        FORBIDDEN = -1, "hoort niet in de top 3"

    situation = models.ForeignKey(ReferenceSituation, on_delete=models.CASCADE, related_name="judgements")
    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="reference_judgements", verbose_name="product")
    grade = models.SmallIntegerField("oordeel", choices=Grade.choices)

    class Meta:
        verbose_name = "oordeel"
        verbose_name_plural = "oordelen"
        constraints = [
            models.UniqueConstraint(fields=["situation", "product"], name="judgement_unique_product"),
            models.CheckConstraint(condition=models.Q(grade__in=[2, 1, -1]), name="judgement_grade_known"),
        ]

    def __str__(self) -> str:
        return f"{self.product} ({self.get_grade_display()})"


class ReferenceQuestion(models.Model):
    """A guideline question a specialist judged: which article of which regulation answers it.

    Guideline answers let the places that answer the most similar judged questions count towards a
    passage's rank (search.pipeline.passages), and towards whether to answer: a question without a
    place is one the corpus cannot answer, and questions asked like it are not answered either.
    """

    source = models.CharField("bron", max_length=100, help_text="De beoordeelde set (bestandsnaam) waar de vraag uit komt.")
    external_id = models.CharField("kenmerk", max_length=100)
    text = models.TextField("vraag")
    is_active = models.BooleanField("actief", default=True)
    # The question's own vector, so a new question can ask the judged ones closest in meaning whether the
    # corpus answered them (search.pipeline.question_votes); the hash says which text and model it is of.
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True, editable=False)
    embedding_model = models.CharField(max_length=100, blank=True, editable=False)
    embedding_source_hash = models.CharField(max_length=64, blank=True, editable=False)
    created_at = models.DateTimeField("aangemaakt", auto_now_add=True)
    updated_at = models.DateTimeField("bijgewerkt", auto_now=True)

    class Meta:
        verbose_name = "beoordeelde richtlijnvraag"
        verbose_name_plural = "beoordeelde richtlijnvragen"
        ordering = ["source", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "external_id"], name="reference_question_unique_source_id"),
            models.CheckConstraint(condition=~models.Q(text=""), name="reference_question_text_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.source} {self.external_id}"


class ReferenceQuestionPlace(models.Model):
    question = models.ForeignKey(ReferenceQuestion, on_delete=models.CASCADE, related_name="places")
    document_title = models.CharField("document", max_length=300, help_text="De titel van de richtlijn of wet, zoals ingelezen.")
    article = models.CharField("artikel", max_length=50)

    class Meta:
        verbose_name = "vindplaats"
        verbose_name_plural = "vindplaatsen"
        constraints = [
            models.UniqueConstraint(fields=["question", "document_title", "article"], name="reference_place_unique"),
            models.CheckConstraint(condition=~models.Q(article="") & ~models.Q(document_title=""), name="reference_place_named"),
        ]

    def __str__(self) -> str:
        return f"{self.document_title}, artikel {self.article}"


class ProductAcceptance(models.Model):
    """How often the specialists of one judged set accepted a product when the ranking showed it.

    `calibrate_acceptance` replays every judged situation (without its own set's examples) and counts,
    per product and set, the top-3 places it got and how many of those the set judged suitable. A
    product shown far more often than it is chosen (a broad one that matches many words) then counts
    a little less in impact; one that is nearly always right when shown, a little more
    (search.pipeline.acceptance).
    """

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="acceptance", verbose_name="product")
    source = models.CharField("bron", max_length=100, help_text="De beoordeelde set waarvan de situaties zijn nagespeeld.")
    shown = models.PositiveIntegerField("in de top 3")
    accepted = models.PositiveIntegerField("daarvan passend")
    computed_at = models.DateTimeField("berekend", auto_now=True)

    class Meta:
        verbose_name = "acceptatie van een product"
        verbose_name_plural = "acceptatie per product"
        ordering = ["product__name", "source"]
        constraints = [
            models.UniqueConstraint(fields=["product", "source"], name="acceptance_unique_product_source"),
            models.CheckConstraint(condition=models.Q(accepted__lte=models.F("shown")), name="acceptance_at_most_shown"),
        ]

    def __str__(self) -> str:
        return f"{self.product} in {self.source}: {self.accepted}/{self.shown}"
