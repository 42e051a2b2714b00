from django.contrib import admin, messages
from django.utils.html import format_html

from catalog.models import Product
from catalog.services import product_save
from catalog.signals import product_reindex_requested
from catalog.tasks import validate_product_url
from jobs.queue import enqueue


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ("name", "category", "phase", "audience", "url_status_badge", "url_checked_at", "url_http_status", "url_failure_count", "is_indexed", "is_active", "updated_at")
    list_filter = ("category", "phase", "audience", "url_status", "delivery", "is_active", "is_first_step")
    search_fields = ("name", "description", "problem_areas")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("url_status", "url_checked_at", "url_http_status", "url_final_url", "url_failure_count", "url_error", "embedded_at", "is_indexed", "created_at", "updated_at")
    actions = ["reindex_selected", "validate_urls_selected"]
    fieldsets = (
        (None, {"fields": ("name", "slug", "portal_id", "is_active", "is_first_step", "description")}),
        ("Indeling", {"fields": ("category", "phase", "audience", "problem_areas", "absence_weeks_min", "absence_weeks_max", "target_roles", "sectors")}),
        ("Uitvoering", {"fields": ("delivery", "typical_duration", "time_to_start_days", "price_text", "price_from_eur", "price_to_eur")}),
        ("Voordelen", {"fields": ("benefits_employee", "benefits_employer")}),
        ("Onderbouwing", {"fields": ("guidelines_curated",)}),
        ("Link", {"fields": ("url", "url_status", "url_checked_at", "url_http_status", "url_final_url", "url_failure_count", "url_error")}),
        ("Zoekindex", {"fields": ("is_indexed", "embedded_at", "created_at", "updated_at")}),
    )

    def save_model(self, request, obj, form, change):
        product_save(product=obj, changed_fields=form.changed_data if change else None)

    @admin.display(description="url-status", ordering="url_status")
    def url_status_badge(self, product: Product):
        # Colours live in static/css/admin.css: the Content-Security-Policy allows no inline styles.
        return format_html('<span class="url-status url-status-{}">{}</span>', product.url_status, product.get_url_status_display())

    @admin.display(description="geïndexeerd", boolean=True)
    def is_indexed(self, product: Product) -> bool:
        return product.embedding is not None

    @admin.action(description="Zoekindex (embedding) opnieuw opbouwen")
    def reindex_selected(self, request, queryset):
        ids = list(queryset.values_list("id", flat=True))
        product_reindex_requested.send(sender=Product, product_ids=ids)
        self.message_user(request, f"Herindexering van {len(ids)} product(en) ingepland.", messages.SUCCESS)

    @admin.action(description="Valideer URL's")
    def validate_urls_selected(self, request, queryset):
        ids = list(queryset.exclude(url="").values_list("id", flat=True))
        for product_id in ids:
            enqueue(validate_product_url, product_id)
        message = f"URL-controle van {len(ids)} product(en) ingepland."
        skipped = queryset.filter(url="").count()
        if skipped:
            message += f" {skipped} product(en) zonder url overgeslagen."
        self.message_user(request, message, messages.SUCCESS)
