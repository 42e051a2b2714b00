from django.db import migrations

from embeddings.storage import vectors_inline


class Migration(migrations.Migration):
    atomic = False  # VACUUM FULL cannot run in a transaction

    dependencies = [
        ("catalog", "0006_product_guidelines_curated"),
    ]

    operations = vectors_inline("catalog_product")
