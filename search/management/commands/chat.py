"""manage.py chat: situations and guideline questions, typed at a terminal or piped in."""

from django.core.management.base import BaseCommand

from search.chat.session import ChatSession


class Command(BaseCommand):
    help = "Interactieve Nederlandse terminal: typ een situatie voor interventies, /vraag voor de richtlijnen, /help voor de rest."

    def handle(self, *args, **options):
        ChatSession.for_terminal().run()
