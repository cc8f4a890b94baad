# Shell helpers the replication scripts (sysbench_maria.sh,
# sysbench_strata.sh) share. Each takes the names of the caller's client
# command arrays (e.g. P=(mysql -h127.0.0.1 -P3307 -uroot)): the primary's
# and the replica's. MariaDB names the status columns Slave_/Master_,
# strata (as MySQL 8.0.22+) Replica_/Source_; both are matched.

# catch_up PRIMARY REPLICA: waits until the replica has executed the
# primary's current SHOW MASTER STATUS position; exits 1 if its SQL thread
# stopped or it did not get there in 10 minutes.
catch_up() {
	local -n _cp=$1 _cr=$2
	local file pos st wait0=$SECONDS
	read -r file pos _ < <("${_cp[@]}" -N -e "SHOW MASTER STATUS")
	echo "primary at $file:$pos; waiting for the replica"
	for _ in $(seq 1 1200); do
		st=$("${_cr[@]}" -e "SHOW REPLICA STATUS\G")
		if grep -qE "(Slave|Replica)_SQL_Running: No" <<<"$st"; then
			echo "replica stopped:" >&2
			grep -E "Last_(SQL|IO)_Err" <<<"$st" >&2
			exit 1
		fi
		if grep -qE "Relay_(Master|Source)_Log_File: $file$" <<<"$st" && grep -qE "Exec_(Master|Source)_Log_Pos: $pos$" <<<"$st"; then
			echo "replica caught up $((SECONDS - wait0))s after the load ended"
			return 0
		fi
		sleep 0.5
	done
	echo "replica did not catch up:" >&2
	echo "$st" >&2
	exit 1
}

# compare_tables PRIMARY REPLICA N: compares sbtest.sbtest1..N row by row
# (ordered by primary key; CHECKSUM TABLE differs between engines) and
# exits 1 if any differs.
compare_tables() {
	local -n _tp=$1 _tr=$2
	local fail=0 i q a b n
	for i in $(seq 1 "$3"); do
		q="SELECT id, k, c, pad FROM sbtest.sbtest$i ORDER BY id"
		a=$("${_tp[@]}" -N -e "$q" | md5sum)
		b=$("${_tr[@]}" -N -e "$q" | md5sum)
		n=$("${_tp[@]}" -N -e "SELECT COUNT(*) FROM sbtest.sbtest$i")
		if [[ $a == "$b" ]]; then
			echo "sbtest$i: $n rows, equal"
		else
			echo "sbtest$i: DIFFERENT" >&2
			fail=1
		fi
	done
	((fail == 0)) || exit 1
}
