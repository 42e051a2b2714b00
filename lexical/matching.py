"""How a query lexeme matches stored lexemes: as a prefix, or as a whole word when it is short."""

# Shorter lexemes match whole words only: as a prefix "kop" (from "kopen") found "koppelt" and "val"
# "valide", which put "kerstboom kopen" in the domain. A short word's compounds ("rugklachten") are
# indexed with their parts (lexical.terms.index_terms), so "rug" still finds them.
MIN_PREFIX_LEXEME_LENGTH = 4


def lexeme_tsquery_sql(lexeme: str) -> str:
    """The SQL tsquery for a lexeme expression: a prefix query, or the whole word for a short lexeme."""
    return (
        f"to_tsquery('simple', quote_literal({lexeme}) || "
        f"CASE WHEN length({lexeme}) >= {MIN_PREFIX_LEXEME_LENGTH} THEN ':*' ELSE '' END)"
    )


def lexeme_matches_sql(stored: str, query: str) -> str:
    """SQL: the stored lexeme is matched by the query lexeme (as lexeme_tsquery_sql would match it)."""
    return f"(starts_with({stored}, {query}) AND (length({query}) >= {MIN_PREFIX_LEXEME_LENGTH} OR {stored} = {query}))"


def lexeme_range_end_sql(lexeme: str) -> str:
    """SQL: the exclusive upper bound of the stored lexemes a query lexeme matches, in bytewise order
    (a prefix: everything that begins with it; a short lexeme: only itself)."""
    return f"{lexeme} || CASE WHEN length({lexeme}) >= {MIN_PREFIX_LEXEME_LENGTH} THEN chr(1114111) ELSE chr(1) END"
