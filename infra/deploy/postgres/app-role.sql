-- The application's database role: it may INSERT and SELECT on games_event and nothing else on it,
-- so no bug, injection or stolen app password can rewrite the event store; the owner role (which
-- runs the migrations) keeps every right. Run it after every `manage.py migrate`; it is idempotent:
--
--   psql "$OWNER_DATABASE_URL" -v ON_ERROR_STOP=1 -f infra/deploy/postgres/app-role.sql
--
-- psql variables (-v NAME=VALUE): app (default tablehall_app), owner (default: the role running
-- this), password (optional: sets the app role's password). Creating the app role the first time
-- needs CREATEROLE (or a superuser); otherwise create it once as an administrator:
--   CREATE ROLE tablehall_app LOGIN PASSWORD '...';
-- The app role never needs the trigger bypass of the test flush (tablehall.allow_event_rewrite):
-- without UPDATE, DELETE and TRUNCATE rights, setting it changes nothing for that role.

\set ON_ERROR_STOP on
\if :{?app}
\else
  \set app tablehall_app
\endif
\if :{?owner}
\else
  SELECT current_user AS owner \gset
\endif

SELECT NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app') AS app_missing \gset
\if :app_missing
  CREATE ROLE :"app" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
\endif
\if :{?password}
  ALTER ROLE :"app" PASSWORD :'password';
\endif

-- As the owner of the tables, so that the default privileges below apply to its future tables.
SET ROLE :"owner";

GRANT CONNECT ON DATABASE :"DBNAME" TO :"app";
GRANT USAGE ON SCHEMA public TO :"app";

-- Every other table: the ordinary rights of a Django app (sessions, users, games, tournaments...).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO :"app";

-- The event store: append and read, nothing else (no UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER).
REVOKE ALL ON TABLE games_event FROM :"app";
GRANT SELECT, INSERT ON TABLE games_event TO :"app";

RESET ROLE;

-- What the app role may do on the event table now, for the log of whoever ran this.
SELECT string_agg(privilege_type, ', ' ORDER BY privilege_type) AS "games_event rights of the app role"
  FROM information_schema.role_table_grants
 WHERE table_name = 'games_event' AND grantee = :'app';
