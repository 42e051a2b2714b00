from django.urls import path

from insight import views

app_name = "insight"

urlpatterns = [
    path("", views.insight_overview, name="overview"),
]
