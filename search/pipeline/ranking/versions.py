"""Which stage-2 parameters rank now: the active version fitted by `tune_ranker`, else the built-in ones."""

import logging
from dataclasses import dataclass, fields, replace

from search.models import RankingParameterSet
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters

logger = logging.getLogger(__name__)

PARAMETER_NAMES = frozenset(field.name for field in fields(RankingParameters))


@dataclass(frozen=True)
class ActiveRanking:
    version_id: int | None  # None: the built-in parameters
    params: RankingParameters


def parameters_from_values(values: dict) -> RankingParameters:
    """The built-in parameters with a version's stored values on top; a name the code no longer has
    is skipped (and logged) rather than failing every search."""
    unknown = sorted(set(values) - PARAMETER_NAMES)
    if unknown:
        logger.warning("ranking version values name unknown parameters %s; ignoring them", unknown)
    return replace(DEFAULT, **{name: float(value) for name, value in values.items() if name in PARAMETER_NAMES})


def active_ranking() -> ActiveRanking:
    row = RankingParameterSet.objects.filter(is_active=True).values_list("id", "values").first()
    if row is None:
        return ActiveRanking(None, DEFAULT)
    return ActiveRanking(row[0], parameters_from_values(row[1]))
