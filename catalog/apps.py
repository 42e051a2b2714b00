from django.apps import AppConfig


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalogus"

    def ready(self) -> None:
        from lexical.vocabulary import vocabulary_source_register

        vocabulary_source_register(
            "catalog",
            "SELECT name || ' ' || array_to_string(problem_areas, ' ') || ' ' || description FROM catalog_product WHERE is_active",
        )
