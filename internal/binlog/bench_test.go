package binlog_test

import (
	"context"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/testengine"
)

// benchInsert runs prepared sysbench-shaped single-row inserts, in
// autocommit mode, with the binary log on or off (the in-memory store
// makes the log's own cost visible: no fsync hides it).
func benchInsert(b *testing.B, logOn bool) {
	eng := testengine.Open(b, testengine.Options{Quiet: true})
	if logOn {
		l, err := binlog.Open(eng.DB.KV(), binlog.Options{Dir: b.TempDir(), ServerUUID: "3e11fa47-71ca-11e1-9e33-c80aa9429562", Version: "8.0.40-strata"})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = l.Close() })
		eng.UseBinlog(l)
	}
	s := eng.NewSession("root", "localhost")
	ctx := context.Background()
	for _, q := range []string{
		"CREATE DATABASE sbtest", "USE sbtest",
		"CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id), KEY k_1 (k))",
	} {
		if _, err := s.Query(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	const q = "INSERT INTO sbtest1 (k, c, pad) VALUES (?, ?, ?)"
	if _, _, err := s.Prepare(ctx, q); err != nil {
		b.Fatal(err)
	}
	bv := map[string]*querypb.BindVariable{
		"v2": sqltypes.StringBindVariable("00000000000-00000000000-00000000000-00000000000-00000000000"),
		"v3": sqltypes.StringBindVariable("00000000000-00000000000"),
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i % 1000))
		if _, err := s.ExecutePrepared(ctx, q, bv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInsertBinlogOff(b *testing.B) { benchInsert(b, false) }
func BenchmarkInsertBinlogOn(b *testing.B)  { benchInsert(b, true) }
