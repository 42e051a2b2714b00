"""Typed readers for settings that come from the environment; each fails loudly on a bad value."""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str = "") -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false/1/0), got {value!r}")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None
    _check_range(name, number, minimum, maximum)
    return number


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {value!r}") from None
    _check_range(name, number, minimum, maximum)
    return number


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default).lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def env_list(name: str, default: tuple[str, ...] = ()) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def _check_range(name: str, number: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be <= {maximum}, got {number}")
