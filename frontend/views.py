from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.catalogue import installed


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"games": installed()})
