from django.apps import AppConfig


class GuidelinesConfig(AppConfig):
    name = "guidelines"
    verbose_name = "Richtlijnen en interventiewijzer"

    def ready(self) -> None:
        from lexical.vocabulary import vocabulary_source_register

        vocabulary_source_register(
            "wijzer",
            "SELECT problem_statement || ' ' || intervention_type || ' ' || array_to_string(keywords, ' ') FROM guidelines_interventionmapping",
        )
        vocabulary_source_register("guidelines", "SELECT title || ' ' || summary FROM guidelines_guidelinedocument")
