from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from frontend.api import api as public_api
from frontend.languages import set_language
from infra import health, metrics

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.view, name="metrics"),
    path("admin/", admin.site.urls),
    # Django's set_language, which also saves a signed-in player's choice (frontend/languages.py).
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend", "games"]), name="javascript-catalog"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", public_api.urls),
    path("api/", include("games.urls")),
    path("", include("replay.urls")),
    path("", include("frontend.urls")),
]
