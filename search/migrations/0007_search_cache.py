"""The search cache's generation and its database fallback table.

A sequence counts changes to everything a search result depends on (catalog, guideline corpus,
wijzer, links between them, ranking versions, votes, the embedding index). Deferred row triggers
take the next value when a writing transaction commits, whatever wrote it (admin, bulk import,
queryset.update, raw SQL), so a cached search is never served after a change has become visible.
A sequence never blocks: a long re-indexing transaction does not hold up a vote.
"""

from django.db import migrations

WATCHED = (
    "catalog_product",
    "guidelines_guidelinedocument",
    "guidelines_guidelinechunk",
    "guidelines_interventionmapping",
    "guidelines_interventionmapping_products",
    "guidelines_guidelinedocument_products",
    "search_rankingparameterset",
    "search_feedbackvote",
    "embeddings_embeddingindex",
)

CREATE = """
CREATE SEQUENCE search_cache_generation;
CREATE FUNCTION search_cache_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM nextval('search_cache_generation');
    RETURN NULL;
END $$;
""" + "".join(
    f"""
CREATE CONSTRAINT TRIGGER search_cache_generation_bump AFTER INSERT OR UPDATE OR DELETE ON {table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_cache_generation_bump();
"""
    for table in WATCHED
) + """
CREATE TABLE search_cache (
    cache_key varchar(255) NOT NULL PRIMARY KEY,
    value text NOT NULL,
    expires timestamp with time zone NOT NULL
);
CREATE INDEX search_cache_expires ON search_cache (expires);
"""

DROP = "".join(f"DROP TRIGGER IF EXISTS search_cache_generation_bump ON {table};\n" for table in WATCHED) + """
DROP FUNCTION IF EXISTS search_cache_generation_bump();
DROP SEQUENCE IF EXISTS search_cache_generation;
DROP TABLE IF EXISTS search_cache;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("search", "0006_provenance_workplace_retrieval"),
        ("catalog", "0006_product_guidelines_curated"),
        ("guidelines", "0005_document_topic_vector"),
        ("embeddings", "0002_tag_existing_vectors"),
    ]

    operations = [migrations.RunSQL(CREATE, DROP)]
