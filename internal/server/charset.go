package server

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql"
)

// Connection character sets. strata keeps text as UTF-8; a client whose
// character_set_client is another set (SET NAMES latin1, or a latin1
// collation in its handshake) sends statements and CHAR/VARCHAR arguments
// in that set, which are converted on arrival (sql.Session.DecodeQuery,
// DecodeParam), and gets text result columns in character_set_results,
// converted here as they are sent, with the columns labelled with that
// set's default collation as MySQL does. A UTF-8 session (the default)
// converts nothing.

// decodeParams converts a prepared statement's string arguments from the
// client's character set.
func decodeParams(s *sql.Session, bvs map[string]*querypb.BindVariable) {
	for _, bv := range bvs {
		if bv.Type != sqltypes.VarChar && bv.Type != sqltypes.Char {
			continue
		}
		v := s.DecodeParam(sqltypes.MakeTrusted(bv.Type, bv.Value))
		bv.Value = v.Raw()
	}
}

// convertsText reports whether a result column holds text that is
// converted to character_set_results (not binary strings, numbers,
// temporal values or JSON).
func convertsText(f *querypb.Field) bool {
	if f.Charset == uint32(collations.CollationBinaryID) {
		return false
	}
	switch f.Type {
	case sqltypes.VarChar, sqltypes.Char, sqltypes.Text, sqltypes.Enum, sqltypes.Set:
		return true
	}
	return false
}

// resultFields returns the columns of a result converted to rc: text
// columns labelled coll. The fields are copied: the session's may be
// shared by a cached plan.
func resultFields(fields []*querypb.Field, coll collations.ID) []*querypb.Field {
	out := make([]*querypb.Field, len(fields))
	for i, f := range fields {
		if convertsText(f) {
			nf := f.CloneVT()
			nf.Charset = uint32(coll)
			out[i] = nf
			continue
		}
		out[i] = f
	}
	return out
}

// convertRows returns res with the text of its converted columns
// (fields, as resultFields made them; labelled coll) in rc. The rows are
// copied; the values of other columns are shared.
func convertRows(res *sqltypes.Result, fields []*querypb.Field, rc charset.Charset, coll collations.ID) *sqltypes.Result {
	out := *res
	out.Fields = fields
	out.Rows = make([][]sqltypes.Value, len(res.Rows))
	for r, row := range res.Rows {
		nr := make([]sqltypes.Value, len(row))
		copy(nr, row)
		for c := range nr {
			if c >= len(fields) || !convertsText(fields[c]) || nr[c].IsNull() {
				continue
			}
			b, _ := charset.Convert(nil, rc, nr[c].Raw(), charset.Charset_utf8mb4{})
			nr[c] = sqltypes.MakeTrusted(nr[c].Type(), b)
		}
		out.Rows[r] = nr
	}
	return &out
}
