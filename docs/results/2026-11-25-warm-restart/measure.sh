#!/bin/bash
# Warm-restart measurement: see the report. Usage: measure.sh PHASE
S=/tmp/strata-warm; D=/tmp/warmmeas/data; cd /tmp/warmmeas
q() { mysql -h127.0.0.1 -P3399 -uroot "$@"; }
now() { date +%s.%N; }
start() { # args: extra flags
  local t0=$(now)
  $S serve --datadir $D --port 3399 --memory 1073741824 "$@" > server-$PHASE.log 2>&1 &
  echo $! > server.pid
  until q -e "select 1" >/dev/null 2>&1; do sleep 0.05; done
  echo "ready after $(echo "$(now) - $t0" | bc) s"
}
stop() { local p=$(cat server.pid); kill -TERM $p; while kill -0 $p 2>/dev/null; do sleep 0.1; done; }
cache() { q -N -e "show global status like 'Strata_block_cache_%'" | awk '{printf "%s=%s ", $1, $2} END {print ""}'; }
timed() { local t0=$(now); q < $1 > /dev/null; echo "$1: $(echo "$(now) - $t0" | bc) s"; }
dropcaches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
PHASE=$1
case $PHASE in
record)  # server already running from the load
  for i in 1 2 3; do timed hot.sql; done
  for i in $(seq 50); do q < join.sql > /dev/null; done
  stop; ls -la $D/warmup ;;
cold)
  dropcaches; start --warmup=false --warmup-record=false
  cache; timed join.sql; cache; timed hot.sql; cache; timed hot.sql; cache; stop ;;
warm)
  dropcaches; start --warmup-record=false
  until grep -q "warmup " server-$PHASE.log; do sleep 0.1; done
  grep "warmup" server-$PHASE.log | sed 's/^.*msg=//'
  cache; timed join.sql; cache; timed hot.sql; cache; timed hot.sql; cache; stop ;;
first)  # query right after the listener is up, warmup still running
  dropcaches; start --warmup-record=false
  timed join.sql; cache; timed hot.sql; cache
  until grep -q "warmup " server-$PHASE.log; do sleep 0.1; done
  grep "warmup" server-$PHASE.log | sed 's/^.*msg=//'; stop ;;
esac
case $PHASE in
firstdefault)  # as first, with the default flags (recording on: the warmup sees the foreground)
  dropcaches; start
  timed join.sql; cache; timed hot.sql; cache
  until grep -q "warmup " server-$PHASE.log; do sleep 0.1; done
  grep "warmup" server-$PHASE.log | sed 's/^.*msg=//'; stop ;;
esac
