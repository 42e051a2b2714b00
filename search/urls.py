from django.urls import path

from search import views

app_name = "search"

urlpatterns = [
    path("", views.search_new, name="new"),
    path("zoekvragen/", views.search_history, name="history"),
    path("zoekvragen/<int:search_id>/", views.search_detail, name="detail"),
    path("zoekvragen/<int:search_id>/advies.md", views.search_export_markdown, name="export_markdown"),
    path("zoekvragen/<int:search_id>/advies.json", views.search_export_json, name="export_json"),
    path("aanbevelingen/<int:recommendation_id>/stem/", views.recommendation_vote, name="vote"),
    path("richtlijnen/", views.guidelines_ask, name="guidelines"),
    path("richtlijnen/stroom/<str:token>/", views.guidelines_stream, name="guidelines_stream"),
    path("richtlijnen/passages/<int:chunk_id>/", views.chunk_detail, name="chunk"),
]
