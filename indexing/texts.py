"""What each indexed row's embedding is computed from (one place, so a re-index and an edit agree)."""

from catalog.models import Product
from embeddings.texts import chunk_text_for_embedding
from guidelines.models import GuidelineChunk, InterventionMapping


def product_embedding_text(product: Product) -> str:
    """Name, description, problem areas and the wijzer statements that point to the product."""
    statements = [
        f"{mapping.problem_statement} ({mapping.intervention_type})" for mapping in product.intervention_mappings.all()
    ]
    parts = [product.name, product.description, "Problemen: " + ", ".join(product.problem_areas)]
    if statements:
        parts.append("Interventiewijzer: " + " ".join(statements))
    return "\n".join(parts)


def mapping_embedding_text(mapping: InterventionMapping) -> str:
    return f"{mapping.problem_statement} {mapping.intervention_type}. {', '.join(mapping.keywords)}"


def chunk_embedding_text(chunk: GuidelineChunk) -> str:
    return chunk_text_for_embedding(chunk.document.title, chunk.section_path, chunk.content)
