package server

import (
	"log/slog"
	"math"
	"strconv"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

// Clients decode a row by its column metadata: the binary protocol encodes
// each value by its own type (an INT value is 4 bytes, a BIGINT 8), and a
// text-protocol client parses "1.5" in an INT column as an error. A value
// whose type differs from its column's would make the client misread the
// row — or, with the binary protocol, every later byte of it. conformResult
// is the last line of defence: every value leaves typed as its column, or,
// when its text is not a value of that type, the column is sent as text.
// Such a column is a metadata defect of the SQL layer; it is counted and
// logged once.

// metadataMismatches counts columns conformResult had to send as text.
var metadataMismatches atomic.Int64

// MetadataMismatches returns how many result columns were sent as text
// because their values did not fit their declared type.
func MetadataMismatches() int64 { return metadataMismatches.Load() }

var loggedMismatch atomic.Bool

// conformResult retypes the values of res to their columns' types in place.
// res.Fields may be a plan's cached metadata: a changed column is set in a
// copy of the slice.
func conformResult(res *sqltypes.Result) {
	if res == nil || len(res.Fields) == 0 || len(res.Rows) == 0 {
		return
	}
	copied := false
	for c, f := range res.Fields {
		ok := true
		for _, row := range res.Rows {
			if c >= len(row) || row[c].IsNull() || row[c].Type() == f.Type {
				continue
			}
			v, fits := conformValue(row[c], f.Type)
			if !fits {
				ok = false
				break
			}
			row[c] = v
		}
		if ok {
			continue
		}
		// Send the column as text: every value has a text form.
		noteMismatch("result column values do not fit its type; sent as text", f)
		if !copied {
			res.Fields = append([]*querypb.Field(nil), res.Fields...)
			copied = true
		}
		nf := res.Fields[c].CloneVT()
		nf.Type = sqltypes.VarChar
		nf.Charset = uint32(collations.CollationUtf8mb4ID)
		nf.Decimals = 31
		nf.Flags &^= uint32(querypb.MySqlFlag_NUM_FLAG | querypb.MySqlFlag_UNSIGNED_FLAG | querypb.MySqlFlag_BINARY_FLAG)
		if !copied {
			// res.Fields may be a cached plan's metadata, shared by
			// every session: replace the slice, never write into it.
			res.Fields = append([]*querypb.Field(nil), res.Fields...)
			copied = true
		}
		res.Fields[c] = nf
		for _, row := range res.Rows {
			if c < len(row) && !row[c].IsNull() {
				row[c] = sqltypes.MakeTrusted(sqltypes.VarChar, row[c].Raw())
			}
		}
	}
	fixedDecimals(res)
	zerofill(res)
}

// fixedDecimals formats the values of FLOAT and DOUBLE columns declared
// with a number of decimals (FLOAT(7,2), DOUBLE(8,3): Decimals below 31)
// with exactly that many, as MySQL prints them ("1.50"); the text protocol
// sends the text, the binary protocol the number, so only text clients see
// the difference. Columns without fixed decimals keep the shortest form.
func fixedDecimals(res *sqltypes.Result) {
	for c, f := range res.Fields {
		if !sqltypes.IsFloat(f.Type) || f.Decimals == 0 || f.Decimals >= 31 {
			continue
		}
		for _, row := range res.Rows {
			if c >= len(row) || row[c].IsNull() {
				continue
			}
			x, err := strconv.ParseFloat(string(row[c].Raw()), 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				continue
			}
			row[c] = sqltypes.MakeTrusted(f.Type, strconv.AppendFloat(nil, x, 'f', int(f.Decimals), 64))
		}
	}
}

// zerofill pads the values of ZEROFILL columns (and YEAR, which MySQL
// flags ZEROFILL) with leading zeros to the column's display width, as
// MySQL prints them: INT(5) ZEROFILL 42 is "00042", DECIMAL(5,2) ZEROFILL
// 1.5 is "001.50", YEAR 0 is "0000". The binary protocol parses the padded
// text back into the same number, so only text clients see the difference.
// Only columns read straight from a ZEROFILL column carry the flag.
func zerofill(res *sqltypes.Result) {
	for c, f := range res.Fields {
		if f.Flags&uint32(querypb.MySqlFlag_ZEROFILL_FLAG) == 0 || !sqltypes.IsNumber(f.Type) || f.ColumnLength == 0 || f.ColumnLength > 255 {
			continue
		}
		w := int(f.ColumnLength)
		for _, row := range res.Rows {
			if c >= len(row) || row[c].IsNull() {
				continue
			}
			raw := row[c].Raw()
			if len(raw) >= w || len(raw) == 0 || raw[0] == '-' {
				continue
			}
			b := make([]byte, w)
			n := copy(b[w-len(raw):], raw)
			for i := range w - n {
				b[i] = '0'
			}
			row[c] = sqltypes.MakeTrusted(row[c].Type(), b)
		}
	}
}

// conformBatch retypes the values of a later batch of a streamed result to
// the columns sent with its first batch (res.Fields). The columns cannot
// change any more: a value that is not of its column's type ends the result
// with an error rather than reach the client misread.
func conformBatch(res *sqltypes.Result) error {
	for c, f := range res.Fields {
		for _, row := range res.Rows {
			if c >= len(row) || row[c].IsNull() || row[c].Type() == f.Type {
				continue
			}
			v, fits := conformValue(row[c], f.Type)
			if !fits {
				noteMismatch("result column value does not fit the type sent with its first rows", f)
				return sqlerror.NewSQLErrorf(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState,
					"result column '%s' is %s but a row sent later has a %s value", f.Name, f.Type, row[c].Type())
			}
			row[c] = v
		}
	}
	fixedDecimals(res)
	zerofill(res)
	return nil
}

// noteMismatch counts a column whose values did not fit its type, and logs
// the first.
func noteMismatch(msg string, f *querypb.Field) {
	metadataMismatches.Add(1)
	if loggedMismatch.CompareAndSwap(false, true) {
		slog.Warn(msg, "column", f.Name, "type", f.Type.String())
	}
}

// conformValue returns v typed as t when v's text is a valid value of t.
func conformValue(v sqltypes.Value, t querypb.Type) (sqltypes.Value, bool) {
	raw := v.Raw()
	switch {
	case sqltypes.IsSigned(t) || t == sqltypes.Year:
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || !fitsSigned(n, t) {
			return v, false
		}
	case sqltypes.IsUnsigned(t):
		n, err := strconv.ParseUint(string(raw), 10, 64)
		if err != nil || !fitsUnsigned(n, t) {
			return v, false
		}
	case sqltypes.IsFloat(t):
		if !v.IsIntegral() && !v.IsFloat() && v.Type() != sqltypes.Decimal {
			if _, err := strconv.ParseFloat(string(raw), 64); err != nil {
				return v, false
			}
		}
	case t == sqltypes.Decimal:
		if !v.IsIntegral() && v.Type() != sqltypes.Decimal && !(v.IsFloat() && plainDecimal(raw)) {
			return v, false
		}
	case sqltypes.IsText(t) || sqltypes.IsBinary(t):
		// Any value has a text form.
	default:
		// Temporal, JSON, BIT, ENUM/SET, geometry: only the same kind.
		return v, false
	}
	return sqltypes.MakeTrusted(t, raw), true
}

func fitsSigned(n int64, t querypb.Type) bool {
	switch t {
	case sqltypes.Int8:
		return n >= -1<<7 && n < 1<<7
	case sqltypes.Int16:
		return n >= -1<<15 && n < 1<<15
	case sqltypes.Int24:
		return n >= -1<<23 && n < 1<<23
	case sqltypes.Int32:
		return n >= -1<<31 && n < 1<<31
	case sqltypes.Year:
		return n >= 0 && n <= 9999
	}
	return true
}

func fitsUnsigned(n uint64, t querypb.Type) bool {
	switch t {
	case sqltypes.Uint8:
		return n < 1<<8
	case sqltypes.Uint16:
		return n < 1<<16
	case sqltypes.Uint24:
		return n < 1<<24
	case sqltypes.Uint32:
		return n < 1<<32
	}
	return true
}

// plainDecimal reports whether a float's text is also a DECIMAL's (digits,
// an optional sign and point; no exponent, inf or nan).
func plainDecimal(b []byte) bool {
	digits := false
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '-' && i == 0, c == '.':
		default:
			return false
		}
	}
	return digits
}
