"""What the chat prints, as styled text fragments: cards with their citations and booking link,
guideline sources, help, health and errors. The console decides whether the styles become colours."""

from lexical.typos import corrections_note
from search.chat.commands import COMMANDS
from search.health import HealthReport
from search.pipeline.links import display_link
from search.pipeline.run import SearchOutcome
from search.pipeline.types import CitedChunk, Scored

Fragments = list[tuple[str, str]]

WELCOME = "EVI Interventiewijzer: typ een situatie voor passende interventies, of /help voor de commando's."
GOODBYE = "Tot ziens."
INTERRUPTED = "Afgebroken."
CANCELLED_LINE = "(Regel gewist; /exit of Ctrl-D om te stoppen.)"
SEARCHING = "Zoeken…"
SEARCHING_GUIDELINES = "Zoeken in de richtlijnen…"
FALLBACK_NOTE = "(Het samenvattende antwoord viel weg; dit zijn de letterlijke passages:)"
QUESTION_MISSING = "Typ uw vraag achter /vraag, bijvoorbeeld: /vraag Binnen welke termijn moet het plan van aanpak klaar zijn?"
DATABASE_DOWN = "De database antwoordt niet; probeer het zo opnieuw of kijk met /health."


def dutch_number(value: float, decimals: int = 2) -> str:
    return f"{value:.{decimals}f}".replace(".", ",")


def citation_line(citation: CitedChunk, number: int) -> str:
    """"[1] titel — sectie (bron)", the form of every source the chat prints."""
    summary = " · samenvatting" if citation.is_summary else ""
    return f"[{number}] {citation.document_title} — {citation.section or 'algemeen'} ({citation.source}){summary}"


def sources_fragments(citations: list[CitedChunk], indent: str = "") -> Fragments:
    fragments: Fragments = []
    for number, citation in enumerate(citations, start=1):
        fragments.append(("class:bron", f"{indent}{citation_line(citation, number)}\n"))
        if citation.url:
            fragments.append(("class:link", f"{indent}    {citation.url}\n"))
    return fragments


def card_fragments(item: Scored, rank: int) -> Fragments:
    """One recommendation: name and relevance, the reasoning, its guidelines and the booking link."""
    link = display_link(item.product)
    fragments: Fragments = [
        ("class:titel", f"\n{rank}. {item.product.name}"),
        ("class:zacht", f"  (relevantie {dutch_number(item.relevance)})\n"),
    ]
    if item.reasoning:
        fragments.append(("", f"   {item.reasoning}\n"))
    if item.citations:
        fragments.append(("class:kop", "   Richtlijnen:\n"))
        fragments += sources_fragments(item.citations, indent="     ")
    else:
        fragments.append(("class:zacht", "   Richtlijnen: geen passage gevonden die dit advies direct steunt.\n"))
    fragments.append(("class:kop", "   Boeken: "))
    fragments.append(("class:link", link.url))
    fragments.append(("class:melding", f"  {link.note}\n" if link.note else "\n"))
    return fragments


def outcome_fragments(outcome: SearchOutcome) -> Fragments:
    """A search as the chat shows it: what was understood, the cards, then notes and fallbacks."""
    understood = outcome.context.summary() or "geen verzuimduur, functie of sector herkend"
    total = outcome.timings_ms.get("total")
    timing = f" · {round(total)} ms" if total is not None else ""
    fragments: Fragments = [("class:zacht", f"Begrepen: {understood}{timing}\n")]
    if spelling := corrections_note(outcome.retrieval.get("spelling") or {}):
        fragments.append(("class:zacht", f"{spelling}\n"))
    if outcome.message:
        fragments.append(("class:melding", f"{outcome.message}\n"))
    for rank, item in enumerate(outcome.recommendations, start=1):
        fragments += card_fragments(item, rank)
    if outcome.workplace_suggestions:
        fragments.append(("class:kop", "\nPreventieve/werkplekoplossingen:\n"))
        for rank, item in enumerate(outcome.workplace_suggestions, start=1):
            fragments += card_fragments(item, rank)
    for note in (outcome.budget_note, outcome.note):
        if note:
            fragments.append(("class:melding", f"\n{note}\n"))
    if outcome.fallback_guidelines:
        fragments.append(("class:kop", "\nWel gevonden in de richtlijnen:\n"))
        fragments += sources_fragments(outcome.fallback_guidelines, indent="  ")
    return fragments


def answer_end_fragments(*, streamed: str, answer) -> Fragments:
    """After the streamed pieces: the fallback text when the final answer replaced them, then the sources."""
    fragments: Fragments = [("", "\n")]
    if spelling := corrections_note(answer.spelling):
        fragments.append(("class:zacht", f"{spelling}\n"))
    if answer.answer.strip() != streamed.strip():
        if answer.fallback_reason:
            fragments.append(("class:melding", f"\n{FALLBACK_NOTE}\n"))
        fragments.append(("", f"{answer.answer}\n"))
    if answer.citations:
        fragments.append(("class:kop", "\nBronnen:\n"))
        fragments += sources_fragments(answer.citations)
    return fragments


def help_fragments() -> Fragments:
    width = max(len(usage) for usage, _ in COMMANDS)
    fragments: Fragments = [
        ("", "Typ een situatie, bijvoorbeeld: Werknemer met burn-out klachten, 6 maanden verzuim, management functie\n"),
        ("", "en u krijgt de passende interventies met onderbouwing, richtlijnen en boekingslink.\n\n"),
    ]
    for usage, meaning in COMMANDS:
        fragments += [("class:kop", f"  {usage.ljust(width)}"), ("", f"  {meaning}\n")]
    fragments.append(("class:zacht", "\nPijltjestoetsen: eerdere invoer terughalen. Ctrl-C: regel of lopende zoekvraag afbreken.\n"))
    return fragments


def health_fragments(report: HealthReport) -> Fragments:
    def row(label: str, ok: bool, text: str) -> Fragments:
        return [("class:kop", f"{label}: "), ("class:goed" if ok else "class:fout", f"{text}\n")]

    if report.worker_heartbeat_s is not None:
        worker = f"actief (laatste hartslag {dutch_number(report.worker_heartbeat_s, 1)} s geleden)"
    elif report.redis_ok:
        worker = "geen hartslag: er draait geen worker (zoeken werkt wel)"
    else:
        worker = "onbekend zonder Redis"
    fragments = row("Database", report.database_ok, "bereikbaar" if report.database_ok else "niet bereikbaar")
    fragments += row("Redis", report.redis_ok, "bereikbaar" if report.redis_ok else "niet bereikbaar: achtergrondtaken draaien niet (zoeken werkt wel)")
    fragments += row("Workers", report.worker_heartbeat_s is not None, worker)
    if report.index is None:
        fragments += row("Embeddingmodel", False, "onbekend zonder database")
        return fragments
    loaded = "geladen" if report.model_loaded else "nog niet geladen (gebeurt bij de eerste zoekvraag)"
    fragments += row("Embeddingmodel", True, f"{report.index.active_model}, {loaded}")
    if report.index.reindexing:
        fragments += row("Herindexering", True, f"naar {report.index.target_model}, {report.index.done} van {report.index.total}")
    return fragments


def error_fragments(message: str) -> Fragments:
    return [("class:fout", f"{message}\n")]


def unknown_command_fragments(command: str) -> Fragments:
    return error_fragments(f"Onbekend commando {command}; typ /help voor de commando's.")
