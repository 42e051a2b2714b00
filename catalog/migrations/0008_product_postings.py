"""Per-product lexeme postings, kept in step with `catalog_product.search_vector` by a trigger."""

import django.db.models.deletion
from django.db import migrations, models

# Counts every occurrence of each lexeme per tsvector label; a lexeme stored without positions still
# gets a row (all counts 0), so it is found like `search_vector @@ 'lexeme:*'` finds it. `{rows}` names
# the products: the whole table for the backfill, the written row in the trigger.
POSTINGS_OF = """
INSERT INTO catalog_productposting (product_id, lexeme, a, b, c, d)
SELECT p.id, u.lexeme,
       count(w) FILTER (WHERE w = 'A'), count(w) FILTER (WHERE w = 'B'),
       count(w) FILTER (WHERE w = 'C'), count(w) FILTER (WHERE w = 'D')
FROM {rows}
CROSS JOIN LATERAL unnest(p.search_vector) AS u
LEFT JOIN LATERAL unnest(u.weights) AS w ON TRUE
WHERE p.search_vector IS NOT NULL
GROUP BY p.id, u.lexeme
"""

CREATE_TRIGGER = f"""
CREATE FUNCTION catalog_product_postings_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM catalog_productposting WHERE product_id = NEW.id;
    {POSTINGS_OF.format(rows="(SELECT NEW.id AS id, NEW.search_vector AS search_vector) AS p")};
    RETURN NULL;
END $$;
CREATE TRIGGER catalog_product_postings_insert AFTER INSERT ON catalog_product
    FOR EACH ROW WHEN (NEW.search_vector IS NOT NULL) EXECUTE FUNCTION catalog_product_postings_refresh();
CREATE TRIGGER catalog_product_postings_update AFTER UPDATE OF search_vector ON catalog_product
    FOR EACH ROW WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector) EXECUTE FUNCTION catalog_product_postings_refresh();
"""

BACKFILL = POSTINGS_OF.format(rows="catalog_product AS p")

DROP_TRIGGER = """
DROP TRIGGER IF EXISTS catalog_product_postings_update ON catalog_product;
DROP TRIGGER IF EXISTS catalog_product_postings_insert ON catalog_product;
DROP FUNCTION IF EXISTS catalog_product_postings_refresh();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0007_product_embedding_inline"),
    ]

    operations = [
        migrations.CreateModel(
            name="ProductPosting",
            fields=[
                ("pk", models.CompositePrimaryKey("product", "lexeme", blank=True, editable=False, primary_key=True, serialize=False)),
                ("lexeme", models.TextField(db_collation="C")),
                ("a", models.PositiveIntegerField(default=0)),
                ("b", models.PositiveIntegerField(default=0)),
                ("c", models.PositiveIntegerField(default=0)),
                ("d", models.PositiveIntegerField(default=0)),
                (
                    "product",
                    models.ForeignKey(
                        db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="catalog.product"
                    ),
                ),
            ],
            options={"verbose_name": "productterm", "verbose_name_plural": "producttermen"},
        ),
        migrations.RunSQL(CREATE_TRIGGER, DROP_TRIGGER),
        migrations.RunSQL(BACKFILL, migrations.RunSQL.noop),
    ]
