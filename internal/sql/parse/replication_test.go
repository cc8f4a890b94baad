package parse

import (
	"reflect"
	"testing"
)

func TestParseReplica(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		ok   bool
		err  bool
		want ReplicaStmt
	}{
		{sql: "CHANGE REPLICATION SOURCE TO SOURCE_HOST='h', SOURCE_PORT = 3307, SOURCE_LOG_FILE='b.000002', SOURCE_LOG_POS=4;", ok: true,
			want: ReplicaStmt{Verb: ReplicaChange, Options: []ReplicaOption{{"SOURCE_HOST", "h", true}, {"SOURCE_PORT", "3307", false}, {"SOURCE_LOG_FILE", "b.000002", true}, {"SOURCE_LOG_POS", "4", false}}}},
		{sql: "change master to master_user='r''x', master_password=\"p\\\\w\"", ok: true,
			want: ReplicaStmt{Verb: ReplicaChange, Legacy: true, Options: []ReplicaOption{{"SOURCE_USER", "r'x", true}, {"SOURCE_PASSWORD", `p\w`, true}}}},
		{sql: "CHANGE REPLICATION SOURCE TO SOURCE_HOST='h' FOR CHANNEL 'c'", ok: true,
			want: ReplicaStmt{Verb: ReplicaChange, Options: []ReplicaOption{{"SOURCE_HOST", "h", true}}, Rest: "FOR CHANNEL 'c'"}},
		{sql: "START REPLICA", ok: true, want: ReplicaStmt{Verb: ReplicaStart}},
		{sql: "start slave io_thread", ok: true, want: ReplicaStmt{Verb: ReplicaStart, Legacy: true, Rest: "io_thread"}},
		{sql: "STOP SLAVE", ok: true, want: ReplicaStmt{Verb: ReplicaStop, Legacy: true}},
		{sql: "RESET REPLICA ALL", ok: true, want: ReplicaStmt{Verb: ReplicaReset, All: true}},
		{sql: "reset slave", ok: true, want: ReplicaStmt{Verb: ReplicaReset, Legacy: true}},
		{sql: "SHOW SLAVE STATUS", ok: true, want: ReplicaStmt{Verb: ReplicaShowStatus, Legacy: true}},
		{sql: "SHOW REPLICA STATUS", ok: true, want: ReplicaStmt{Verb: ReplicaShowStatus}},
		{sql: "CHANGE REPLICATION SOURCE TO", ok: true, err: true},
		{sql: "CHANGE REPLICATION SOURCE TO SOURCE_HOST 'h'", ok: true, err: true},
		{sql: "CHANGE REPLICATION SOURCE TO SOURCE_HOST='h' SOURCE_PORT=1", ok: true, err: true},
		{sql: "SHOW REPLICAS", ok: false},
		{sql: "SELECT 1", ok: false},
		{sql: "START TRANSACTION", ok: false},
	} {
		st, ok, err := ParseReplica(tc.sql)
		if ok != tc.ok || (err != nil) != tc.err {
			t.Errorf("%q: ok=%v err=%v", tc.sql, ok, err)
			continue
		}
		if !ok || tc.err {
			continue
		}
		if !reflect.DeepEqual(*st, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.sql, *st, tc.want)
		}
	}
}
