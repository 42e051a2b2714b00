"""An answer cites at most two paragraphs of one appendix chapter, so another regulation's article gets a place."""

from search.answers import PER_CHAPTER
from search.pipeline.passages import PassageRetrieval, chapter
from search.pipeline.types import CitedChunk

FRAMEWORK = "Beleidsregels beoordelingskader poortwachter"
APPENDIX = "Bijlage – Kader voor inzet en beoordeling van re-integratie-inspanningen"


def _passage(number: int, title: str, section: str, article: str = "") -> CitedChunk:
    return CitedChunk(number, title, "UWV", section, "https://wetten.overheid.nl/", 0.5, f"tekst {number}", article)


def _retrieval() -> PassageRetrieval:
    return PassageRetrieval(
        passages=[
            _passage(1, FRAMEWORK, f"{APPENDIX} > 5 – Beoordeling re-integratieverslag > Evaluatie en bijstelling plan van aanpak"),
            _passage(2, FRAMEWORK, f"{APPENDIX} > 5 – Beoordeling re-integratieverslag > Eerstejaarsevaluatie (opschudmoment)"),
            _passage(3, FRAMEWORK, f"{APPENDIX} > 5 – Beoordeling re-integratieverslag > Probleemanalyse en advies"),
            _passage(4, FRAMEWORK, f"{APPENDIX} > 7 – Medische aspecten bij re-integratie > 7.4 > Relatie"),
            _passage(5, FRAMEWORK, f"{APPENDIX} > 5 – Beoordeling re-integratieverslag > Plan van aanpak"),
            _passage(6, "Regeling procesgang eerste ziektejaar", "Artikel 4", "4"),
            _passage(7, "Arbeidsomstandighedenbesluit", "Artikel 5.2", "5.2"),
        ]
    )


def test_it_names_the_chapter_of_an_appendix_paragraph_and_the_article_of_an_article():
    assert chapter(_passage(1, FRAMEWORK, f"{APPENDIX} > 5 – Beoordeling re-integratieverslag > Plan van aanpak")) == f"{APPENDIX} > 5 – Beoordeling re-integratieverslag"
    assert chapter(_passage(6, "Regeling procesgang eerste ziektejaar", "Artikel 4", "4")) == "4"


def test_it_keeps_a_third_paragraph_of_one_chapter_out_of_the_answer():
    assert PER_CHAPTER == 2
    chosen = [p.chunk_id for p in _retrieval().best(5, per_chapter=PER_CHAPTER)]
    assert chosen == [1, 2, 4, 6, 7]


def test_it_keeps_every_paragraph_without_a_cap():
    assert [p.chunk_id for p in _retrieval().best(5)] == [1, 2, 3, 4, 5]
