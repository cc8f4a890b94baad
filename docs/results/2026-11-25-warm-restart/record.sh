#!/bin/bash
S=/tmp/strata-warm; D=/tmp/warmmeas/data; cd /tmp/warmmeas
q() { mysql -h127.0.0.1 -P3399 -uroot "$@"; }
$S serve --datadir $D --port 3399 --memory 1073741824 > server-record.log 2>&1 &
P=$!
until q -e "select 1" >/dev/null 2>&1; do sleep 0.05; done
for i in $(seq ${RUNS:-3}); do q < hot.sql > /dev/null; done
for i in $(seq 50); do q < join.sql > /dev/null; done
kill -TERM $P; while kill -0 $P 2>/dev/null; do sleep 0.1; done
grep warmup server-record.log | sed 's/^.*msg=//'; ls -la $D/warmup
