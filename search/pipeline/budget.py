"""A budget in euros, from the form field or from the situation text ("tot € 500", "budget 2.500")."""

import re

from search.pipeline.errors import SearchInputError

# Dutch amounts: "2.500", "2500", "2.500,-", "1.250,50", "€2500"; thousands with a dot, cents with a comma.
_AMOUNT = r"(\d{1,3}(?:\.\d{3})+|\d+)(?:,(?:\d{1,2}|-))?"
# In the situation text an amount is a budget only next to a budget word, so "schulden van € 20.000"
# or "6 maanden" never become one.
_IN_TEXT = (
    re.compile(rf"\b\w*budget\w*\s*(?:van|is|:|=)?\s*(?:maximaal\s*|max\.?\s*)?(?:€|eur\b|euro\b)?\s*{_AMOUNT}", re.IGNORECASE),
    re.compile(
        rf"\b(?:tot|maximaal|max\.?|hooguit|hoogstens|niet meer dan|onder|binnen)\s*(?:de\s*|een\s*)?(?:€|eur\b|euro\b)\s*{_AMOUNT}",
        re.IGNORECASE,
    ),
    re.compile(rf"\b(?:tot|maximaal|max\.?|hooguit|hoogstens|niet meer dan|onder|binnen)\s*{_AMOUNT}\s*(?:euro|eur)\b", re.IGNORECASE),
)
_IN_FIELD = re.compile(rf"(?:€\s*)?{_AMOUNT}")
MAX_BUDGET_EUR = 10_000_000


def budget_from_field(text: str) -> int | None:
    """The budget field: empty is no budget; anything else must hold one amount in euros."""
    text = text.strip()
    if not text:
        return None
    match = _IN_FIELD.search(text)
    if match is None:
        raise SearchInputError(f"Budget '{text}' is geen bedrag; vul een bedrag in euro's in, bijvoorbeeld 'tot € 2.500'.")
    return _euros(match.group(1))


def budget_from_text(text: str) -> int | None:
    """The first amount the situation names as a budget, or None."""
    found = [match for pattern in _IN_TEXT for match in pattern.finditer(text)]
    if not found:
        return None
    return _euros(min(found, key=lambda match: match.start()).group(1))


def format_eur(amount: int) -> str:
    """Dutch notation: € 2.500."""
    return "€ " + f"{amount:,}".replace(",", ".")


def _euros(digits: str) -> int:
    amount = int(digits.replace(".", ""))
    if amount > MAX_BUDGET_EUR:
        raise SearchInputError(f"Een budget van {format_eur(amount)} is niet realistisch; controleer het bedrag.")
    return amount


def within_budget(price_from_eur: int | None, budget_eur: int | None) -> bool | None:
    """Whether the product's lowest price fits; None when either is unknown."""
    if price_from_eur is None or budget_eur is None:
        return None
    return price_from_eur <= budget_eur


def over_budget_note(count: int, budget_eur: int) -> str:
    if count == 1:
        return f"1 interventie valt buiten het budget van {format_eur(budget_eur)}."
    return f"{count} interventies vallen buiten het budget van {format_eur(budget_eur)}."
