#!/bin/sh
# Run once by Patroni on the node that bootstraps the cluster, with a connection string to it:
# the services' database, which every node then gets by replication.
set -e
psql -d "$1" -v ON_ERROR_STOP=1 -c "CREATE DATABASE app"
