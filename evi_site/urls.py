from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from evi_site.health import health
from search.api import api

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("inloggen/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("uitloggen/", auth_views.LogoutView.as_view(), name="logout"),
    path("inzicht/", include("insight.urls")),
    path("", include("search.urls")),
]
