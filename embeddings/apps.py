from django.apps import AppConfig


class EmbeddingsConfig(AppConfig):
    name = "embeddings"
    verbose_name = "Embeddings"

    def ready(self) -> None:
        from embeddings import signals  # noqa: F401  (connects the re-indexing receivers)
