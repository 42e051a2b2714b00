import pytest
from django.core.management import CommandError, call_command

from conftest import shared_path
from guidelines.models import GuidelineChunk, GuidelineDocument

pytestmark = pytest.mark.django_db

LAW_FILES = {
    "arbeidsomstandighedenwet_BWBR0010346.md": ("Arbeidsomstandighedenwet", "Arbowet", {"3", "5", "13", "14"}),
    "arbeidsomstandighedenbesluit_BWBR0008498.md": ("Arbeidsomstandighedenbesluit", "Arbobesluit", {"2.15", "5.2", "5.8"}),
    "arbeidstijdenwet_BWBR0007671.md": ("Arbeidstijdenwet", "Arbeidstijdenwet", {"5:8", "5:7"}),
    "regeling_procesgang_eerste_ziektejaar_BWBR0013540.md": ("Regeling procesgang eerste ziektejaar", "Wet verbetering poortwachter", {"2", "4", "6"}),
    "beleidsregels_beoordelingskader_poortwachter_BWBR0014375.md": ("Beleidsregels beoordelingskader poortwachter", "UWV", {"1", "2"}),
    "wet_verbetering_poortwachter_BWBR0013063.md": ("Wet verbetering poortwachter", "Wet verbetering poortwachter", {"I", "VII"}),
}


def _ingest(path, title, source, *extra):
    call_command("ingest_guidelines", str(path), "--title", title, "--source", source, *extra, verbosity=0)


@pytest.mark.shared
@pytest.mark.parametrize("filename", sorted(LAW_FILES))
def test_it_ingests_each_real_law_text_at_article_level(filename):
    title, source, articles = LAW_FILES[filename]
    _ingest(shared_path("corpus", "wetten", filename), title, source)
    chunks = GuidelineChunk.objects.filter(document__title=title)
    assert articles <= set(chunks.values_list("article", flat=True))
    for article in articles:
        chunk = chunks.filter(article=article).first()
        assert f"Artikel {article}" in chunk.section_path
    assert not chunks.filter(content__contains="<meta").exists()
    assert not chunks.filter(content__contains="](").exists()
    assert not chunks.filter(embedding=None).exists()


@pytest.mark.shared
def test_it_ingests_the_same_file_twice_without_duplicates():
    path = shared_path("corpus", "wetten", "regeling_procesgang_eerste_ziektejaar_BWBR0013540.md")
    _ingest(path, "Regeling procesgang eerste ziektejaar", "Wet verbetering poortwachter")
    ids = list(GuidelineChunk.objects.filter(document__title="Regeling procesgang eerste ziektejaar").values_list("id", flat=True))
    _ingest(path, "Regeling procesgang eerste ziektejaar", "Wet verbetering poortwachter")
    assert list(GuidelineChunk.objects.filter(document__title="Regeling procesgang eerste ziektejaar").values_list("id", flat=True)) == ids


def test_it_replaces_a_document_only_with_replace(tmp_path):
    path = tmp_path / "regels.md"
    path.write_text("## Artikel 1\n\nOude tekst over verzuim.\n", encoding="utf-8")
    _ingest(path, "Testregels", "Test")
    path.write_text("## Artikel 1\n\nNieuwe tekst over verzuim.\n\n## Artikel 2\n\nMeer.\n", encoding="utf-8")
    with pytest.raises(CommandError, match="--replace"):
        _ingest(path, "Testregels", "Test")
    assert GuidelineChunk.objects.get(document__title="Testregels").content == "Oude tekst over verzuim."
    _ingest(path, "Testregels", "Test", "--replace")
    assert list(GuidelineChunk.objects.filter(document__title="Testregels").values_list("article", "content")) == [
        ("1", "Nieuwe tekst over verzuim."),
        ("2", "Meer."),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "Bestand niet gevonden"),
        (b"", "Bestand is leeg"),
        (b"   \n\n ", "Bestand is leeg"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "Binair bestand"),
        ("Ziekteverzuim en re-integratie".encode("utf-16"), "Binair bestand|geen geldige UTF-8"),
        ("Artikel 1: de werkgever zorgt voor veilige arbeid en re-integratie".encode("cp1252") + b"\xe9\xe8", "geen geldige UTF-8"),
    ],
)
def test_it_rejects_bad_input_with_a_dutch_error_naming_the_file_and_writes_nothing(tmp_path, content, message):
    path = tmp_path / "richtlijn.md"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError, match=message) as error:
        _ingest(path, "Kapotte richtlijn", "Test")
    assert "richtlijn.md" in str(error.value)
    assert not GuidelineDocument.objects.filter(title="Kapotte richtlijn").exists()


def test_it_requires_a_title_and_source():
    from guidelines.services import IngestionError, document_ingest

    with pytest.raises(IngestionError, match="bron is verplicht"):
        document_ingest(title="X", source="  ", texts=["## A\n\nB"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"title": "T" * 301}, "titel is te lang"),
        ({"source": "B" * 101}, "bron is te lang"),
        ({"url": "https://example.nl/" + "x" * 500}, "url is te lang"),
        ({"url": "javascript:alert(1)"}, "geen http"),
        ({"url": "file:///etc/passwd"}, "geen http"),
    ],
)
def test_it_refuses_bad_metadata_in_dutch_before_writing_anything(tmp_path, options, message):
    path = tmp_path / "richtlijn.md"
    path.write_text("## Artikel 1\n\nDe werkgever zorgt voor veilige arbeid.", encoding="utf-8")
    args = {"title": "Nette titel", "source": "Test", **options}
    extra = ["--url", args["url"]] if "url" in args else []
    with pytest.raises(CommandError, match=message):
        call_command("ingest_guidelines", str(path), "--title", args["title"], "--source", args["source"], *extra, verbosity=0)
    assert not GuidelineDocument.objects.filter(title__in=["Nette titel", args["title"]]).exists()


def test_it_strips_control_characters_and_refuses_huge_files(tmp_path, settings, monkeypatch):
    path = tmp_path / "richtlijn.md"
    path.write_text("## Artikel 1\x07\n\nDe werkgever\x1b zorgt voor veilige arbeid.", encoding="utf-8")
    call_command("ingest_guidelines", str(path), "--title", "Met\x07stuurtekens", "--source", "Test", verbosity=0)
    document = GuidelineDocument.objects.get(title="Met stuurtekens")
    assert not any("\x07" in c.content or "\x1b" in c.content or "\x07" in c.section_path for c in document.chunks.all())

    settings.GUIDELINE_MAX_FILE_MB = 0.00001  # 10 bytes
    with pytest.raises(CommandError, match=r"te groot .*maximaal 1e-05 MB, instelling GUIDELINE_MAX_FILE_MB"):
        call_command("ingest_guidelines", str(path), "--title", "Groot", "--source", "Test", verbosity=0)
