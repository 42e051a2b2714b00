# The chunk tsvector gains the document title and compound parts (lexical package). A generated
# column cannot be altered, so it is dropped and re-added together with its GIN index.

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('guidelines', '0002_document_is_summary'),
    ]

    operations = [
        migrations.AddField(
            model_name='guidelinechunk',
            name='content_terms',
            field=models.TextField(blank=True, default='', editable=False),
        ),
        migrations.AddField(
            model_name='guidelinechunk',
            name='heading_terms',
            field=models.TextField(blank=True, default='', editable=False),
        ),
        migrations.RemoveIndex(model_name='guidelinechunk', name='chunk_search_gin'),
        migrations.RemoveField(model_name='guidelinechunk', name='search_vector'),
        migrations.AddField(
            model_name='guidelinechunk',
            name='search_vector',
            field=models.GeneratedField(db_persist=True, expression=django.contrib.postgres.search.CombinedSearchVector(django.contrib.postgres.search.SearchVector('section_path', 'heading_terms', config='dutch', weight='A'), '||', django.contrib.postgres.search.SearchVector('content', 'content_terms', config='dutch', weight='B'), django.contrib.postgres.search.SearchConfig('dutch')), output_field=django.contrib.postgres.search.SearchVectorField()),
        ),
        migrations.AddIndex(
            model_name='guidelinechunk',
            index=django.contrib.postgres.indexes.GinIndex(fields=['search_vector'], name='chunk_search_gin'),
        ),
    ]
