"""The database itself refuses to change or remove events (DESIGN.md "Append-only for real").

PostgreSQL: triggers on UPDATE, DELETE and TRUNCATE, plus a ``txid`` column (the writing transaction)
that lets subscribers read in a commit-safe order (games.eventlog.store.read_all).
SQLite: UPDATE and DELETE triggers. Both honour a bypass that only the test flush turns on
(games.eventlog.store.allow_rewrite).
"""

from django.db import migrations

PG_FORWARD = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
BEGIN
    IF current_setting('tablehall.allow_event_rewrite', true) = 'on' THEN
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        IF TG_OP = 'UPDATE' THEN RETURN NEW; END IF;
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP USING ERRCODE = '42501';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_no_change BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
ALTER TABLE games_event ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX games_event_txid_id ON games_event (txid, id);
"""

PG_BACKWARD = """
DROP TRIGGER IF EXISTS games_event_no_change ON games_event;
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
DROP INDEX IF EXISTS games_event_txid_id;
ALTER TABLE games_event DROP COLUMN IF EXISTS txid;
"""

SQLITE_FORWARD = [
    """CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
       WHEN NOT tablehall_allow_event_rewrite()
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
       WHEN NOT tablehall_allow_event_rewrite()
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END""",
]
SQLITE_BACKWARD = ["DROP TRIGGER IF EXISTS games_event_no_update", "DROP TRIGGER IF EXISTS games_event_no_delete"]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD, None)
    elif vendor == "sqlite":
        for sql in SQLITE_FORWARD:
            schema_editor.execute(sql, None)
    else:
        raise RuntimeError(f"the event store supports PostgreSQL and SQLite, not {vendor}")


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in [PG_BACKWARD] if vendor == "postgresql" else SQLITE_BACKWARD:
        schema_editor.execute(sql, None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(forward, backward, elidable=False)]
