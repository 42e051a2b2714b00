from django.contrib import admin, messages
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html

from guidelines.models import GuidelineChunk, GuidelineDocument, InterventionMapping
from guidelines.signals import chunk_reembed_requested


@admin.register(GuidelineDocument)
class GuidelineDocumentAdmin(admin.ModelAdmin):
    list_display = ("title", "source", "chunk_link", "ingested_at")
    list_filter = ("source",)
    search_fields = ("title", "summary")
    readonly_fields = ("content_hash", "ingested_at")
    filter_horizontal = ("products",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(chunk_count=Count("chunks"))

    @admin.display(description="passages", ordering="chunk_count")
    def chunk_link(self, document: GuidelineDocument):
        url = reverse("admin:guidelines_guidelinechunk_changelist") + f"?document__id__exact={document.id}"
        return format_html('<a href="{}">{}</a>', url, document.chunk_count)


@admin.register(GuidelineChunk)
class GuidelineChunkAdmin(admin.ModelAdmin):
    list_display = ("document", "ordinal", "section_path", "article", "token_count", "is_embedded")
    list_filter = ("document__source", "document")
    search_fields = ("section_path", "content", "article")
    list_select_related = ("document",)
    readonly_fields = ("token_count", "content_hash", "is_embedded")
    actions = ["reembed_selected"]

    @admin.display(description="embedding", boolean=True)
    def is_embedded(self, chunk: GuidelineChunk) -> bool:
        return chunk.embedding is not None

    @admin.action(description="Embedding opnieuw berekenen")
    def reembed_selected(self, request, queryset):
        ids = list(queryset.values_list("id", flat=True))
        chunk_reembed_requested.send(sender=GuidelineChunk, chunk_ids=ids)
        self.message_user(request, f"{len(ids)} passage(s) ingepland voor een nieuwe embedding.", messages.SUCCESS)


@admin.register(InterventionMapping)
class InterventionMappingAdmin(admin.ModelAdmin):
    list_display = ("problem_statement", "category", "intervention_type", "product_count")
    list_filter = ("category",)
    search_fields = ("problem_statement", "intervention_type", "keywords")
    filter_horizontal = ("products",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(product_count=Count("products"))

    @admin.display(description="producten", ordering="product_count")
    def product_count(self, mapping: InterventionMapping) -> int:
        return mapping.product_count
