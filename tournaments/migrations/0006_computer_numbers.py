"""Computer players by number and level (games/words/computers.py).

- ``Entry.bot_number``: a computer entrant's number; those registered before it were named after
  their entrant number ("Computer 3 (Strong)", "Bot 3 (greedy)"), which is what they get.
- Rating keys: ``bot:NAME`` becomes ``bot:LEVEL:N`` when the name says which computer it was (in
  any of the three languages, or the internal "Bot 3 (greedy)" / "Greedy 3"), so that a computer
  is one player whatever language its tables were made in. Where two old names were the same
  computer ("Computer 2 (Easy)" and "Òdinatè 2 (fasil)") the rating with more games is kept, the
  other's games are added to it and its history moved over; ``manage.py rebuild_tournaments``
  rates every game again from the seats for exact figures. A name that tells no number keeps its key.
"""

import re

from django.db import migrations, models

LEGACY = re.compile(
    r"^(?:computer|òdinatè|bot|random|greedy|strong|beginner|easy)\s+(\d{1,6})\s*(?:\(([^()]*)\))?$", re.I
)
LEVEL_WORDS = {
    "random": "random", "beginner": "random", "debitan": "random", "baguhan": "random",
    "greedy": "greedy", "easy": "greedy", "intermediate": "greedy", "fasil": "greedy", "madali": "greedy",
    "strong": "strong", "fò": "strong", "magaling": "strong",
}  # fmt: skip
ENGLISH = {"random": "Beginner", "greedy": "Easy", "strong": "Strong"}


def _computer(name):
    found = LEGACY.match(name.strip())
    if not found:
        return None
    level = LEVEL_WORDS.get((found.group(2) or name.split()[0]).strip().lower())
    return (level, int(found.group(1))) if level else None


def number_entries(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Entry.objects.exclude(bot_level="").update(bot_number=models.F("number"))


def rekey_ratings(apps, schema_editor):
    Rating = apps.get_model("tournaments", "Rating")
    RatingHistory = apps.get_model("tournaments", "RatingHistory")
    for row in list(Rating.objects.filter(player__startswith="bot:").order_by("-games", "pk")):
        computer = _computer(row.player[4:])
        if computer is None:
            continue
        level, number = computer
        key = f"bot:{level}:{number}"
        kept = Rating.objects.filter(player=key, game=row.game, club_id=row.club_id).first()
        if kept is None:
            row.player, row.name = key, f"Computer {number} ({ENGLISH[level]})"
            row.save(update_fields=["player", "name"])
            continue
        # The same computer under another name: one rating (the one with more games, seen first).
        for history in RatingHistory.objects.filter(rating=row):
            if not RatingHistory.objects.filter(
                rating=kept, game_id=history.game_id, number=history.number
            ).exists():
                history.rating = kept
                history.save(update_fields=["rating"])
        kept.games += row.games
        kept.save(update_fields=["games"])
        row.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_entry_name_rating_player"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="bot_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_entries, migrations.RunPython.noop),
        migrations.RunPython(rekey_ratings, migrations.RunPython.noop),
    ]
