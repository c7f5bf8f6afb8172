"""The database refuses an event whose seq does not follow the game's last one (no gap, ever).

With this guard an append may skip reading the head: a stale or future ``expected_seq`` fails on the
unique (game, seq) constraint or on this trigger, inside the same INSERT.
"""

from django.db import migrations

PG_FORWARD = """
CREATE OR REPLACE FUNCTION games_event_gapless() RETURNS trigger AS $$
BEGIN
    IF NEW.seq <> 1 AND NOT EXISTS (
        SELECT 1 FROM games_event WHERE game_id = NEW.game_id AND seq = NEW.seq - 1
    ) THEN
        RAISE EXCEPTION 'games_event seq % of game % leaves a gap', NEW.seq, NEW.game_id
            USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_gapless BEFORE INSERT ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_gapless();
"""
PG_BACKWARD = """
DROP TRIGGER IF EXISTS games_event_gapless ON games_event;
DROP FUNCTION IF EXISTS games_event_gapless();
"""
SQLITE_FORWARD = """
CREATE TRIGGER games_event_gapless BEFORE INSERT ON games_event
WHEN NEW.seq <> 1 AND NOT EXISTS (
    SELECT 1 FROM games_event WHERE game_id = NEW.game_id AND seq = NEW.seq - 1
)
BEGIN SELECT RAISE(ABORT, 'games_event seq leaves a gap'); END
"""
SQLITE_BACKWARD = "DROP TRIGGER IF EXISTS games_event_gapless"


def forward(apps, schema_editor):
    pg = schema_editor.connection.vendor == "postgresql"
    schema_editor.execute(PG_FORWARD if pg else SQLITE_FORWARD, None)


def backward(apps, schema_editor):
    pg = schema_editor.connection.vendor == "postgresql"
    schema_editor.execute(PG_BACKWARD if pg else SQLITE_BACKWARD, None)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_append_only")]
    operations = [migrations.RunPython(forward, backward, elidable=False)]
