package exec

import (
	"errors"
	"os"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// TestRunFileRoundTrip: every value comes back with its type and bytes,
// and the keys with their collations.
func TestRunFileRoundTrip(t *testing.T) {
	rows := []Row{
		{sqltypes.NULL, sqltypes.NewInt64(-5), sqltypes.NewUint64(1 << 63), sqltypes.NewVarChar("")},
		{sqltypes.NewVarBinary("a\x00b\xff"), sqltypes.NewFloat64(1.5), sqltypes.MakeTrusted(sqltypes.Decimal, []byte("-12.30")), sqltypes.NewVarChar("Zürich ")},
		{sqltypes.MakeTrusted(sqltypes.Datetime, []byte("2026-11-24 11:00:00.5")), sqltypes.MakeTrusted(sqltypes.TypeJSON, []byte(`{"a":1}`)), sqltypes.MakeTrusted(sqltypes.Enum, []byte("x")), sqltypes.NULL},
	}
	keys := []Key{{Col: 3}, {Col: 1}}
	rf, err := createRunFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer rf.remove()
	for _, r := range rows {
		kv := []SortVal{MakeSortVal(r[3], collGeneral), MakeSortVal(r[1], collGeneral)}
		if err := rf.appendRow(r, kv); err != nil {
			t.Fatal(err)
		}
	}
	if err := rf.flush(); err != nil {
		t.Fatal(err)
	}
	var rr runReader
	rr.reset(rf.f, run{size: rf.size, rows: uint64(len(rows))}, 4096)
	var got []Row
	for {
		ok, err := rr.next(keys)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if rr.keys[0].kind == 4 && rr.keys[0].coll != collGeneral {
			t.Fatalf("key collation %d", rr.keys[0].coll)
		}
		got = append(got, append(Row(nil), rr.row...))
		got[len(got)-1] = drainCopy(got[len(got)-1])
	}
	sameRows(t, got, rows)
	name := rf.f.Name()
	if err := rf.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file still there: %v", err)
	}
}

func drainCopy(r Row) Row {
	for i, v := range r {
		if !v.IsNull() {
			r[i] = sqltypes.MakeTrusted(v.Type(), append([]byte(nil), v.Raw()...))
		}
	}
	return r
}

func TestDecodeCorrupt(t *testing.T) {
	var kv []SortVal
	for _, b := range [][]byte{{}, {5}, {1, 0x89, 0x02, 9, 'a'}, {1, 0x89, 0x02, 1, 'a', 7}} {
		if _, err := decodeRecord(b, nil, &kv, nil); !errors.Is(err, ErrCorruptRun) {
			t.Errorf("%x: %v", b, err)
		}
	}
}
