"""Dutch lexical matching, shared by indexing (catalog, guidelines) and searching.

One home for what the full-text side of search does with Dutch words: splitting compounds
(`compounds`), the domain thesaurus (`thesaurus`), the weighted query terms (`terms`) and the
BM25F scoring SQL over PostgreSQL tsvectors (`sql`). It depends on no app of this project.
"""
