package codec

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// appendKeyDecoded is the reference: decode the row, then AppendKey each
// part.
func appendKeyDecoded(t *testing.T, rc *RowCodec, cols []catalog.IndexColumn, key, value []byte) ([]byte, bool) {
	t.Helper()
	row, err := rc.DecodeRow(nil, key, value)
	if err != nil {
		t.Fatalf("DecodeRow: %v", err)
	}
	var out []byte
	hasNull := false
	for _, ic := range cols {
		if row[ic.Col].IsNull() {
			hasNull = true
		}
		if out, err = AppendKey(out, &rc.t.Columns[ic.Col], row[ic.Col], ic.Prefix, ic.Desc); err != nil {
			t.Fatalf("AppendKey: %v", err)
		}
	}
	return out, hasNull
}

// TestKeyTranscoderMatchesDecode builds index keys straight from stored
// rows and compares them with decoding the row and encoding its values,
// for every supported type, prefixes, descending parts and NULLs, in and
// out of table column order.
func TestKeyTranscoderMatchesDecode(t *testing.T) {
	tbl := allTypesTable()
	tbl.Columns = append(tbl.Columns,
		scaled("dt1", sqltypes.Datetime, 1), scaled("dt3", sqltypes.Datetime, 3), scaled("dt5", sqltypes.Datetime, 5),
		textCol("vc", sqltypes.VarChar, coll0900AICI))
	rc := NewRowCodec(tbl)
	const (
		cI8, cU64, cI64, cDate, cDT, cTS, cTxt, cBlob, cC, cU8, cI24 = 3, 4, 5, 9, 10, 11, 17, 18, 20, 22, 23
		cDT1, cDT3, cDT5, cVC                                        = 24, 25, 26, 27
	)
	supported := []int{cI8, cU64, cI64, cDate, cDT, cTS, cTxt, cBlob, cC, cU8, cI24, cDT1, cDT3, cDT5, cVC}
	r := rand.New(rand.NewSource(1))
	texts := []string{"", "a", "Alice", "héllo wörld", "ÅÄÖ straße", "http://example.com/some/long/path?q=1", "\x00\x01\xff", "tab\t", "ﬁ ligature"}
	datetimes := []string{"0000-00-00 00:00:00.000000", "2024-01-31 13:45:00.123456", "9999-12-31 23:59:59.999999", "1970-01-01 00:00:01.000009", "2024-02-29 00:00:00.500000"}
	dates := []string{"0000-00-00", "2024-01-31", "9999-12-31", "1000-01-01"}
	ints := []string{"0", "1", "-1", "127", "-128"}
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	var rows [][]sqltypes.Value
	for n := 0; n < 300; n++ {
		dt := pick(datetimes)
		row := makeRow(tbl, "1", pick(texts), pick(texts), pick(ints), "18446744073709551615", "-9223372036854775808", "0", "0",
			"1.000", pick(dates), dt, dt[:19], "00:00:00.000", "2024",
			"small", "a", "\x00\x01", pick(texts), pick(texts), "[]", pick(texts), "1", "255", "-8388608",
			dt[:21], dt[:23], dt[:25], pick(texts))
		for _, c := range supported {
			if r.Intn(5) == 0 {
				row[c] = sqltypes.NULL
			}
		}
		row[cU64] = sqltypes.NewUint64(r.Uint64())
		row[cI64] = sqltypes.NewInt64(r.Int63() - r.Int63())
		rows = append(rows, row)
	}
	indexes := [][]catalog.IndexColumn{
		{{Col: cDT}},
		{{Col: cU8}, {Col: cDT, Desc: true}},
		{{Col: cVC, Prefix: 3}},
		{{Col: cC, Prefix: 4}, {Col: cI8}},
		{{Col: cI24}, {Col: cC}},
		{{Col: cTxt, Prefix: 2, Desc: true}, {Col: cBlob, Prefix: 3}, {Col: cVC, Desc: true}},
		{{Col: cDT5}, {Col: cDT3}, {Col: cDT1}, {Col: cTS}, {Col: cDate}},
		{{Col: cI64, Desc: true}, {Col: cU64}},
	}
	for _, row := range rows {
		value, err := rc.EncodeRow(nil, row)
		if err != nil {
			t.Fatal(err)
		}
		key := pkSuffix(t, tbl, row)
		for _, cols := range indexes {
			kt := rc.NewKeyTranscoder(cols)
			if kt == nil {
				t.Fatalf("index %v: no transcoder", cols)
			}
			got, gotNull, err := kt.AppendKey([]byte("pfx"), value)
			if err != nil {
				t.Fatalf("index %v: %v", cols, err)
			}
			want, wantNull := appendKeyDecoded(t, rc, cols, key, value)
			if !bytes.Equal(got[3:], want) || string(got[:3]) != "pfx" || gotNull != wantNull {
				t.Fatalf("index %v row %v:\n got %x (null %v)\nwant %x (null %v)", cols, row, got[3:], gotNull, want, wantNull)
			}
		}
	}
}

// TestKeyTranscoderUnsupported: columns whose key needs the decoded value
// (or that are recovered from the primary key) give no transcoder; rows
// written before a key column was added fall back.
func TestKeyTranscoderUnsupported(t *testing.T) {
	tbl := allTypesTable()
	rc := NewRowCodec(tbl)
	for _, c := range []int{0, 6, 7, 8, 12, 13, 14, 15, 16} { // recovered PK column, float, double, decimal, time, year, enum, set, bit
		if rc.NewKeyTranscoder([]catalog.IndexColumn{{Col: c}}) != nil {
			t.Errorf("column %s: transcoder for an unsupported column", tbl.Columns[c].Name)
		}
	}
	old := &catalog.Table{Name: "t",
		Columns: []catalog.Column{intCol("id", sqltypes.Int64), intCol("a", sqltypes.Int32)},
		Indexes: []*catalog.Index{{ID: 9, Primary: true, Columns: []catalog.IndexColumn{{Col: 0}}}}}
	newer := *old
	newer.Columns = append(append([]catalog.Column(nil), old.Columns...),
		catalog.Column{Name: "b", Type: sqltypes.Int32, HasDefault: true, Default: sqltypes.NewInt32(7), Nullable: true})
	value, err := NewRowCodec(old).EncodeRow(nil, makeRow(old, "10", "-3"))
	if err != nil {
		t.Fatal(err)
	}
	kt := NewRowCodec(&newer).NewKeyTranscoder([]catalog.IndexColumn{{Col: 2}})
	if _, _, err := kt.AppendKey(nil, value); !errors.Is(err, ErrNoTranscode) {
		t.Errorf("row without the key column: %v, want ErrNoTranscode", err)
	}
	kt = NewRowCodec(&newer).NewKeyTranscoder([]catalog.IndexColumn{{Col: 1}})
	if _, _, err := kt.AppendKey(nil, value[:len(value)-1]); err == nil || errors.Is(err, ErrNoTranscode) {
		t.Errorf("truncated row: %v, want a corruption error", err)
	}
}
