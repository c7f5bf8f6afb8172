"""The chat's phrases: a short fixed list, each with a key. The server stores and sends the key only;
each page says it in its own reader's language (frontend/static/frontend/table/chat.js), so a Kreyòl
speaker who sends "Bon jwèt" is read as "Magandang laro" by a Tagalog reader.

The English here is for the staff's admin (a reported message) and the catalogue's context; the
players' words are the JavaScript catalogue's (the same msgids, context "chat phrase")."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

PHRASES = {
    "hello": pgettext_lazy("chat phrase", "Hello"),
    "good_game": pgettext_lazy("chat phrase", "Good game"),
    "well_played": pgettext_lazy("chat phrase", "Well played"),
    "one_moment": pgettext_lazy("chat phrase", "One moment"),
    "rematch": pgettext_lazy("chat phrase", "Rematch?"),
    "thanks": pgettext_lazy("chat phrase", "Thanks"),
}
