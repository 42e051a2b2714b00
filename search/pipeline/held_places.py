"""Which places of judged guideline questions the corpus holds: a judged question in nearly the same words is
evidence that the corpus answers a new one only through those (search.pipeline.precedents).

A judged law question names the law it was answered from ("Arbeidsomstandighedenwet", article 5). Where that
law is not ingested (the demo corpus holds only the team's summaries), the question is no evidence that this
corpus answers its subject: "werken op hoogte" shares its words with judged questions about falling hazards
that the Arbobesluit answers, and with only the demo corpus it was answered from office-chair passages
(issue 8). A summary of the team's that explains an article of the same number ("Artikel 5 –
Risico-inventarisatie" in the Arbowet summary) still holds the place: the summaries name the articles they
explain (search.pipeline.passages). Article numbers of two laws can coincide; that errs towards the judged
question, as before this rule.

The vote of the judged questions closest in meaning (search.pipeline.question_votes) keeps all of them:
leaving the unheld ones out there too kept 21 instead of 14 of 258 answerable guideline questions silent on
the demo corpus, against 13 without either rule (docs/measurements.md, twenty-fifth session).
"""

from dataclasses import dataclass

from guidelines.models import GuidelineChunk, GuidelineDocument


@dataclass(frozen=True)
class HeldPlaces:
    titles: frozenset[str]  # the documents the corpus holds
    summarised: frozenset[str]  # the article numbers its summaries explain

    def holds(self, title: str, article: str) -> bool:
        return title in self.titles or article in self.summarised


def held_places() -> HeldPlaces:
    return HeldPlaces(
        frozenset(GuidelineDocument.objects.values_list("title", flat=True)),
        frozenset(GuidelineChunk.objects.filter(document__is_summary=True).exclude(article="").values_list("article", flat=True)),
    )
