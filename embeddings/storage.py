"""Vectors stored inline in the table row instead of in its TOAST table.

A 512-d vector is 2,056 bytes, just over PostgreSQL's 2 KB TOAST threshold, so by default every
vector was compressed (in vain: floats do not compress) and moved out of line, and every exact
distance outside the HNSW index (a product's cosine in stage 1, a passage's distance to product +
situation in stage 2) fetched it from the TOAST table again. With STORAGE PLAIN and a row target
of a full page, the vector stays in the row; long texts are still moved out. Measured on the demo
data (README, A/B on one database): stage 2 30 -> 17 ms p50.
"""

from django.db import migrations

# The largest row PostgreSQL accepts before it moves other columns out of line (a page minus headers).
ROW_TARGET_BYTES = 8160
DEFAULT_ROW_TARGET_BYTES = 2032


def vectors_inline(table: str, column: str = "embedding") -> list:
    """Migration operations: keep `table.column` inline, then rewrite the rows already stored out of line.

    VACUUM FULL rewrites the table under an exclusive lock (seconds at 100,000 passages) and cannot
    run inside a transaction, so the migration that uses this must set `atomic = False`.
    """
    return [
        migrations.RunSQL(
            f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE PLAIN, SET (toast_tuple_target = {ROW_TARGET_BYTES})",
            f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE EXTENDED, SET (toast_tuple_target = {DEFAULT_ROW_TARGET_BYTES})",
        ),
        migrations.RunSQL(f"VACUUM FULL {table}", migrations.RunSQL.noop),
    ]
