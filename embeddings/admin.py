"""The search index's model and re-index progress, read-only: a re-index is started with the command."""

from django.contrib import admin

from embeddings.models import EmbeddingIndex


@admin.register(EmbeddingIndex)
class EmbeddingIndexAdmin(admin.ModelAdmin):
    list_display = ("active_model", "target_model", "progress", "updated_at", "error")
    readonly_fields = ("active_model", "target_model", "progress", "total", "done", "started_at", "updated_at", "finished_at", "error")
    fields = readonly_fields

    @admin.display(description="voortgang")
    def progress(self, index: EmbeddingIndex) -> str:
        if not index.target_model:
            return "geen herindexering bezig"
        return f"{index.done} van {index.total} ({int(100 * index.done / index.total) if index.total else 0}%)"

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
