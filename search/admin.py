from dataclasses import asdict

from django.contrib import admin, messages
from django.db.models import Count

from jobs.queue import enqueue_on_commit
from search.models import (
    ApiToken,
    Citation,
    FeedbackVote,
    ProductAcceptance,
    RankingParameterSet,
    Recommendation,
    ReferenceJudgement,
    ReferenceQuestion,
    ReferenceQuestionPlace,
    ReferenceSituation,
    SearchLog,
)
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.score_criteria import CRITERIA
from search.services import ranking_version_activate
from search.tasks import refresh_reference_question_embeddings


class RecommendationInline(admin.TabularInline):
    model = Recommendation
    extra = 0
    can_delete = False
    fields = ("section", "rank", "product_name", "relevance_score", *(criterion.field for criterion in CRITERIA), "similarity", "feedback_multiplier", "url_status")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SearchLog)
class SearchLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "short_query", "mode", "ranker", "ranking_version", "fallback_reason", "candidate_count", "total_ms")
    list_filter = ("mode", "ranker", "ranking_version", "expanded", "hyde_used")
    search_fields = ("query",)
    date_hierarchy = "created_at"
    inlines = [RecommendationInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="zoekvraag")
    def short_query(self, log: SearchLog) -> str:
        return log.query[:80]

    @admin.display(description="totaal (ms)")
    def total_ms(self, log: SearchLog):
        return log.timings_ms.get("total")


@admin.register(FeedbackVote)
class FeedbackVoteAdmin(admin.ModelAdmin):
    list_display = ("updated_at", "user", "recommendation", "value", "comment")
    list_filter = ("value",)
    search_fields = ("comment", "recommendation__product_name")
    list_select_related = ("user", "recommendation")
    raw_id_fields = ("recommendation",)


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ("recommendation", "position", "document_title", "section", "score", "retrieved_at", "used_in_prompt")
    list_filter = ("used_in_prompt",)
    search_fields = ("document_title", "section", "content_sha256")
    raw_id_fields = ("recommendation", "chunk")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    readonly_fields = ("prefix", "created_at", "last_used_at")
    fields = ("user", "name", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False  # tokens are created with `manage.py create_api_token`, which shows the secret once


@admin.register(RankingParameterSet)
class RankingParameterSetAdmin(admin.ModelAdmin):
    """Versions come from `manage.py tune_ranker --save`; here they are compared, activated and rolled back."""

    list_display = (
        "__str__", "is_active", "created_at", "activated_at", "judged_situations", "vote_pairs",
        "held_out_ndcg", "baseline_ndcg", "held_out_pair_agreement", "baseline_pair_agreement", "search_count",
    )
    readonly_fields = (
        "is_active", "changes", "judged_situations", "vote_searches", "vote_pairs", "held_out_ndcg", "baseline_ndcg",
        "held_out_pair_agreement", "baseline_pair_agreement", "trials", "folds", "based_on", "created_at", "activated_at",
    )
    fields = readonly_fields
    actions = ["activate_selected", "use_built_in"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(searches_ranked=Count("searches"))

    @admin.display(description="zoekvragen gerankt", ordering="searches_ranked")
    def search_count(self, version: RankingParameterSet) -> int:
        return version.searches_ranked

    @admin.display(description="afwijkend van de ingebouwde parameters")
    def changes(self, version: RankingParameterSet) -> str:
        built_in = asdict(DEFAULT)
        differing = {name: value for name, value in version.values.items() if built_in.get(name) != value}
        return "; ".join(f"{name}: {built_in.get(name)} → {value}" for name, value in sorted(differing.items())) or "geen"

    @admin.action(description="Deze versie laten ranken (ook om terug te zetten)")
    def activate_selected(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Kies precies één versie om te activeren.", messages.ERROR)
            return
        version = queryset.get()
        ranking_version_activate(version_id=version.id)
        self.message_user(request, f"Versie {version.id} rankt vanaf de volgende zoekvraag.", messages.SUCCESS)

    @admin.action(description="Terug naar de ingebouwde parameters")
    def use_built_in(self, request, queryset):
        ranking_version_activate(version_id=None)
        self.message_user(request, "De ingebouwde parameters ranken vanaf de volgende zoekvraag.", messages.SUCCESS)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # searches keep pointing at the version that ranked them


class ReferenceJudgementInline(admin.TabularInline):
    model = ReferenceJudgement
    extra = 1
    autocomplete_fields = ("product",)


@admin.register(ReferenceSituation)
class ReferenceSituationAdmin(admin.ModelAdmin):
    """The judged situations stage 2 learns from: a change takes effect at the next search. One without judged
    products is a line judged to need no advice: searches much like it get none (search.pipeline.stage1)."""

    list_display = ("source", "external_id", "short_text", "judged_products", "needs_no_advice", "is_active", "updated_at")
    list_filter = ("source", "is_active")
    search_fields = ("text", "external_id", "judgements__product__name")
    inlines = [ReferenceJudgementInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(judged=Count("judgements"))

    @admin.display(description="situatie")
    def short_text(self, situation: ReferenceSituation) -> str:
        return situation.text[:100]

    @admin.display(description="beoordeelde producten", ordering="judged")
    def judged_products(self, situation: ReferenceSituation) -> int:
        return situation.judged

    @admin.display(description="geen advies (buiten het domein)", boolean=True)
    def needs_no_advice(self, situation: ReferenceSituation) -> bool:
        return not situation.judged


class ReferenceQuestionPlaceInline(admin.TabularInline):
    model = ReferenceQuestionPlace
    extra = 1


@admin.register(ReferenceQuestion)
class ReferenceQuestionAdmin(admin.ModelAdmin):
    """The judged guideline questions answers learn from: a change takes effect at the next question."""

    list_display = ("source", "external_id", "short_text", "place_list", "is_active", "updated_at")
    list_filter = ("source", "is_active")
    search_fields = ("text", "external_id", "places__document_title", "places__article")
    inlines = [ReferenceQuestionPlaceInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("places")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # its vector serves the vote of questions close in meaning (search.pipeline.question_votes)
        enqueue_on_commit(refresh_reference_question_embeddings)

    @admin.display(description="vindplaatsen")
    def place_list(self, question: ReferenceQuestion) -> str:
        """A question without a place is judged unanswerable: questions asked like it get no answer."""
        places = [f"{p.document_title} {p.article}" for p in question.places.all()]
        return "; ".join(places) or "geen: niet te beantwoorden uit het corpus"

    @admin.display(description="vraag")
    def short_text(self, question: ReferenceQuestion) -> str:
        return question.text[:100]


@admin.register(ProductAcceptance)
class ProductAcceptanceAdmin(admin.ModelAdmin):
    """Read-only: `calibrate_acceptance` (and the nightly task) write these counts by replaying the judged situations."""

    list_display = ("product", "source", "shown", "accepted", "computed_at")
    list_filter = ("source",)
    search_fields = ("product__name", "source")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
