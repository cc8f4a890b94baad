package sql

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// CHECK TABLE verifies that every secondary index agrees with the primary
// key, at one consistent snapshot per table:
//
//   - every primary row decodes and has exactly its expected entry in every
//     secondary index (the entry key recomputed from the row exists);
//   - every secondary entry decodes, points to an existing primary row, and
//     equals the key recomputed from that row (no dangling or stale entries);
//   - a unique index holds no two entries with the same non-NULL key prefix.
//
// Vitess's parser lacks CHECK TABLE, so the statement has its own small
// parser (parseCheckTable). Like MySQL, CHECK TABLE commits the open
// transaction first; the options (QUICK, EXTENDED, ...) are accepted and all
// run the full check.

// checkTableColumns is MySQL's result shape of table maintenance statements.
var checkTableColumns = []string{"Table", "Op", "Msg_type", "Msg_text"}

// checkInterruptEvery is how many entries are read between context checks.
const checkInterruptEvery = 1024

// checkTarget is one table named by CHECK TABLE.
type checkTarget struct{ db, name string }

// execCheckTable runs CHECK TABLE. handled is false unless sql is a CHECK
// TABLE statement (CHECK TABLE[S] tbl[, tbl…] [FOR UPGRADE|QUICK|FAST|
// MEDIUM|EXTENDED|CHANGED]…[;]).
func (s *Session) execCheckTable(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	targets, ok, err := parseCheckTable(sql)
	if !ok {
		return nil, false, nil
	}
	s.beginStatementWarnings(nil)
	if err != nil {
		return nil, true, err
	}
	s.countCom(comCheck)
	for i := range targets {
		if targets[i].db == "" {
			if s.DB == "" {
				return nil, true, sqlerr.NoDB()
			}
			targets[i].db = s.DB
		}
		if isSystemSchema(targets[i].db) && worldReadable(targets[i].db, targets[i].name) {
			continue
		}
		if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindCheckTable).Need(targets[i].db, targets[i].name)); err != nil {
			return nil, true, err
		}
	}
	// Table maintenance statements commit implicitly, as in MySQL.
	if err := s.commit(); err != nil {
		return nil, true, err
	}
	var rows [][]string
	for _, tg := range targets {
		r, err := s.checkOneTable(ctx, tg)
		if err != nil {
			return nil, true, err
		}
		rows = append(rows, r...)
	}
	return textResult(checkTableColumns, rows), true, nil
}

// checkOneTable returns the result rows for one table. An error aborts the
// whole statement (interruption, I/O error).
func (s *Session) checkOneTable(ctx context.Context, tg checkTarget) ([][]string, error) {
	name := tg.db + "." + tg.name
	msg := func(typ, text string) []string { return []string{name, "check", typ, text} }
	if v := s.eng.Cat.View(tg.db, tg.name); v != nil {
		return s.checkView(ctx, v, msg), nil
	}
	def, rows := s.maintenanceTable(tg, "check", msg)
	if def == nil {
		return rows, nil
	}
	if s.tl.locked && !s.isTemporary(def) {
		if err := s.checkLocked(tg.db, tg.name, false); err != nil {
			return nil, err
		}
	} else if !s.isTemporary(def) {
		if err := s.eng.Cat.LockShared(ctx, tg.db, tg.name, s.mdlTimeout); err != nil {
			return [][]string{msg("Error", "Lock wait timeout exceeded; try restarting transaction"), msg("status", "Operation failed")}, nil
		}
		defer s.eng.Cat.UnlockShared(tg.db, tg.name)
		// Re-read the definition under the metadata lock: a DDL may have
		// replaced it while we waited.
		if def = s.eng.Cat.Table(tg.db, tg.name); def == nil {
			return [][]string{msg("Error", "Table '"+name+"' doesn't exist"), msg("status", "Operation failed")}, nil
		}
	}
	tx := s.eng.DB.Begin(ctx, txn.RepeatableRead, s.lockTimeout)
	defer tx.Rollback()
	res, err := checkTableData(ctx, s.eng.Store.Open(def), tx)
	if err != nil {
		return nil, err
	}
	problems := res.problems()
	if len(problems) == 0 {
		return [][]string{msg("status", "OK")}, nil
	}
	out := make([][]string, 0, len(problems)+1)
	for _, p := range problems {
		out = append(out, msg("warning", p))
	}
	return append(out, msg("error", "Corrupt")), nil
}

// maintenanceTable returns the user table a maintenance statement (CHECK,
// ANALYZE) names, or nil and the result rows MySQL gives instead: a note
// for a system table, an error for a missing one.
func (s *Session) maintenanceTable(tg checkTarget, op string, msg func(typ, text string) []string) (*catalog.Table, [][]string) {
	if isSystemSchema(tg.db) {
		if _, _, err := s.systemTable(tg.db, tg.name); err != nil {
			return nil, [][]string{msg("Error", sqlerr.From(err).Message), msg("status", "Operation failed")}
		}
		return nil, [][]string{msg("note", "The storage engine for the table doesn't support "+op)}
	}
	def := s.tableDef(tg.db, tg.name)
	if def == nil {
		if s.eng.Cat.View(tg.db, tg.name) != nil {
			return nil, [][]string{msg("Error", "'"+tg.db+"."+tg.name+"' is not BASE TABLE"), msg("status", "Operation failed")}
		}
		return nil, [][]string{msg("Error", "Table '"+tg.db+"."+tg.name+"' doesn't exist"), msg("status", "Operation failed")}
	}
	return def, nil
}

// tableCheck holds the findings of checkTableData.
type tableCheck struct {
	table       string
	rows        int64 // primary entries that decode
	corruptRows int64 // primary entries that do not decode
	indexes     []indexCheck
}

// indexCheck holds the findings for one secondary index.
type indexCheck struct {
	ix      *catalog.Index
	entries int64 // entries found in the index
	// keyErrors: rows whose entry key cannot be computed.
	keyErrors int64
	// missing: rows without their entry.
	missing int64
	// corrupt: entries whose key does not decode.
	corrupt int64
	// dangling: entries pointing to no row.
	dangling int64
	// stale: entries pointing to a row whose recomputed key differs.
	stale int64
	// duplicates: unique-index entries repeating a non-NULL key prefix.
	duplicates int64
}

// problems describes each inconsistency found, one line per kind.
func (c *tableCheck) problems() []string {
	var out []string
	if c.corruptRows > 0 {
		out = append(out, fmt.Sprintf("Primary key: %d row(s) cannot be decoded", c.corruptRows))
	}
	for i := range c.indexes {
		ic := &c.indexes[i]
		var parts []string
		add := func(n int64, what string) {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, what))
			}
		}
		add(ic.missing, "row(s) without their entry")
		add(ic.keyErrors, "row(s) whose entry key cannot be computed")
		add(ic.corrupt, "entry(ies) that cannot be decoded")
		add(ic.dangling, "entry(ies) pointing to no row")
		add(ic.stale, "entry(ies) not matching their row")
		add(ic.duplicates, "duplicate key(s) in a unique index")
		if len(parts) > 0 {
			out = append(out, fmt.Sprintf("Index '%s' contains %d entries, should be %d: %s",
				ic.ix.Name, ic.entries, c.rows, strings.Join(parts, ", ")))
		}
	}
	return out
}

// checkTableData cross-checks the primary index of t against every secondary
// index, reading at tx's snapshot.
func checkTableData(ctx context.Context, t *table.Table, tx *txn.Txn) (*tableCheck, error) {
	def := t.Def
	res := &tableCheck{table: def.DB + "." + def.Name, indexes: make([]indexCheck, len(def.Indexes)-1)}
	for i, ix := range def.Indexes[1:] {
		res.indexes[i].ix = ix
	}
	if err := checkPrimary(ctx, t, tx, res); err != nil {
		return nil, err
	}
	for i := range res.indexes {
		if err := checkSecondary(ctx, t, tx, &res.indexes[i]); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// checkIndexIter iterates every entry of ix at the snapshot.
func checkIndexIter(tx *txn.Txn, ix *catalog.Index) (*txn.Iterator, error) {
	lo := table.IndexPrefix(nil, ix)
	hi := encoding.PrefixEnd(table.IndexPrefix(nil, ix))
	it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return nil, fmt.Errorf("check table: index %s: %w", ix.Name, err)
	}
	return it, nil
}

// checkPrimary walks the primary index: every row must decode and have its
// entry in every secondary index.
func checkPrimary(ctx context.Context, t *table.Table, tx *txn.Txn, res *tableCheck) error {
	it, err := checkIndexIter(tx, t.Def.Primary())
	if err != nil {
		return err
	}
	defer it.Close()
	var (
		row []sqltypes.Value
		kb  []byte
		n   int
	)
	for ; it.Valid(); it.Next() {
		if n++; n%checkInterruptEvery == 0 {
			if err := ctx.Err(); err != nil {
				return checkInterruptedErr()
			}
		}
		pk := it.Key()
		row, err = t.DecodeRow(row[:0], pk, it.Value())
		if err != nil {
			res.corruptRows++
			continue
		}
		res.rows++
		for i := range res.indexes {
			ic := &res.indexes[i]
			kb, _, _, err = t.SecondaryKey(kb[:0], ic.ix, row, pk)
			if err != nil {
				ic.keyErrors++
				continue
			}
			_, ok, err := tx.Get(kb)
			if err != nil {
				return fmt.Errorf("check table: index %s: %w", ic.ix.Name, err)
			}
			if !ok {
				ic.missing++
			}
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("check table: primary key: %w", err)
	}
	return nil
}

// checkSecondary walks one secondary index: every entry must decode, point
// to an existing row, equal the key recomputed from that row, and (unique
// index) not repeat a non-NULL key prefix.
func checkSecondary(ctx context.Context, t *table.Table, tx *txn.Txn, ic *indexCheck) error {
	it, err := checkIndexIter(tx, ic.ix)
	if err != nil {
		return err
	}
	defer it.Close()
	var (
		row        []sqltypes.Value
		pk, kb     []byte
		prevPrefix []byte
		havePrev   bool
		n          int
	)
	for ; it.Valid(); it.Next() {
		if n++; n%checkInterruptEvery == 0 {
			if err := ctx.Err(); err != nil {
				return checkInterruptedErr()
			}
		}
		ic.entries++
		key := it.Key()
		pk, err = t.DecodeSecondaryPK(pk[:0], ic.ix, key)
		if err != nil {
			ic.corrupt++
			continue
		}
		v, ok, err := tx.Get(pk)
		if err != nil {
			return fmt.Errorf("check table: index %s: %w", ic.ix.Name, err)
		}
		if !ok {
			ic.dangling++
			continue
		}
		row, err = t.DecodeRow(row[:0], pk, v)
		if err != nil {
			// The row itself is corrupt: counted by checkPrimary.
			continue
		}
		var (
			plen    int
			hasNull bool
		)
		kb, plen, hasNull, err = t.SecondaryKey(kb[:0], ic.ix, row, pk)
		if err != nil {
			// Counted as a key error by checkPrimary.
			continue
		}
		if !bytes.Equal(kb, key) {
			ic.stale++
			continue
		}
		if ic.ix.Unique && !hasNull {
			if havePrev && bytes.Equal(prevPrefix, kb[:plen]) {
				ic.duplicates++
			}
			prevPrefix = append(prevPrefix[:0], kb[:plen]...)
			havePrev = true
		}
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("check table: index %s: %w", ic.ix.Name, err)
	}
	return nil
}

func checkInterruptedErr() error {
	return sqlerr.New(sqlerror.ERQueryInterrupted, sqlerror.SSQueryInterrupted, "Query execution was interrupted")
}

// parseCheckTable parses CHECK TABLE[S] tbl[, tbl…] [option…][;]. ok is
// false when sql is not a CHECK TABLE statement; err reports a malformed one.
func parseCheckTable(sql string) (targets []checkTarget, ok bool, err error) {
	l := checkLexer{s: sql}
	if !l.keyword("CHECK") {
		return nil, false, nil
	}
	if !l.keyword("TABLE") && !l.keyword("TABLES") {
		return nil, false, nil
	}
	bad := func() ([]checkTarget, bool, error) {
		near := strings.TrimSpace(l.s[l.pos:])
		return nil, true, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", near))
	}
	targets, ok = l.tableList()
	if !ok {
		return bad()
	}
	for {
		switch {
		case l.keyword("FOR"):
			if !l.keyword("UPGRADE") {
				return bad()
			}
		case l.keyword("QUICK"), l.keyword("FAST"), l.keyword("MEDIUM"), l.keyword("EXTENDED"), l.keyword("CHANGED"):
		default:
			l.punct(';')
			if !l.atEnd() {
				return bad()
			}
			return targets, true, nil
		}
	}
}

// parseMaintenanceTables returns the tables of OPTIMIZE or REPAIR
// [NO_WRITE_TO_BINLOG | LOCAL] TABLE[S] tbl[, tbl…] [QUICK] [EXTENDED]
// [USE_FRM] (Vitess's parser keeps nothing of these statements).
func parseMaintenanceTables(sql string) ([]checkTarget, error) {
	l := checkLexer{s: sql, pos: skipComments(sql, 0)}
	bad := func() ([]checkTarget, error) {
		near := strings.TrimSpace(l.s[l.pos:])
		return nil, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", near))
	}
	if !l.keyword("OPTIMIZE") && !l.keyword("REPAIR") {
		return bad()
	}
	_ = l.keyword("NO_WRITE_TO_BINLOG") || l.keyword("LOCAL")
	if !l.keyword("TABLE") && !l.keyword("TABLES") {
		return bad()
	}
	targets, ok := l.tableList()
	if !ok {
		return bad()
	}
	for l.keyword("QUICK") || l.keyword("EXTENDED") || l.keyword("USE_FRM") {
	}
	l.punct(';')
	if !l.atEnd() {
		return bad()
	}
	return targets, nil
}

// checkLexer is the tokenizer of parseCheckTable.
type checkLexer struct {
	s   string
	pos int
}

func (l *checkLexer) skipSpace() {
	for l.pos < len(l.s) {
		switch l.s[l.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			l.pos++
		default:
			return
		}
	}
}

func (l *checkLexer) atEnd() bool {
	l.skipSpace()
	return l.pos == len(l.s)
}

func checkIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// word returns the unquoted identifier-like token at the cursor without
// consuming it.
func (l *checkLexer) word() string {
	l.skipSpace()
	end := l.pos
	for end < len(l.s) && checkIdentByte(l.s[end]) {
		end++
	}
	return l.s[l.pos:end]
}

// keyword consumes kw (case-insensitive) if it is the next token.
func (l *checkLexer) keyword(kw string) bool {
	if w := l.word(); strings.EqualFold(w, kw) {
		l.pos += len(w)
		return true
	}
	return false
}

// punct consumes the byte c if it is the next token.
func (l *checkLexer) punct(c byte) bool {
	l.skipSpace()
	if l.pos < len(l.s) && l.s[l.pos] == c {
		l.pos++
		return true
	}
	return false
}

// ident consumes a plain or backquoted identifier.
func (l *checkLexer) ident() (string, bool) {
	l.skipSpace()
	if l.pos < len(l.s) && l.s[l.pos] == '`' {
		var b strings.Builder
		for i := l.pos + 1; i < len(l.s); i++ {
			if l.s[i] != '`' {
				b.WriteByte(l.s[i])
				continue
			}
			if i+1 < len(l.s) && l.s[i+1] == '`' {
				b.WriteByte('`')
				i++
				continue
			}
			l.pos = i + 1
			if b.Len() == 0 {
				return "", false
			}
			return b.String(), true
		}
		return "", false
	}
	w := l.word()
	if w == "" {
		return "", false
	}
	l.pos += len(w)
	return w, true
}

// tableList consumes tbl[, tbl…], each tbl being name or db.name.
func (l *checkLexer) tableList() ([]checkTarget, bool) {
	var out []checkTarget
	for {
		a, ok := l.ident()
		if !ok {
			return nil, false
		}
		tg := checkTarget{name: a}
		if l.punct('.') {
			b, ok := l.ident()
			if !ok {
				return nil, false
			}
			tg = checkTarget{db: a, name: b}
		}
		out = append(out, tg)
		if !l.punct(',') {
			return out, true
		}
	}
}
