package sql

import (
	"errors"
	"fmt"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/tz"
)

// Time zones of TIMESTAMP values. The store holds TIMESTAMP columns in
// UTC; statements see them in the session's time zone (time_zone), as in
// MySQL. The conversion happens where the SQL layer meets the table
// layer, and nowhere else:
//
//   - rows read from a table (the join's scans and point reads, hash-join
//     builds, foreign-key scans, the conflicting row of INSERT ... ON
//     DUPLICATE KEY UPDATE / REPLACE, rows checked by ALTER TABLE) go
//     through fromStore;
//   - rows written go through storeInsert, storeUpdate and storeDelete
//     (fk.go calls them). UPDATE and DELETE compute the entries they
//     remove from the stored row, read again by its primary key, never by
//     converting local time back: in the repeated hour of a fall-back two
//     instants show the same local time. An UPDATE keeps the stored instant
//     of every TIMESTAMP value it did not change, for the same reason;
//   - key values built from constants and outer rows go through
//     storedKeyValue and storedBound (index lookups and ranges, access.go),
//     keyToStore (foreign-key lookups) and toStore (duplicate-key lookups);
//   - store assignment checks a TIMESTAMP's range on its UTC instant
//     (coltype.ConvertIn with zoneOf), and ALTER TABLE's rebuild converts
//     through rebuildInZone.
//
// A writer that bypasses fk.go (a bulk load) must convert its rows with
// toStore itself.
//
// Under a zone with offset zero (SYSTEM on a UTC server, 'UTC', '+00:00')
// nothing is converted, and a table without TIMESTAMP columns costs one
// length check.

// sessionZone caches the zone of the session's time_zone value.
type sessionZone struct {
	name string
	zone *tz.Zone
}

// zone returns the session's time zone, resolved when time_zone changed
// (SET validated it; a stored value that no longer resolves reads as
// SYSTEM).
func (s *Session) zone() *tz.Zone {
	name := s.plan().TimeZone
	if s.tz.zone != nil && name == s.tz.name {
		return s.tz.zone
	}
	z, err := tz.Resolve(name)
	if err != nil {
		z, _ = tz.Resolve("SYSTEM")
	}
	s.tz = sessionZone{name: name, zone: z}
	return z
}

// zoneCols returns tbl's TIMESTAMP columns and the session's zone when
// its values need conversion, else nil.
func (s *Session) zoneCols(tbl *table.Table) ([]int, *tz.Zone) {
	cols := tbl.TimestampCols()
	if len(cols) == 0 {
		return nil, nil
	}
	z := s.zone()
	if z.IsUTC() {
		return nil, nil
	}
	return cols, z
}

// fromStore converts the TIMESTAMP values of row, read from tbl, from UTC
// into the session's time zone, in place. The converted bytes are newly
// allocated: they outlive the reader's buffers as the row does.
func (s *Session) fromStore(tbl *table.Table, row Row) Row {
	cols, z := s.zoneCols(tbl)
	if cols == nil {
		return row
	}
	var buf []byte
	for _, c := range cols {
		if c >= len(row) || row[c].IsNull() {
			continue
		}
		if buf == nil {
			buf = make([]byte, 0, 26*len(cols))
		}
		start := len(buf)
		nb, ok := z.AppendLocal(buf, row[c].Raw())
		if !ok {
			continue
		}
		buf = nb
		row[c] = sqltypes.MakeTrusted(row[c].Type(), buf[start:len(buf):len(buf)])
	}
	return row
}

// toStore returns row with its TIMESTAMP values converted from the
// session's time zone to UTC: row itself when nothing converts, else a
// copy.
func (s *Session) toStore(tbl *table.Table, row Row) Row {
	cols, z := s.zoneCols(tbl)
	if cols == nil {
		return row
	}
	out := make(Row, len(row))
	copy(out, row)
	var buf []byte
	for _, c := range cols {
		if out[c].IsNull() {
			continue
		}
		out[c], buf, _ = appendUTC(z, buf, out[c])
	}
	return out
}

// appendUTC converts one local TIMESTAMP value to UTC, its bytes appended
// to buf.
func appendUTC(z *tz.Zone, buf []byte, v sqltypes.Value) (sqltypes.Value, []byte, bool) {
	start := len(buf)
	nb, _, ok := z.AppendUTC(buf, v.Raw())
	if !ok {
		return v, buf, false
	}
	return sqltypes.MakeTrusted(v.Type(), nb[start:len(nb):len(nb)]), nb, true
}

// storeInsert inserts row (session time) into tbl. A duplicate-key error
// names the entry in session time, as MySQL prints it.
func (s *Session) storeInsert(ex *execCtx, tbl *table.Table, row Row, keyBuf []byte) ([]byte, error) {
	srow := s.toStore(tbl, row)
	pk, err := tbl.Insert(ex.tx, srow, keyBuf)
	if err != nil && len(row) > 0 && &srow[0] != &row[0] {
		s.dupInZone(tbl, err, row)
	}
	return pk, err
}

// dupInZone rewrites the entry of a duplicate-key error to row's values
// (session time). Kept out of the write functions: the error's address
// escapes, and would cost their fast paths an allocation.
func (s *Session) dupInZone(tbl *table.Table, err error, row Row) {
	var dup *table.DupKeyError
	if errors.As(err, &dup) {
		dup.Entry = tbl.DupEntry(dup.Index, row)
	}
}

// storedRow reads the row stored under pk (the caller holds its lock).
func (s *Session) storedRow(ex *execCtx, tbl *table.Table, pk []byte) (Row, error) {
	stored, ok, err := tbl.Get(ex.tx, pk, true, nil)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s.%s: locked row not found", tbl.Def.DB, tbl.Def.Name)
	}
	return stored, nil
}

// storeUpdate replaces the row under pk, read as old (session time), by
// row. The entries to replace come from the stored row; a TIMESTAMP value
// equal to old's keeps its stored instant.
func (s *Session) storeUpdate(ex *execCtx, tbl *table.Table, pk []byte, old, row Row) ([]byte, error) {
	cols, z := s.zoneCols(tbl)
	if cols == nil {
		return tbl.Update(ex.tx, pk, old, row)
	}
	stored, err := s.storedRow(ex, tbl, pk)
	if err != nil {
		return nil, err
	}
	nrow := make(Row, len(row))
	copy(nrow, row)
	var buf []byte
	for _, c := range cols {
		switch {
		case sameValue(row[c], old[c]):
			nrow[c] = stored[c]
		case !row[c].IsNull():
			nrow[c], buf, _ = appendUTC(z, buf, row[c])
		}
	}
	npk, err := tbl.Update(ex.tx, pk, stored, nrow)
	if err != nil {
		s.dupInZone(tbl, err, row)
	}
	return npk, err
}

// storeDelete deletes the row under pk (read as row), its entries
// computed from the stored row.
func (s *Session) storeDelete(ex *execCtx, tbl *table.Table, pk []byte, row Row) error {
	if cols, _ := s.zoneCols(tbl); cols == nil {
		return tbl.Delete(ex.tx, pk, row)
	}
	stored, err := s.storedRow(ex, tbl, pk)
	if err != nil {
		return err
	}
	return tbl.Delete(ex.tx, pk, stored)
}

// keyToStore returns the key values vals of tbl's columns cols (session
// time) as stored: TIMESTAMP values in UTC (MySQL's instant for a local
// time, the earlier of an overlap). vals itself when nothing converts.
func (s *Session) keyToStore(tbl *table.Table, cols []int, vals []sqltypes.Value) []sqltypes.Value {
	zc, z := s.zoneCols(tbl)
	if zc == nil {
		return vals
	}
	var out []sqltypes.Value
	var buf []byte
	for k, c := range cols {
		if tbl.Def.Columns[c].Type != sqltypes.Timestamp || vals[k].IsNull() {
			continue
		}
		if out == nil {
			out = append([]sqltypes.Value(nil), vals...)
		}
		out[k], buf, _ = appendUTC(z, buf, vals[k])
	}
	if out == nil {
		return vals
	}
	return out
}

// storedKeyValue is exactKeyValue for an equality on a key part of col: a
// TIMESTAMP value is taken in the session's time zone and becomes the UTC
// instant stored for it. A local time that shows no instant (a DST gap)
// or two (the repeated hour of a fall-back) is not exact.
func (s *Session) storedKeyValue(col *catalog.Column, v sqltypes.Value) (sqltypes.Value, bool) {
	cv, ok := exactKeyValue(col, v)
	if !ok || col.Type != sqltypes.Timestamp || cv.IsNull() {
		return cv, ok
	}
	z := s.zone()
	if z.IsUTC() {
		return cv, true
	}
	b, unique, ok := z.AppendKey(nil, cv.Raw())
	if !ok || !unique {
		return v, false
	}
	return sqltypes.MakeTrusted(cv.Type(), b), true
}

// storedBound converts a range bound cv (exactKeyValue's result) on a key
// part of col as storedKeyValue does, to the first instant at or after a
// lower bound and the last at or before an upper one. exact is false
// unless the zone has a fixed offset: local time is not monotonic in UTC
// across a fall-back, so the UTC range may hold rows the local range does
// not, and the conditions must be re-checked (the answer is then the one
// of a table scan).
func (s *Session) storedBound(col *catalog.Column, cv sqltypes.Value, upper bool) (sqltypes.Value, bool) {
	if col.Type != sqltypes.Timestamp || cv.IsNull() {
		return cv, true
	}
	z := s.zone()
	if z.IsUTC() {
		return cv, true
	}
	b, ok := z.AppendBound(nil, cv.Raw(), upper)
	if !ok {
		return cv, false
	}
	return sqltypes.MakeTrusted(cv.Type(), b), z.Fixed()
}

// zoneOf is the zone store assignment takes col's values in
// (coltype.ConvertIn): the session's for a TIMESTAMP column (and for a
// DATETIME one, which converts a literal with a UTC offset into it), else
// nil.
func (s *Session) zoneOf(col *catalog.Column) *tz.Zone {
	if col.Type != sqltypes.Timestamp && col.Type != sqltypes.Datetime {
		return nil
	}
	return s.zone()
}

// rebuildInZone wraps conv, the row conversion of an ALTER TABLE that
// rebuilds old into nt, for the session's time zone: conv sees old's
// TIMESTAMP values in session time (as MySQL converts a TIMESTAMP column
// to DATETIME) and its TIMESTAMP results are stored in UTC. A TIMESTAMP
// column that stays TIMESTAMP keeps its stored instant (rounded to the new
// scale in UTC), never converted there and back.
func (s *Session) rebuildInZone(old, nt *catalog.Table, mapping []int, conv schemachange.ConvertFunc) schemachange.ConvertFunc {
	z := s.zone()
	ot, ntt := s.eng.Store.Open(old), s.eng.Store.Open(nt)
	if z.IsUTC() || len(ot.TimestampCols()) == 0 && len(ntt.TimestampCols()) == 0 {
		return conv
	}
	local := make(Row, len(old.Columns))
	return func(row Row, rowNum int, nrow Row) error {
		copy(local, row)
		if err := conv(s.fromStore(ot, local), rowNum, nrow); err != nil {
			return err
		}
		for _, i := range ntt.TimestampCols() {
			if nrow[i].IsNull() {
				continue
			}
			if oi := mapping[i]; oi >= 0 && old.Columns[oi].Type == sqltypes.Timestamp && !row[oi].IsNull() {
				v, _, err := coltype.Convert(&nt.Columns[i], row[oi], s.strict(), rowNum)
				if err != nil {
					return err
				}
				nrow[i] = v
				continue
			}
			nrow[i], _, _ = appendUTC(z, nil, nrow[i])
		}
		return nil
	}
}

// TIMESTAMP defaults. A constant DEFAULT of a TIMESTAMP column denotes an
// instant, kept in UTC like a stored value: CREATE TABLE converts it from
// the session's zone (MySQL keeps the instant it denoted when the table
// was created), and every session inserts that instant, shown in its own
// zone (constDefault; SHOW CREATE TABLE and information_schema via
// defaultsInZone).

// timestampDefaultsToUTC converts the constant TIMESTAMP defaults of a new
// table definition from the session's zone to UTC; one outside the
// TIMESTAMP range there is 1067.
func (s *Session) timestampDefaultsToUTC(t *catalog.Table) error {
	return s.alterTimestampDefaults(nil, t, nil)
}

// alterTimestampDefaults is timestampDefaultsToUTC for the definition nt
// ALTER TABLE made of old (mapping: new column ordinals to old ones, -1
// for new columns): a TIMESTAMP column that keeps the default it had (and
// its type) keeps its instant; a new or changed default is converted.
func (s *Session) alterTimestampDefaults(old, nt *catalog.Table, mapping []int) error {
	z := s.zone()
	if z.IsUTC() {
		return nil
	}
	for i := range nt.Columns {
		c := &nt.Columns[i]
		if c.Type != sqltypes.Timestamp || !c.HasDefault || c.DefaultExpr != "" || c.Default.IsNull() {
			continue
		}
		if old != nil && i < len(mapping) && mapping[i] >= 0 {
			if oc := &old.Columns[mapping[i]]; oc.Type == sqltypes.Timestamp && oc.HasDefault && oc.DefaultExpr == "" && sameValue(oc.Default, c.Default) {
				continue
			}
		}
		local, w, err := coltype.ConvertIn(c, c.Default, true, 0, z)
		if err != nil || w != nil {
			return sqlerr.New(sqlerror.ERInvalidDefault, sqlerror.SSClientError, "Invalid default value for '%s'", c.Name)
		}
		c.Default, _, _ = appendUTC(z, nil, local)
	}
	return nil
}

// constDefault is col's constant DEFAULT as a value of the session: a
// TIMESTAMP default (UTC) in the session's zone.
func (s *Session) constDefault(col *catalog.Column) sqltypes.Value {
	if col.Type != sqltypes.Timestamp || col.Default.IsNull() {
		return col.Default
	}
	z := s.zone()
	if z.IsUTC() {
		return col.Default
	}
	b, ok := z.AppendLocal(nil, col.Default.Raw())
	if !ok {
		return col.Default
	}
	return sqltypes.MakeTrusted(col.Default.Type(), b)
}

// defaultsInZone returns t with its constant TIMESTAMP defaults in the
// session's zone, for display (t itself when none converts).
func (s *Session) defaultsInZone(t *catalog.Table) *catalog.Table {
	var out *catalog.Table
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Type != sqltypes.Timestamp || !c.HasDefault || c.DefaultExpr != "" || c.Default.IsNull() {
			continue
		}
		v := s.constDefault(c)
		if sameValue(v, c.Default) {
			continue
		}
		if out == nil {
			cp := *t
			cp.Columns = append([]catalog.Column(nil), t.Columns...)
			out = &cp
		}
		out.Columns[i].Default = v
	}
	if out == nil {
		return t
	}
	return out
}
