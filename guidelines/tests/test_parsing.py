import re
from pathlib import Path

import pytest

from guidelines.parsing import MAX_SECTION_WORDS, clean_inline, parse_sections

HEADING_STYLES = [
    ("### Artikel  3  \n\nDe werkgever zorgt.", "3"),
    ("###Artikel 13 \n\nDeskundige bijstand.", "13"),
    ("## Artikel 2.15\n\nAgressie en geweld.", "2.15"),
    ("#### Artikel 5:8 \n\nNachtdienst.", "5:8"),
    ("### Artikel 14a\n\nArbodienst.", "14a"),
    ("### Artikel  VII  \n\nWijzigt de Arbowet.", "VII"),
    ("### Artikel 5.8 — Onderbreking van beeldschermwerk\n\nPauzes.", "5.8"),
]


@pytest.mark.parametrize(("text", "article"), HEADING_STYLES)
def test_it_recognises_law_articles_in_any_heading_style(text, article):
    [section] = parse_sections(text)
    assert section.article == article
    assert section.path.startswith(f"Artikel {article}")


def test_it_takes_the_title_line_before_an_article_as_its_title():
    text = "### Hoofdstuk  2  \n\n####Arbeidsomstandighedenbeleid \n\n####Arbobeleid \n\n### Artikel  3  \n\n1. De werkgever zorgt."
    [section] = parse_sections(text)
    assert section.path == "Hoofdstuk 2 – Arbeidsomstandighedenbeleid > Artikel 3 – Arbobeleid"


def test_it_takes_the_title_line_after_an_article_as_its_title():
    text = "### Afdeling  4  \n\n####Psychosociale arbeidsbelasting\n\n### Artikel  2.15  \n\n####Maatregelen\n\n1. Beleid."
    [section] = parse_sections(text)
    assert section.path == "Afdeling 4 – Psychosociale arbeidsbelasting > Artikel 2.15 – Maatregelen"


def test_it_nests_text_headings_under_bare_numbered_sections():
    text = "### Bijlage\n\n####Kader\n\n### 3 \n\n####Uitgangspunten\n\n###Redelijkheid\n\nRedelijk handelen.\n\n### 4 \n\nAspecten."
    sections = parse_sections(text)
    assert [s.path for s in sections] == ["Bijlage – Kader > 3 – Uitgangspunten > Redelijkheid", "Bijlage – Kader > 4"]


def test_it_keeps_plain_markdown_sections_with_their_chapter():
    text = "# Richtlijn\n\n## 2 Diagnostiek\n\nIntro.\n\n### 2.1 Signalen\n\nVermoeidheid.\n\n### 2.2 Gesprek\n\nVragen."
    assert [s.path for s in parse_sections(text)] == ["2 Diagnostiek", "2 Diagnostiek > 2.1 Signalen", "2 Diagnostiek > 2.2 Gesprek"]


def test_it_strips_html_footnotes_and_links():
    cleaned = clean_inline("Zie de [WAO](../../wet/README.md)<sup>1De WAO blijft</sup> en <b>dit</b> &amp; dat")
    assert cleaned == "Zie de WAO [noot 1: De WAO blijft] en dit & dat"


def test_it_drops_meta_lines_and_splits_long_articles_with_overlap():
    sentence = "De werkgever voert een beleid gericht op goede arbeidsomstandigheden. "
    text = "<meta charset='utf-8' />\n### Artikel 3\n\n" + sentence * 120
    sections = parse_sections(text)
    assert len(sections) >= 3
    assert all(s.article == "3" and "<meta" not in s.text for s in sections)
    assert all(len(s.text.split()) <= MAX_SECTION_WORDS + 20 for s in sections)
    assert sections[0].text[-60:] in sections[1].text  # consecutive parts overlap


def test_it_closes_an_article_at_the_next_numbered_chapter():
    text = "# Gids\n\n## 2 Onderbreking\n\n### Artikel 5.8 — Pauzes\n\nNa twee uur.\n\n## 3 Inrichting\n\nIntro.\n\n### 3.2 Het beeldscherm\n\nOoghoogte."
    assert [(s.path, s.article) for s in parse_sections(text)] == [
        ("2 Onderbreking > Artikel 5.8 – Pauzes", "5.8"),
        ("3 Inrichting", ""),
        ("3 Inrichting > 3.2 Het beeldscherm", ""),
    ]


DEMO_CORPUS = Path(__file__).resolve().parents[2] / "demo" / "data" / "corpus"
_CHAPTER_AFTER_ARTICLE = re.compile(r"Artikel [^>]*> \d+(\.\d+)* [^\W\d]")


@pytest.mark.parametrize("path", sorted(DEMO_CORPUS.glob("*.md")), ids=lambda p: p.name)
def test_it_never_nests_a_chapter_of_the_demo_corpus_under_an_article(path):
    sections = parse_sections(path.read_text(encoding="utf-8"))
    assert sections
    misplaced = [s.path for s in sections if _CHAPTER_AFTER_ARTICLE.search(s.path)]
    assert misplaced == []
    for section in sections:
        chapter = re.match(r"(\d+) ", section.path)
        subsection = re.search(r"> (\d+)\.\d+ ", section.path)
        if chapter and subsection:
            assert subsection.group(1) == chapter.group(1), section.path  # "3.2 …" sits under "3 …"
