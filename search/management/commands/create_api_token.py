"""manage.py create_api_token USERNAME [--name N]: a bearer token for the JSON API, shown once."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from search.services import api_token_create


class Command(BaseCommand):
    help = "Maak een API-token voor een gebruiker. De token wordt één keer getoond en niet opgeslagen."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="integratie", help="Waarvoor de token dient.")

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["username"], is_active=True).first()
        if user is None:
            raise CommandError(f"Geen actieve gebruiker '{options['username']}'.")
        api_token, token = api_token_create(user=user, name=options["name"])
        self.stdout.write(f"Token voor {user.username} ({api_token.name}):\n{token}\nBewaar hem nu: hij wordt niet opnieuw getoond.")
