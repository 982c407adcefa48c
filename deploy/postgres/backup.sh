#!/bin/sh
# The compose profile `backup`: creates the stanza, turns WAL archiving on (the `postgres`
# service's archive_command pushes WAL once /var/lib/pgbackrest/enabled exists), checks that a
# segment arrives, then backs up once a day: a full backup on Sundays (and the first time,
# pgBackRest's own rule), a differential one on other days.
set -eu
until pg_isready -h /var/run/postgresql -q; do sleep 2; done
pgbackrest --stanza=app stanza-create
touch /var/lib/pgbackrest/enabled
pgbackrest --stanza=app check
while :; do
  if [ "$(date +%u)" = 7 ]; then type=full; else type=diff; fi
  pgbackrest --stanza=app --type="$type" backup
  sleep 86400
done
