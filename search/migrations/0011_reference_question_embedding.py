import pgvector.django.vector
from django.db import migrations, models

from embeddings.storage import vectors_inline


class Migration(migrations.Migration):
    atomic = False  # VACUUM FULL cannot run in a transaction

    dependencies = [
        ("search", "0010_product_acceptance"),
    ]

    operations = [
        migrations.AddField(
            model_name="referencequestion",
            name="embedding",
            field=pgvector.django.vector.VectorField(blank=True, dimensions=512, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="referencequestion",
            name="embedding_model",
            field=models.CharField(blank=True, editable=False, max_length=100),
        ),
        migrations.AddField(
            model_name="referencequestion",
            name="embedding_source_hash",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        # Every guideline answer reads all of them (search.pipeline.question_votes): out of line, 24 ms a question.
        *vectors_inline("search_referencequestion"),
    ]
