from django.apps import AppConfig


class IndexingConfig(AppConfig):
    name = "indexing"
    verbose_name = "Indexering"

    def ready(self) -> None:
        from indexing import signals  # noqa: F401  (connects the re-indexing receivers)
