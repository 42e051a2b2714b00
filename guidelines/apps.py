from django.apps import AppConfig


class GuidelinesConfig(AppConfig):
    name = "guidelines"
    verbose_name = "Richtlijnen en interventiewijzer"
