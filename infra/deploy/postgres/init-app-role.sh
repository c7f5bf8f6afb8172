#!/bin/sh
# compose: the postgres image runs this once, when it creates the database. The owner role
# (POSTGRES_USER) owns the database; the app role is created here and gets its rights from
# app-role.sql, which the migrate service runs after every migration.
set -eu
psql -v ON_ERROR_STOP=1 -v app_password="$APP_DB_PASSWORD" --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE ROLE tablehall_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
SQL
