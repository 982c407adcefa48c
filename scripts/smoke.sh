#!/usr/bin/env bash
# The README path, end to end: `pnpm start` with no DATABASE_URL (embedded PostgreSQL),
# a user from the CLI, a short, its redirect, its log, the scheduling API; then SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."

unset DATABASE_URL REDIS_URL
export DATA_DIR="$(mktemp -d)"
chmod 755 "$DATA_DIR"   # as root, the embedded server runs as `postgres` and must enter it
free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
export SHORTENER_PORT="$(free_port)" SCHEDULING_PORT="$(free_port)"
export LOG_LEVEL=warn
short="http://127.0.0.1:$SHORTENER_PORT"
sched="http://127.0.0.1:$SCHEDULING_PORT"
log="$DATA_DIR/start.log"

# Its own process group, like a terminal job: the stop below signals pnpm and node together.
setsid pnpm start >"$log" 2>&1 &
pid=$!
cleanup() { kill -TERM -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$DATA_DIR"; }
trap cleanup EXIT

for _ in $(seq 1 120); do
  curl -sf "$short/ready" >/dev/null && curl -sf "$sched/ready" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "pnpm start exited early"; exit 1; }
  sleep 0.5
done
curl -sf "$short/ready" >/dev/null || { cat "$log"; echo "shortener not ready"; exit 1; }

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(eval("v"+process.argv[1]))})' "$1"; }

token=$(pnpm -s shortener user:create --email smoke@example.com --json | json .token)
auth="Authorization: Bearer $token"
created=$(curl -sf -H "$auth" -H 'content-type: application/json' -d '{"url":"https://example.com/smoke","name":"smoke"}' "$short/api/shorts")
id=$(echo "$created" | json .id)
echo "created short $id"

location=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -A smoke-agent "$short/smoke")
[ "$location" = "302 https://example.com/smoke" ] || { echo "redirect: $location"; exit 1; }
logs=$(curl -sf -H "$auth" "$short/api/shorts/$id/logs")
[ "$(echo "$logs" | json .length)" = "1" ] && [ "$(echo "$logs" | json '[0].userAgent')" = "smoke-agent" ] \
  || { echo "logs: $logs"; exit 1; }
echo "redirect followed and logged"

key=$(pnpm -s scheduling user:create --email smoke@example.com --json | json .apiKey)
status=$(curl -s -o /dev/null -w '%{http_code}' "$sched/v1/users?apiKey=$key")
[ "$status" = "200" ] || { echo "scheduling /v1/users: $status"; exit 1; }
echo "scheduling API answered"

# SIGTERM to the PID of `pnpm start` only, as a process manager or `kill <pid>` sends it:
# it must exit 0, every process of its group must be gone, and the embedded PostgreSQL stopped cleanly.
kill -TERM "$pid"
wait "$pid" || { cat "$log"; echo "pnpm start did not exit 0 on SIGTERM"; exit 1; }
for _ in $(seq 1 60); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.5; done
kill -0 -- "-$pid" 2>/dev/null && { cat "$log"; echo "services did not stop on SIGTERM"; exit 1; }
[ ! -e "$DATA_DIR/postgres/postmaster.pid" ] || { cat "$log"; echo "embedded PostgreSQL not stopped"; exit 1; }
grep -qi '"level":50\|error' "$log" && { cat "$log"; echo "errors logged"; exit 1; }
trap - EXIT
rm -rf "$DATA_DIR"
echo "smoke passed"
