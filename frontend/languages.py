"""The language of a page: the signed-in player's saved choice, else the switcher's cookie, else the
browser's preference (Django's LocaleMiddleware does the last two).

A signed-in player's choice is saved in their ``Profile`` by the switcher (``set_language``) and at
sign-up, applied on every request, and copied into the language cookie so that the table socket
(games.words.i18n reads the cookie) and the device after signing out speak the same language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from frontend.models import Profile
from frontend.query_forms import LanguageForm

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def saved_language(user: AbstractBaseUser | AnonymousUser) -> str:
    """The language a signed-in player chose, or "" (follow the browser)."""
    if not user.is_authenticated:
        return ""
    language = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first() or ""
    return language if language in SUPPORTED else ""


def save_language(user: AbstractBaseUser | AnonymousUser, language: str) -> None:
    if user.is_authenticated and language in SUPPORTED:
        Profile.objects.update_or_create(user_id=user.pk, defaults={"language": language})


class ProfileLanguageMiddleware:
    """Runs after AuthenticationMiddleware (and LocaleMiddleware): the saved choice wins."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        try:
            language = saved_language(request.user)
        except (OperationalError, InterfaceError):
            # The database is down: the view answers for that (the API with a clear 503); this
            # request keeps the cookie's or the browser's language instead of failing here.
            language = ""
        if language and language != translation.get_language():
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        cookie = settings.LANGUAGE_COOKIE_NAME
        if language and request.COOKIES.get(cookie) != language and cookie not in response.cookies:
            response.set_cookie(
                cookie,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher on every page: Django's set_language, and the player's profile when signed in."""
    response = django_set_language(request)
    form = LanguageForm(request.POST)
    language = form.cleaned_data["language"] if form.is_valid() else ""
    if translation.check_for_language(language):
        save_language(request.user, language)
    return response
