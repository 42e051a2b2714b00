import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

VECTOR_TABLES = ("catalog_product", "guidelines_guidelinechunk", "guidelines_interventionmapping")


@pytest.mark.parametrize("table", VECTOR_TABLES)
def test_it_keeps_every_stored_vector_in_its_row_not_in_the_toast_table(table):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), count(pg_column_toast_chunk_id(embedding)) FROM {table} WHERE embedding IS NOT NULL")
        rows, out_of_line = cursor.fetchone()
    assert rows > 0  # the demo data is loaded, so there is something to look at
    assert out_of_line == 0


def test_it_keeps_a_newly_ingested_passage_vector_inline(tmp_path):
    from django.core.management import call_command

    source = tmp_path / "kort.md"
    source.write_text("# Korte richtlijn\n\n## 1 Tillen\n\nTil niet meer dan 23 kilo zonder hulpmiddel.\n", encoding="utf-8")
    call_command("ingest_guidelines", str(source), "--title", "Korte richtlijn", "--source", "Test", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(pg_column_toast_chunk_id(c.embedding)) FROM guidelines_guidelinechunk c "
            "JOIN guidelines_guidelinedocument d ON d.id = c.document_id WHERE d.title = 'Korte richtlijn'"
        )
        rows, out_of_line = cursor.fetchone()
    assert rows == 1 and out_of_line == 0


@pytest.mark.django_db
def test_it_sends_the_query_vector_as_a_parameter_and_behaves_like_a_django_cursor():
    import psycopg
    from django.db import DatabaseError
    from django.test.utils import CaptureQueriesContext

    from embeddings.cursor import server_bound_cursor

    vector = "[" + ",".join(["0.5"] * 4) + "]"
    with CaptureQueriesContext(connection) as queries, server_bound_cursor() as cursor:
        cursor.execute("SELECT %(vec)s::vector(4) <=> %(vec)s::vector(4), %(n)s + 1", {"vec": vector, "n": 41})
        assert cursor.fetchone() == (0.0, 42)
        # Bound by the server, not quoted into the statement text as Django's own cursors do.
        assert type(cursor.cursor) is psycopg.Cursor
    assert len(queries.captured_queries) == 1
    with pytest.raises(DatabaseError), server_bound_cursor() as cursor:
        cursor.execute("SELECT %(vec)s::vector(3)", {"vec": vector})


@pytest.mark.django_db
def test_it_prepares_the_server_bound_statements_so_their_plan_is_reused():
    from django.conf import settings

    from embeddings.cursor import server_bound_cursor

    marker = "SELECT %(n)s::int + 1 AS prepared_marker"
    with server_bound_cursor() as cursor:
        for number in (1, 2):
            cursor.execute(marker, {"n": number})
            assert cursor.fetchone() == (number + 1,)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 2 AS client_bound_marker")
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert settings.DATABASE_PREPARED_STATEMENTS
    # Prepared once for both executions; Django's own client-side statements never are.
    assert sum("prepared_marker" in statement for statement in prepared) == 1
    assert not any("client_bound_marker" in statement for statement in prepared)
