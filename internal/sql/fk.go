package sql

import (
	"sort"
	"sync"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/table"
)

// Foreign keys, enforced as InnoDB enforces them (MySQL 8.0 semantics).
//
// Every row write goes through fkInsert, fkUpdate or fkDelete. A child row
// inserted, or updated with new values in its foreign-key columns, must
// find its parent row (all key columns non-NULL), which it locks in share
// mode, so the parent cannot go away before the child's transaction ends
// (1452 otherwise). A parent row deleted, or updated with new values in its
// referenced columns, applies the constraint's action to the child rows
// that reference it, each locked exclusively: RESTRICT and NO ACTION (and
// SET DEFAULT, which InnoDB treats as such) fail with 1451, CASCADE deletes
// the children or updates their key columns, SET NULL sets them to NULL —
// each child change going through the same rules in turn, to a depth of 15
// (3008). The lookups are index prefix scans: the referenced columns lead
// an index of the parent, the referencing columns one of the child (the
// index CREATE TABLE adds with the constraint). The rows are read current
// (latest committed plus the transaction's own writes) after their lock,
// so a concurrent parent delete and child insert serialise on the parent
// row's lock. SET foreign_key_checks = 0 turns all of it off, as mysqldump
// does while it loads.

// fkMaxDepth is MySQL's limit on cascaded foreign-key actions.
const fkMaxDepth = 15

// fkRef is one foreign key, resolved against a catalog version.
type fkRef struct {
	name string
	// text is the constraint as SHOW CREATE TABLE prints it (error
	// messages quote it).
	text          string
	child, parent *catalog.Table
	// childCols and parentCols are column ordinals, pairwise.
	childCols, parentCols []int
	// parentIx is an index of the parent led by parentCols, childIx one of
	// the child led by childCols (nil: the child is scanned whole).
	parentIx, childIx  *catalog.Index
	onDelete, onUpdate string
}

// restricts reports whether a change of a referenced row fails while
// children reference it (neither action cascades nor sets NULL).
func (ref *fkRef) restricts() bool {
	cascades := func(a string) bool { return a == "CASCADE" || a == "SET NULL" }
	return !cascades(ref.onDelete) || !cascades(ref.onUpdate)
}

// fkRegistry is the foreign keys of one catalog version: by child table
// (outgoing) and by parent table (incoming).
type fkRegistry struct {
	version uint64
	out, in map[*catalog.Table][]*fkRef
}

// fkCache holds the registry of the latest catalog version: read with an
// atomic load on every row write, rebuilt under mu after a DDL.
type fkCache struct {
	mu  sync.Mutex
	reg atomic.Pointer[fkRegistry]
}

// foreignKeys returns the registry of the current catalog version.
func (e *Engine) foreignKeys() *fkRegistry {
	v := e.Cat.Version()
	if r := e.fks.reg.Load(); r != nil && r.version == v {
		return r
	}
	e.fks.mu.Lock()
	defer e.fks.mu.Unlock()
	if r := e.fks.reg.Load(); r != nil && r.version == v {
		return r
	}
	r := &fkRegistry{version: v, out: map[*catalog.Table][]*fkRef{}, in: map[*catalog.Table][]*fkRef{}}
	for _, db := range e.Cat.Databases() {
		for _, t := range e.Cat.Tables(db) {
			for _, text := range t.ForeignKeys {
				if ref := e.resolveFK(t, text); ref != nil {
					r.out[t] = append(r.out[t], ref)
					r.in[ref.parent] = append(r.in[ref.parent], ref)
				}
			}
		}
	}
	// A parent change checks the restricting keys before it cascades:
	// a refused change then does no cascaded work first.
	for _, refs := range r.in {
		sort.SliceStable(refs, func(a, b int) bool { return refs[a].restricts() && !refs[b].restricts() })
	}
	e.fks.reg.Store(r)
	return r
}

// resolveFK resolves one constraint text of child t; nil when its parent
// table or columns do not exist (created under foreign_key_checks = 0):
// such a key is not enforced.
func (e *Engine) resolveFK(t *catalog.Table, text string) *fkRef {
	parsed := vtable.ForeignKeys(e.Parser, &catalog.Table{DB: t.DB, Name: t.Name, ForeignKeys: []string{text}})
	if len(parsed) != 1 {
		return nil
	}
	fk := parsed[0]
	parent := e.Cat.Table(fk.RefDB, fk.RefTable)
	if parent == nil || len(fk.Cols) != len(fk.RefCols) {
		return nil
	}
	ref := &fkRef{name: fk.Name, text: text, child: t, parent: parent, onDelete: fk.OnDelete, onUpdate: fk.OnUpdate}
	for i := range fk.Cols {
		c, p := t.ColumnIndex(fk.Cols[i]), parent.ColumnIndex(fk.RefCols[i])
		if c < 0 || p < 0 {
			return nil
		}
		ref.childCols = append(ref.childCols, c)
		ref.parentCols = append(ref.parentCols, p)
	}
	ref.parentIx = leadingIndex(parent, ref.parentCols)
	ref.childIx = leadingIndex(t, ref.childCols)
	if ref.parentIx == nil {
		return nil
	}
	return ref
}

// leadingIndex returns an index of t whose first columns are cols in
// order (whole values, not prefixes), the primary key first.
func leadingIndex(t *catalog.Table, cols []int) *catalog.Index {
	for _, ix := range t.Indexes {
		if t.HiddenPK && ix.Primary || len(ix.Columns) < len(cols) {
			continue
		}
		ok := true
		for k, c := range cols {
			if ix.Columns[k].Col != c || ix.Columns[k].Prefix != 0 {
				ok = false
				break
			}
		}
		if ok {
			return ix
		}
	}
	return nil
}

// fkChecks reports whether the session enforces foreign keys.
func (s *Session) fkChecks() bool {
	v, _ := s.sysVar("foreign_key_checks")
	n, err := v.ToInt64()
	return err != nil || n != 0
}

// fkFor returns the registry when t takes part in a foreign key and the
// session enforces them, else nil. Without foreign keys in the catalog it
// costs an atomic load.
func (s *Session) fkFor(t *catalog.Table) *fkRegistry {
	r := s.eng.foreignKeys()
	if len(r.in) == 0 || len(r.out[t]) == 0 && len(r.in[t]) == 0 {
		return nil
	}
	if !s.fkChecks() {
		return nil
	}
	return r
}

// fkInsert inserts row into tbl, then checks its foreign keys (after, so
// a row may reference itself). With ignore a missing parent skips the row
// with a warning: the row is taken out again and ok is false.
func (s *Session) fkInsert(ex *execCtx, tbl *table.Table, row Row, keyBuf []byte, ignore bool) (pk []byte, ok bool, err error) {
	pk, err = s.storeInsert(ex, tbl, row, keyBuf)
	if err != nil {
		return pk, false, err
	}
	r := s.fkFor(tbl.Def)
	if r == nil {
		return pk, true, nil
	}
	for _, ref := range r.out[tbl.Def] {
		if err := s.fkParentExists(ex, ref, row); err != nil {
			if ignore && isErrNum(err, sqlerr.NoReferencedRow2) {
				pk = append([]byte(nil), pk...)
				if derr := s.storeDelete(ex, tbl, pk, row); derr != nil {
					return pk, false, derr
				}
				s.warnErr(err)
				return pk, false, nil
			}
			return pk, false, err
		}
	}
	return pk, true, nil
}

// fkUpdate updates a row of tbl: the actions of the foreign keys that
// reference changed columns first, then the row, then the parents of
// changed referencing columns.
func (s *Session) fkUpdate(ex *execCtx, tbl *table.Table, pk []byte, old, row Row) ([]byte, error) {
	return s.fkUpdateDepth(ex, tbl, pk, old, row, 0, nil)
}

// fkUpdateDepth is fkUpdate at cascade depth depth; via is the foreign key
// whose ON UPDATE CASCADE changes the row (its parent row is being given
// the new values: not checked).
func (s *Session) fkUpdateDepth(ex *execCtx, tbl *table.Table, pk []byte, old, row Row, depth int, via *fkRef) ([]byte, error) {
	r := s.fkFor(tbl.Def)
	if r == nil {
		return s.storeUpdate(ex, tbl, pk, old, row)
	}
	for _, ref := range r.in[tbl.Def] {
		if !colsChanged(ref.parentCols, old, row) {
			continue
		}
		if err := s.fkParentChange(ex, ref, old, row, depth); err != nil {
			return nil, err
		}
	}
	npk, err := s.storeUpdate(ex, tbl, pk, old, row)
	if err != nil {
		return nil, err
	}
	for _, ref := range r.out[tbl.Def] {
		if ref == via || !colsChanged(ref.childCols, old, row) {
			continue
		}
		if err := s.fkParentExists(ex, ref, row); err != nil {
			return nil, err
		}
	}
	return npk, nil
}

// fkDelete deletes a row of tbl after the actions of the foreign keys that
// reference it.
func (s *Session) fkDelete(ex *execCtx, tbl *table.Table, pk []byte, row Row) error {
	return s.fkDeleteDepth(ex, tbl, pk, row, 0)
}

func (s *Session) fkDeleteDepth(ex *execCtx, tbl *table.Table, pk []byte, row Row, depth int) error {
	if r := s.fkFor(tbl.Def); r != nil {
		for _, ref := range r.in[tbl.Def] {
			if err := s.fkParentChange(ex, ref, row, nil, depth); err != nil {
				return err
			}
		}
	}
	return s.storeDelete(ex, tbl, pk, row)
}

// colsChanged reports whether any of cols differs between old and row
// (byte for byte: a change of case in a case-insensitive key is a
// change, as InnoDB sees it).
func colsChanged(cols []int, old, row Row) bool {
	for _, c := range cols {
		if !sameValue(old[c], row[c]) {
			return true
		}
	}
	return false
}

// fkParentExists checks that the parent row row references through ref
// exists, and locks it in share mode. A NULL in the key passes.
func (s *Session) fkParentExists(ex *execCtx, ref *fkRef, row Row) error {
	vals := make([]sqltypes.Value, len(ref.childCols))
	for k, c := range ref.childCols {
		if row[c].IsNull() {
			return nil
		}
		vals[k] = row[c]
	}
	ptbl := s.eng.Store.Open(ref.parent)
	found, err := s.fkScan(ex, ptbl, ref.parentIx, ref.parentCols, vals, false, func(pk []byte, prow Row) (bool, error) {
		return false, nil
	})
	if err != nil {
		return err
	}
	if !found {
		return ref.noParent()
	}
	return nil
}

// fkParentChange applies ref's action to the children of parent row old,
// which is deleted (row nil) or updated to row.
func (s *Session) fkParentChange(ex *execCtx, ref *fkRef, old, row Row, depth int) error {
	vals := make([]sqltypes.Value, len(ref.parentCols))
	for k, p := range ref.parentCols {
		if old[p].IsNull() {
			return nil
		}
		vals[k] = old[p]
	}
	action := ref.onDelete
	if row != nil {
		action = ref.onUpdate
	}
	ctbl := s.eng.Store.Open(ref.child)
	// Children are collected first and changed after the scan.
	type child struct {
		pk  []byte
		row Row
	}
	var kids []child
	_, err := s.fkScan(ex, ctbl, ref.childIx, ref.childCols, vals, true, func(pk []byte, crow Row) (bool, error) {
		if ref.child == ref.parent && row == nil && rowsEqual(crow, old) {
			return true, nil // the row being deleted references itself
		}
		kids = append(kids, child{append([]byte(nil), pk...), copyRow(nil, crow)})
		return true, nil
	})
	if err != nil || len(kids) == 0 {
		return err
	}
	switch action {
	case "CASCADE", "SET NULL":
	default:
		return ref.referenced()
	}
	if depth >= fkMaxDepth {
		return sqlerr.New(sqlerr.FKDepthExceeded, sqlerror.SSUnknownSQLState, "Foreign key cascade delete/update exceeds max depth of %d.", fkMaxDepth)
	}
	for _, k := range kids {
		if action == "CASCADE" && row == nil {
			if err := s.fkDeleteDepth(ex, ctbl, k.pk, k.row, depth+1); err != nil {
				return err
			}
			continue
		}
		nrow := copyRow(nil, k.row)
		for i, c := range ref.childCols {
			if action == "SET NULL" {
				if !ref.child.Columns[c].Nullable {
					return ref.referenced()
				}
				nrow[c] = sqltypes.NULL
			} else {
				nrow[c] = row[ref.parentCols[i]]
			}
		}
		via := ref
		if action == "SET NULL" {
			via = nil
		}
		if _, err := s.fkUpdateDepth(ex, ctbl, k.pk, k.row, nrow, depth+1, via); err != nil {
			return err
		}
	}
	return nil
}

// fkScan visits the rows of tbl whose columns cols equal vals, through
// index ix led by them (nil: the whole primary index, filtered), each
// locked first (exclusive or share) and read current. visit returns
// whether to go on. found reports whether any row was visited.
func (s *Session) fkScan(ex *execCtx, tbl *table.Table, ix *catalog.Index, cols []int, vals []sqltypes.Value, exclusive bool, visit func(pk []byte, row Row) (bool, error)) (found bool, err error) {
	var lo, hi []byte
	scanIx := ix
	if ix != nil {
		lo, err = tbl.AppendKeyParts(table.IndexPrefix(nil, ix), ix, s.keyToStore(tbl, cols, vals))
		if err != nil {
			return false, err
		}
		hi = encoding.PrefixEnd(lo)
	} else {
		scanIx = tbl.Def.Primary()
	}
	sc, err := tbl.NewScan(ex.tx, scanIx, lo, hi, false, true)
	if err != nil {
		return false, err
	}
	var pks [][]byte
	for {
		row, pk, ok, err := sc.Next()
		if err != nil {
			sc.Close()
			return false, err
		}
		if !ok {
			break
		}
		if ix == nil && !s.fkMatches(tbl, cols, vals, s.fromStore(tbl, row)) {
			continue
		}
		pks = append(pks, append([]byte(nil), pk...))
	}
	if err := sc.Close(); err != nil {
		return false, err
	}
	var buf Row
	for _, pk := range pks {
		if err := tbl.LockRow(ex.tx, pk, exclusive); err != nil {
			return found, err
		}
		row, ok, err := tbl.Get(ex.tx, pk, true, buf[:0])
		if err != nil {
			return found, err
		}
		if ok {
			row = s.fromStore(tbl, row)
		}
		if !ok || !s.fkMatches(tbl, cols, vals, row) {
			continue // changed before the lock was granted
		}
		buf = row
		found = true
		more, err := visit(pk, row)
		if err != nil || !more {
			return found, err
		}
	}
	return found, nil
}

// fkMatches compares row's cols with vals as the index keys compare them.
func (s *Session) fkMatches(tbl *table.Table, cols []int, vals []sqltypes.Value, row Row) bool {
	for k, c := range cols {
		if row[c].IsNull() {
			return false
		}
		a, err1 := tbl.AppendKeyPart(nil, catalog.IndexColumn{Col: c}, row[c])
		b, err2 := tbl.AppendKeyPart(nil, catalog.IndexColumn{Col: c}, vals[k])
		if err1 != nil || err2 != nil || string(a) != string(b) {
			return false
		}
	}
	return true
}

// qualified is `db`.`table` as MySQL's foreign-key errors print it.
func qualified(t *catalog.Table) string {
	return coltype.QuoteIdent(t.DB) + "." + coltype.QuoteIdent(t.Name)
}

// noParent is 1452: a child row of ref has no parent row.
func (ref *fkRef) noParent() error {
	return sqlerr.New(sqlerr.NoReferencedRow2, sqlerror.SSConstraintViolation, "Cannot add or update a child row: a foreign key constraint fails (%s, %s)", qualified(ref.child), ref.text)
}

// referenced is 1451: a parent row of ref has children its action refuses
// to leave behind.
func (ref *fkRef) referenced() error {
	return sqlerr.New(sqlerr.RowIsReferenced2, sqlerror.SSConstraintViolation, "Cannot delete or update a parent row: a foreign key constraint fails (%s, %s)", qualified(ref.child), ref.text)
}

// isErrNum reports whether err is the MySQL error num.
func isErrNum(err error, num sqlerror.ErrorCode) bool {
	se, ok := err.(*sqlerror.SQLError)
	return ok && se.Number() == num
}

// warnErr records a MySQL error as a warning.
func (s *Session) warnErr(err error) {
	if se, ok := err.(*sqlerror.SQLError); ok {
		s.warn("Warning", uint16(se.Number()), se.Message)
	}
}
