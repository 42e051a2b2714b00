"""manage.py create_demo_users: the demo specialist and admin accounts that `make run` prints."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_ACCOUNTS = (
    # (username, password, is_staff/superuser, description)
    ("specialist", "evi-demo-specialist", False, "specialist"),
    ("beheerder", "evi-demo-beheerder", True, "beheerder (admin)"),
)


class Command(BaseCommand):
    help = "Maak de demo-accounts aan (idempotent) en toon de inloggegevens."

    def handle(self, *args, **options):
        users = get_user_model()
        for username, password, is_admin, description in DEMO_ACCOUNTS:
            user, created = users.objects.get_or_create(username=username, defaults={"is_staff": is_admin, "is_superuser": is_admin})
            if created:
                user.set_password(password)
                user.save()
                self.stdout.write(f"Demo-{description}: gebruikersnaam '{username}', wachtwoord '{password}'")
            else:
                self.stdout.write(f"Demo-{description}: gebruikersnaam '{username}' wachtwoord '{password}' (tenzij sindsdien gewijzigd)")
