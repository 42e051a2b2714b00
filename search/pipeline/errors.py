"""Errors of the search that carry a Dutch message for the specialist."""


class SearchInputError(ValueError):
    """The query cannot be searched; the message is Dutch and shown to the specialist."""
