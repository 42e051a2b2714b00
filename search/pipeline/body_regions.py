"""Which part of the body a situation, a product or a guideline is about, in three broad regions.

A product named after body regions ("Rug- en schoudertrajecten") is for complaints there: for knee or
hip complaints it is the wrong track, however many words ("klachten", "pijn", "fysiek werk") it shares
with the situation. Three judged sets by different writers keep it out of the top 3 for knees and
hips. The regions are broad on purpose (spine, shoulder, arm and hand, leg), so "nek" and "rug" meet and a
general physiotherapy product, whose name names no region, is never damped. The shoulder is a region of its
own: of 131 judged situations with elbow, wrist, hand or RSI complaints and no back, neck or shoulder, none
grades the back-and-shoulder track and 9, by six writers, forbid it. Likewise a guideline
(or a section) on other regions than the situation's does not back a product in it.
"""

import functools
import re

# "rechterschouder", "linkerknie": the side is written as one word with the body part.
REGION_PATTERNS: tuple[tuple[str, re.Pattern], ...] = (
    ("rug en nek", re.compile(r"\b(?:rechter|linker)?(rug|lage[\s-]rug|nek|hernia|ischias|wervel|lumba)", re.IGNORECASE)),
    ("schouder", re.compile(r"\b(?:rechter|linker)?(schouder|frozen shoulder)", re.IGNORECASE)),
    (
        "arm en hand",
        re.compile(r"\b(?:rechter|linker)?(arm(en)?\b|armklacht|bovenarm|onderarm|muisarm|tennisarm|golfarm|elleboog|tenniselleboog|pols|hand(en)?\b|handklacht|vinger|duim|carpaal|rsi\b)", re.IGNORECASE),
    ),
    ("been en voet", re.compile(r"\b(?:rechter|linker)?(knie|heup|enkels?\b|enkelbreuk|enkelklacht|voet(en)?\b|voetklacht|been\b|benen\b|beenbreuk|kuit|achilles|meniscus|kruisband)", re.IGNORECASE)),
)

# Idioms with a body word that say nothing about the body ("aan de hand van", "uit de hand lopen").
IDIOMS = re.compile(r"\b(aan de hand|in de hand|uit de hand|hand in hand|op de hand|de hand boven het hoofd|voet bij stuk|op voet van|op staande voet|op de been|been stijf)", re.IGNORECASE)


def body_regions_named(text: str) -> list[str]:
    """The broad body regions a text names, in table order."""
    text = IDIOMS.sub(" ", text)
    return [region for region, pattern in REGION_PATTERNS if pattern.search(text)]


@functools.lru_cache(maxsize=4096)
def label_body_regions(label: str) -> tuple[str, ...]:
    """The regions a fixed label names: a product's name (only a name says the product is for those
    regions alone; descriptions and problem areas list examples) or a guideline's title and section."""
    return tuple(body_regions_named(label))


def on_other_body_regions(place: str, regions: list[str]) -> bool:
    """Whether a guideline place (title and section) is about other body regions than the situation's: the
    arm, neck and shoulder guideline does not back a track for knee complaints."""
    named = label_body_regions(place)
    return bool(regions and named and not set(named) & set(regions))
