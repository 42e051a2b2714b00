from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalogus"

    def ready(self) -> None:
        from catalog import signals  # noqa: F401  (connects the URL-check receivers)
