"""The advice as a document: Markdown in the card format, ready to paste into a re-integratieverslag."""

from django.utils import timezone

from lexical.typos import corrections_note
from search.presentation import Card, Names, Results


def search_markdown(results: Results, *, names: Names) -> str:
    log = results.search
    lines = [
        "# Interventieadvies",
        "",
        f"- Datum: {timezone.localtime(log.created_at):%d-%m-%Y %H:%M}",
        f"- Situatie: {_one_line(log.query)}",
    ]
    if results.summary:
        lines.append(f"- Context: {results.summary}")
    if results.spelling:
        lines.append(f"- {corrections_note(results.spelling)}")
    lines += ["", f"## Werknemergerichte interventies voor {names.employee_label}", ""]
    if log.message:
        lines += [log.message, ""]
    for note in (log.note, log.budget_note):
        if note:
            lines += [f"> {note}", ""]
    for card in results.cards:
        lines += _card(card, names)
    if results.more:
        lines += ["## Overweeg eventueel ook", ""]
        for card in results.more:
            lines += _card(card, names)
    if results.workplace:
        lines += [f"## Preventieve/Werkplek Oplossingen voor {names.company_label}", ""]
        for card in results.workplace:
            lines += _card(card, names)
    lines.append("_Opgesteld met de EVI Interventiewijzer. Richtlijnen gemarkeerd als samenvatting zijn eigen samenvattingen, geen originele brontekst._")
    return "\n".join(lines) + "\n"


def _card(card: Card, names: Names) -> list[str]:
    lines = [f"### {card.rank}. {card.name}", "", _one_line(card.reasoning), ""]
    lines += [f"**Voordelen voor {names.employee_label}:** {_one_line(card.benefits_employee) or '—'}", ""]
    lines += [f"**Voordelen voor {names.company_label}:** {_one_line(card.benefits_employer) or '—'}", ""]
    lines += ["**Ondersteunende Nederlandse Richtlijnen:**", ""]
    if card.citations:
        for citation in card.citations:
            section = f", {citation.section}" if citation.section else ""
            summary = " (samenvatting)" if citation.is_summary else ""
            url = f" — {citation.url}" if citation.url else ""
            lines.append(f"- {citation.document_title}{section} ({citation.source}){summary}{url}")
            lines.append(f"  - {_provenance(citation)}")
    else:
        lines.append("- Geen passende richtlijnpassage gevonden.")
    note = f" {card.link.note}" if card.link.note else ""
    lines += ["", f"**Details & Boekingsinformatie:** {card.link.url}{note}", ""]
    return lines


def _provenance(citation) -> str:
    """Where the passage was read and which text it was, so a reader can check it has not changed since."""
    read = f"gelezen {timezone.localtime(citation.retrieved_at):%d-%m-%Y %H:%M}" if citation.retrieved_at else "leesmoment niet vastgelegd"
    fingerprint = f"sha256 {citation.content_sha256}" if citation.content_sha256 else "sha256 niet vastgelegd"
    shown = "ja" if citation.used_in_prompt else "nee"
    return f"Passage {citation.chunk_id}; {read}; {fingerprint}; aan taalmodel getoond: {shown}"


def _one_line(text: str) -> str:
    return " ".join((text or "").split())
