from django.apps import AppConfig


class InsightConfig(AppConfig):
    name = "insight"
    verbose_name = "Inzicht"
