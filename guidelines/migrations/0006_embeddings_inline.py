from django.db import migrations

from embeddings.storage import vectors_inline


class Migration(migrations.Migration):
    atomic = False  # VACUUM FULL cannot run in a transaction

    dependencies = [
        ("guidelines", "0005_document_topic_vector"),
    ]

    operations = [*vectors_inline("guidelines_guidelinechunk"), *vectors_inline("guidelines_interventionmapping")]
