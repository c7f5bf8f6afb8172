from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend", "games"]), name="javascript-catalog"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("games.urls")),
    path("", include("frontend.urls")),
]
