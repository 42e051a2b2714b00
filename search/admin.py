from django.contrib import admin

from search.models import ApiToken, Citation, FeedbackVote, Recommendation, SearchLog
from search.pipeline.score_criteria import CRITERIA


class RecommendationInline(admin.TabularInline):
    model = Recommendation
    extra = 0
    can_delete = False
    fields = ("rank", "product_name", "relevance_score", *(criterion.field for criterion in CRITERIA), "similarity", "feedback_multiplier", "url_status")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SearchLog)
class SearchLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "short_query", "mode", "ranker", "fallback_reason", "candidate_count", "total_ms")
    list_filter = ("mode", "ranker", "expanded", "hyde_used")
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
    list_display = ("recommendation", "position", "document_title", "section", "score")
    search_fields = ("document_title", "section")
    raw_id_fields = ("recommendation", "chunk")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at")
    readonly_fields = ("prefix", "created_at", "last_used_at")
    fields = ("user", "name", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False  # tokens are created with `manage.py create_api_token`, which shows the secret once
