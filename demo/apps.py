from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo commands (load_demo, create_demo_users) in one place a newcomer finds; no models."""

    name = "demo"
    verbose_name = "Demo"
