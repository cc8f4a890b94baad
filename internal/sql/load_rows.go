package sql

import (
	"fmt"
	"io"

	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/loaddata"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// loadRows is LOAD DATA's row source: it reads the file's rows through a
// loaddata.Reader and makes each a table row — fields to columns by store
// assignment or to @variables as strings, the SET assignments, the
// defaults of the other columns — numbered for messages. How rows are
// written is the caller's (runLoad: INSERT's write path), so a bulk writer
// can take the same rows.
//
// The row, its given flags and the values' bytes live in buffers reused
// for the next row: a field's bytes are copied once, from the read buffer
// into the reader's row, which the column's value then aliases (a field
// converted to UTF-8, or read into an @variable, goes to the row's arena
// instead).
type loadRows struct {
	s  *Session
	ex *execCtx
	p  *loadPlan
	b  *rowBuilder
	rd *loaddata.Reader
	// pf reads rd's rows ahead on its own goroutine, from the first row
	// on (after IGNORE n LINES); close stops it.
	pf *loaddata.Prefetch
	// enc, when set, converts and encodes rows on the prefetcher's
	// workers (load_parallel.go).
	enc *loadEncoder

	row     Row
	given   []bool
	evalRow Row // the row and the @variables, for SET
	vars    []sqltypes.Value
	arena   []byte
	// rowNum is the current row's number (1-based, lines IGNORE skipped
	// not counted), cut whether its line held more fields than wanted.
	rowNum int
	cut    bool
	// read: some row was read (the @variables then keep its values).
	read bool
}

func (s *Session) newLoadRows(ex *execCtx, p *loadPlan, b *rowBuilder, r io.Reader) *loadRows {
	rd := loaddata.NewReader(r, p.format)
	// One row's fields may not exceed max_allowed_packet (1153), so a file
	// without line terminators cannot fill the memory.
	rd.MaxRowBytes = maxLoadRow
	if n := s.eng.MaxAllowedPacket(); n > 0 && n < maxLoadRow {
		rd.MaxRowBytes = int(n)
	}
	n := len(p.t.Columns)
	lr := &loadRows{s: s, ex: ex, p: p, b: b, rd: rd, row: make(Row, n), given: make([]bool, n), vars: make([]sqltypes.Value, len(p.vars))}
	if len(p.setExprs) > 0 {
		lr.evalRow = make(Row, n+len(p.vars))
	}
	if len(p.names) > 0 {
		ex.BV = s.bindSessionVars(p.names, ex.BV)
		ex.Env.BindVars = ex.BV
	}
	return lr
}

// maxLoadRow bounds one row of a loaded file when max_allowed_packet
// does not.
const maxLoadRow = 1 << 30

// fail reports a condition that is an error in strict mode (without
// IGNORE or LOCAL) and a warning otherwise.
func (lr *loadRows) fail(code sqlerror.ErrorCode, state, msg string) error {
	if lr.b.strict && !lr.p.ignore {
		return sqlerr.New(code, state, "%s", msg)
	}
	lr.s.warn("Warning", uint16(code), msg)
	return nil
}

// skip skips the IGNORE n LINES lines; false when the file ended first.
func (lr *loadRows) skip() (bool, error) {
	ok, err := lr.rd.Skip(lr.p.ld.IgnoreLines, len(lr.p.targets))
	if err != nil {
		return false, loadReadErr(err, lr.p)
	}
	return ok, nil
}

// next returns the next row (valid until the next call), or its
// encoding when a worker encoded it (lr.enc), io.EOF after the last.
func (lr *loadRows) next() (Row, []byte, error) {
	p, t, b := lr.p, lr.p.t, lr.b
	if lr.pf == nil {
		if lr.enc != nil {
			lr.pf = loaddata.NewPrefetchWork(lr.rd, len(p.targets), lr.enc.workers(), lr.enc.work)
		} else {
			lr.pf = loaddata.NewPrefetch(lr.rd, len(p.targets))
		}
	}
	fields, cut, err := lr.pf.Next()
	if err == io.EOF {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, loadReadErr(err, p)
	}
	if err := lr.ex.Context().Err(); err != nil {
		return nil, nil, err
	}
	lr.read, lr.cut, lr.rowNum = true, cut, int(lr.pf.Row())
	if lr.enc != nil {
		if enc := encodedRow(lr.pf); enc != nil {
			return nil, enc, nil
		}
	}
	row, given := lr.row, lr.given
	for i := range row {
		row[i], given[i] = sqltypes.NULL, false
	}
	for i := range lr.vars {
		lr.vars[i] = sqltypes.NULL
	}
	lr.arena = lr.arena[:0]
	for k, ti := range p.targets {
		if k >= len(fields) {
			if err := lr.missing(ti); err != nil {
				return nil, nil, err
			}
			continue
		}
		f := fields[k]
		var v sqltypes.Value
		if !f.Null {
			// A column's value is the reader's copy of the field (valid
			// until the next row, by when this row is written); a
			// converted field or a variable's value goes to the arena.
			val := f.Value
			if p.cs != nil || ti < 0 {
				start := len(lr.arena)
				if p.cs != nil {
					if lr.arena, err = charset.Convert(lr.arena, charset.Charset_utf8mb4{}, val, p.cs); err != nil {
						return nil, nil, sqlerr.New(sqlerror.ERTruncatedWrongValueForField, sqlerror.SSUnknownSQLState, "Invalid %s character string: '%s' at row %d", p.cs.Name(), val, lr.rowNum)
					}
				} else {
					lr.arena = append(lr.arena, val...)
				}
				val = lr.arena[start:len(lr.arena):len(lr.arena)]
			}
			v = sqltypes.MakeTrusted(sqltypes.VarChar, val)
		}
		if ti < 0 {
			lr.vars[-1-ti] = v
			continue
		}
		given[ti] = true
		if v.IsNull() {
			continue // NOT NULL is checked after SET and the triggers (notNull)
		}
		if row[ti], err = b.convert(ti, v, lr.rowNum); err != nil {
			return nil, nil, err
		}
	}
	if err := b.fillDefaults(row, given, true); err != nil {
		return nil, nil, err
	}
	if len(p.setExprs) > 0 {
		n := len(t.Columns)
		copy(lr.evalRow, row)
		copy(lr.evalRow[n:], lr.vars)
		for k, ci := range p.setCols {
			var v sqltypes.Value
			if x := p.setExprs[k]; x == nil {
				if v, err = b.defaultValue(ci); err != nil {
					return nil, nil, err
				}
			} else {
				if v, err = lr.ex.Eval(x, lr.evalRow); err != nil {
					return nil, nil, err
				}
				if v, err = b.convert(ci, v, lr.rowNum); err != nil {
					return nil, nil, err
				}
			}
			row[ci], given[ci] = v, true
			lr.evalRow[ci] = v
		}
	}
	return row, nil, nil
}

// close stops the reading ahead; the stream is the caller's again.
func (lr *loadRows) close() {
	if lr.pf != nil {
		lr.pf.Close()
	}
}

// missing handles target ti of a row whose line had too few fields
// (1261): a column gets its type's implicit default — MySQL resets the
// field (its type's zero), which keeps the NULL of a column whose default
// is NULL; TIMESTAMP NOT NULL takes its default expression (MySQL:
// CURRENT_TIMESTAMP) with the NOT NULL rules — and a variable NULL.
func (lr *loadRows) missing(ti int) error {
	if ti < 0 {
		return nil
	}
	t := lr.p.t
	c := &t.Columns[ti]
	if err := lr.fail(sqlerr.WarnTooFewRecords, "01000", fmt.Sprintf("Row %d doesn't contain data for all columns", lr.rowNum)); err != nil {
		return err
	}
	nullDefault := c.Nullable && c.DefaultExpr == "" && (!c.HasDefault || c.Default.IsNull())
	nowDefault := c.Type == sqltypes.Timestamp && !c.Nullable && c.DefaultExpr != ""
	if !nullDefault && !nowDefault && ti != t.AutoIncCol {
		lr.row[ti] = coltype.ImplicitDefault(c)
	}
	lr.given[ti] = true
	return nil
}

// notNull applies LOAD DATA's rule to a NULL from the file in a NOT NULL
// column, after SET and the BEFORE triggers (MySQL's check_constraints
// with ER_WARN_NULL_TO_NOTNULL): 1263 and the column's implicit default.
func (lr *loadRows) notNull(row Row) error {
	t := lr.p.t
	for _, ti := range lr.p.targets {
		if ti < 0 || !row[ti].IsNull() {
			continue
		}
		c := &t.Columns[ti]
		if c.Nullable || ti == t.AutoIncCol || c.Generated != "" || c.Type == sqltypes.Timestamp && c.DefaultExpr != "" {
			continue
		}
		if err := lr.fail(sqlerr.WarnNullToNotNull, sqlerr.StateNullValue, fmt.Sprintf("Column set to default value; NULL supplied to NOT NULL column '%s' at row %d", c.Name, lr.rowNum)); err != nil {
			return err
		}
		row[ti] = coltype.ImplicitDefault(c)
	}
	return nil
}

// endRow ends a written row: 1262 when its line held more fields than
// wanted (after the row, as MySQL reports it).
func (lr *loadRows) endRow() error {
	if !lr.cut {
		return nil
	}
	return lr.fail(sqlerr.WarnTooManyRecords, "01000", fmt.Sprintf("Row %d was truncated; it contained more data than there were input columns", lr.rowNum))
}

// setVars leaves the @variables with the last row's values, as MySQL does.
func (lr *loadRows) setVars() {
	if !lr.read {
		return
	}
	for k, name := range lr.p.vars {
		lr.s.userVars[name] = cloneValue(lr.vars[k])
	}
}
