"""The games app's tables as migrations 0001-0018 left them, in one migration (squashed 2026-12-07).

A database that applied all of 0001-0018 counts this one as applied (``replaces``); one that applied
only some of them must first be migrated with a release that still has them (docs/deploying.md).
Their data migrations (0011 invites for open seats, 0012 computer numbers, 0014 seat name roles) only
rewrote rows written before them, so a new database has nothing for them to do. What the models do
not say is carried over by hand below: the event table's append-only and gapless triggers and its
``txid`` column (old 0002 and 0003).
"""

import django.db.models.deletion
import django.utils.timezone
import secrets
from django.conf import settings
from django.db import migrations, models


# Old 0002: the database itself refuses to change or remove events (DESIGN.md "Append-only for real").
# PostgreSQL: triggers on UPDATE, DELETE and TRUNCATE, plus a ``txid`` column (the writing transaction)
# that lets subscribers read in a commit-safe order (games.eventlog.store.read_all). SQLite: UPDATE and DELETE
# triggers. Both honour a bypass that only the test flush turns on (games.eventlog.store.allow_rewrite).
# Old 0003: the database refuses an event whose seq does not follow the game's last one, so an append
# may skip reading the head (a stale or future ``expected_seq`` fails inside the same INSERT).
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
DROP TRIGGER IF EXISTS games_event_no_change ON games_event;
DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
DROP INDEX IF EXISTS games_event_txid_id;
ALTER TABLE games_event DROP COLUMN IF EXISTS txid;
"""

# tablehall_allow_event_rewrite() is a function the event store registers on each SQLite connection.
SQLITE_FORWARD = [
    """CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
       WHEN NOT tablehall_allow_event_rewrite()
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
       WHEN NOT tablehall_allow_event_rewrite()
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END""",
    """CREATE TRIGGER games_event_gapless BEFORE INSERT ON games_event
       WHEN NEW.seq <> 1 AND NOT EXISTS (
           SELECT 1 FROM games_event WHERE game_id = NEW.game_id AND seq = NEW.seq - 1
       )
       BEGIN SELECT RAISE(ABORT, 'games_event seq leaves a gap'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_gapless",
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
]


def event_guards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD, None)
    elif vendor == "sqlite":
        for sql in SQLITE_FORWARD:
            schema_editor.execute(sql, None)
    else:
        raise RuntimeError(f"the event store supports PostgreSQL and SQLite, not {vendor}")


def drop_event_guards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in [PG_BACKWARD] if vendor == "postgresql" else SQLITE_BACKWARD:
        schema_editor.execute(sql, None)


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('games', '0001_initial'),
        ('games', '0002_append_only'),
        ('games', '0003_gapless_seq'),
        ('games', '0004_seat_awaiting_player'),
        ('games', '0005_game_is_demo'),
        ('games', '0006_game_kind_log'),
        ('games', '0007_game_deal_key'),
        ('games', '0008_deal_group'),
        ('games', '0009_game_kind_rated'),
        ('games', '0010_seat_display_name'),
        ('games', '0011_invite'),
        ('games', '0012_seat_bot_number'),
        ('games', '0013_lesson_kind'),
        ('games', '0014_seat_name_role'),
        ('games', '0015_api_tokens'),
        ('games', '0016_game_absent_after'),
        ('games', '0017_play_now'),
        ('games', '0018_club_only_tables'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DealGroup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=64, unique=True)),
                ('open_below', models.PositiveIntegerField(default=0)),
                ('closed', models.BooleanField(default=False)),
            ],
        ),
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=64)),
                ('prefix', models.CharField(max_length=12)),
                ('digest', models.CharField(editable=False, max_length=64, unique=True)),
                ('scopes', models.CharField(max_length=64)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('revoked_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='Game',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('engine', models.CharField(max_length=32)),
                ('engine_version', models.PositiveIntegerField()),
                ('config', models.JSONField()),
                ('status', models.CharField(choices=[('active', 'Playing'), ('finished', 'Finished'), ('aborted', 'Abandoned')], default='active', max_length=16)),
                ('kind', models.CharField(choices=[('casual', 'Casual'), ('rated', 'Rated'), ('tournament', 'Tournament'), ('log', 'Event stream'), ('lesson', 'Lesson')], default='casual', max_length=16)),
                ('spectator_delay', models.PositiveIntegerField(default=0)),
                ('absent_after', models.PositiveIntegerField(default=120)),
                ('deal_index', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('deal_key', models.CharField(blank=True, db_index=True, default='', max_length=64)),
                ('is_demo', models.BooleanField(default=False)),
                ('club_id', models.PositiveIntegerField(blank=True, db_index=True, null=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('deal_group', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='games', to='games.dealgroup')),
            ],
        ),
        migrations.CreateModel(
            name='Event',
            fields=[
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('seq', models.PositiveIntegerField()),
                ('type', models.CharField(max_length=64)),
                ('data', models.JSONField()),
                ('actor', models.CharField(max_length=64)),
                ('command_id', models.CharField(max_length=64)),
                ('cmd_index', models.PositiveSmallIntegerField(default=0)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('schema_version', models.PositiveSmallIntegerField(default=1)),
                ('hash', models.CharField(max_length=64)),
                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='events', to='games.game')),
            ],
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('bot_level', models.CharField(blank=True, default='', max_length=16)),
                ('bot_number', models.PositiveIntegerField(blank=True, null=True)),
                ('display_name', models.CharField(max_length=150)),
                ('name_role', models.CharField(blank=True, default='', max_length=8)),
                ('team', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('awaiting_player', models.BooleanField(default=False)),
                ('open_to_all', models.BooleanField(default=False)),
                ('token', models.CharField(default=secrets.token_urlsafe, editable=False, max_length=43, unique=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.game')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['game', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Invite',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(default=secrets.token_urlsafe, editable=False, max_length=43, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('expires_at', models.DateTimeField()),
                ('used_at', models.DateTimeField(blank=True, null=True)),
                ('seat', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invites', to='games.seat')),
            ],
        ),
        migrations.CreateModel(
            name='Seek',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('engine', models.CharField(max_length=32)),
                ('config', models.JSONField()),
                ('kind', models.CharField(max_length=16)),
                ('key', models.CharField(max_length=64)),
                ('status', models.CharField(choices=[('waiting', 'Waiting for an opponent'), ('matched', 'Seated'), ('cancelled', 'Cancelled'), ('expired', 'Nobody came')], default='waiting', max_length=16)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('seen_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('expires_at', models.DateTimeField()),
                ('fallback_at', models.DateTimeField(blank=True, null=True)),
                ('club_id', models.PositiveIntegerField(blank=True, null=True)),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(fields=['status', '-created_at'], name='games_game_status_9fc539_idx'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(fields=('game', 'seq'), name='event_game_seq_unique'),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.UniqueConstraint(fields=('game', 'command_id', 'cmd_index'), name='event_command_unique'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('game', 'number'), name='seat_number_unique'),
        ),
        migrations.AddIndex(
            model_name='seek',
            index=models.Index(fields=['user', 'status'], name='games_seek_user_id_5869d7_idx'),
        ),
        migrations.AddConstraint(
            model_name='seek',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'waiting')), fields=('key',), name='seek_one_waiting_per_key'),
        ),
        migrations.RunPython(event_guards, drop_event_guards, elidable=False),
    ]
