"""``Tournament.clock``: the round clocks and the room's choices kept on the row (tournaments/clock.py
``Held``), so that a page reads the clock without reading the log. Existing rows get theirs folded from
their logs here (clock events are never revoked by an undo, so the plain fold is the one ``log`` does)."""

from django.db import migrations, models


def fold_clocks(apps, schema_editor):
    from tournaments import clock  # pure: no models

    Tournament = apps.get_model("tournaments", "Tournament")
    Event = apps.get_model("games", "Event")
    for row in Tournament.objects.all():
        events = [
            {"type": e.type, **e.data} for e in Event.objects.filter(game_id=row.stream_id).order_by("seq")
        ]
        Tournament.objects.filter(pk=row.pk).update(clock=clock.held(events).as_json())


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_matchgame_places"),
        ("games", "0016_game_absent_after"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="clock",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(fold_clocks, migrations.RunPython.noop),
    ]
