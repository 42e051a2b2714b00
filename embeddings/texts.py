"""What a guideline chunk's embedding is computed from, shared by ingestion and re-indexing."""


def chunk_text_for_embedding(document_title: str, section_path: str, content: str) -> str:
    """What a chunk's embedding is computed from: where it stands (document and section) and what it says."""
    heading = f"{document_title} — {section_path}" if section_path else document_title
    return f"{heading}\n{content}"
