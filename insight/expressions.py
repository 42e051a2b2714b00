"""PostgreSQL expressions the insight selectors aggregate with."""

from django.db.models import Aggregate, CharField, F, FloatField, Func, TextField, Value
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Lower, Trim


class Percentile(Aggregate):
    """percentile_cont: the interpolated value below which `fraction` of the group's values lie."""

    function = "PERCENTILE_CONT"
    name = "Percentile"
    template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()

    def __init__(self, expression, *, fraction: float, **extra):
        # The fraction is written into the SQL, so only a number in [0, 1] may get there.
        fraction = float(fraction)
        if not 0 <= fraction <= 1:
            raise ValueError(f"fraction must lie between 0 and 1, not {fraction}")
        super().__init__(expression, fraction=fraction, **extra)


def normalised_text(field: str) -> Func:
    """The text lowercased, runs of whitespace collapsed to one space, none at either end."""
    collapsed = Func(F(field), Value(r"\s+"), Value(" "), Value("g"), function="regexp_replace", output_field=TextField())
    return Trim(Lower(collapsed))


def json_number(field: str, key: str) -> Cast:
    """(field->>'key')::float; only use on rows where `json_type` says the value is a number."""
    return Cast(KeyTextTransform(key, field), FloatField())


def json_type(field: str, key: str) -> Func:
    """jsonb_typeof(field->'key'): 'number', 'string', …, or NULL when the key is absent."""
    return Func(KeyTransform(key, field), function="jsonb_typeof", output_field=CharField())
