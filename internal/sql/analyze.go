package sql

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/table"
)

// ANALYZE TABLE and the statistics it shows (SHOW INDEX Cardinality,
// information_schema TABLES.TABLE_ROWS, STATISTICS.CARDINALITY and
// COLUMN_STATISTICS). The statistics themselves are computed by the table
// layer (table.Store.Analyze) and kept by the catalog (catalog.TableStats).
//
//	ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE tbl [, tbl] ...
//	ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE tbl UPDATE HISTOGRAM ON col [, col] ... [WITH n BUCKETS]
//	ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE tbl DROP HISTOGRAM ON col [, col] ...
//
// Vitess's parser knows only the first form with one table, so ANALYZE has
// its own small parser. Like MySQL, ANALYZE commits the open transaction.

// analyzeStmt is a parsed ANALYZE TABLE.
type analyzeStmt struct {
	targets []checkTarget
	// histogram: 0 none, 'u' UPDATE HISTOGRAM, 'd' DROP HISTOGRAM.
	histogram byte
	cols      []string
	buckets   int // 0: not given
}

// isAnalyze reports whether sql starts with the ANALYZE keyword.
func isAnalyze(sql string) bool {
	l := checkLexer{s: sql, pos: skipComments(sql, 0)}
	return l.keyword("ANALYZE")
}

// parseAnalyze parses an ANALYZE statement; ok is false when sql is not
// one.
func parseAnalyze(sql string) (st analyzeStmt, ok bool, err error) {
	l := checkLexer{s: sql, pos: skipComments(sql, 0)}
	if !l.keyword("ANALYZE") {
		return st, false, nil
	}
	bad := func() (analyzeStmt, bool, error) {
		near := strings.TrimSpace(l.s[l.pos:])
		return analyzeStmt{}, true, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", near))
	}
	_ = l.keyword("NO_WRITE_TO_BINLOG") || l.keyword("LOCAL")
	if !l.keyword("TABLE") && !l.keyword("TABLES") {
		return bad()
	}
	if st.targets, ok = l.tableList(); !ok {
		return bad()
	}
	switch {
	case l.keyword("UPDATE"):
		st.histogram = 'u'
	case l.keyword("DROP"):
		st.histogram = 'd'
	}
	if st.histogram != 0 {
		if len(st.targets) != 1 || !l.keyword("HISTOGRAM") || !l.keyword("ON") {
			return bad()
		}
		for {
			c, ok := l.ident()
			if !ok {
				return bad()
			}
			st.cols = append(st.cols, c)
			if !l.punct(',') {
				break
			}
		}
		if st.histogram == 'u' && l.keyword("WITH") {
			w := l.word()
			n, err := strconv.Atoi(w)
			if err != nil {
				return bad()
			}
			l.pos += len(w)
			if !l.keyword("BUCKETS") {
				return bad()
			}
			st.buckets = n
			if n < 1 {
				st.buckets = -1
			}
		}
	}
	l.punct(';')
	if !l.atEnd() {
		return bad()
	}
	return st, true, nil
}

// execAnalyzeSQL runs an ANALYZE statement given as text; handled is false
// when sql is not one.
func (s *Session) execAnalyzeSQL(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if !isAnalyze(sql) {
		return nil, false, nil
	}
	st, _, err := parseAnalyze(sql)
	s.beginStatementWarnings(nil)
	if err != nil {
		return nil, true, err
	}
	s.countCom(comAnalyze)
	res, err := s.runAnalyze(ctx, st)
	return res, true, err
}

// execAnalyze runs the ANALYZE TABLE Vitess parsed.
func (s *Session) execAnalyze(ctx context.Context, a *sqlparser.Analyze) (*sqltypes.Result, error) {
	return s.runAnalyze(ctx, analyzeStmt{targets: []checkTarget{{db: a.Table.Qualifier.String(), name: a.Table.Name.String()}}})
}

func (s *Session) runAnalyze(ctx context.Context, st analyzeStmt) (*sqltypes.Result, error) {
	for i := range st.targets {
		tg := &st.targets[i]
		if tg.db == "" {
			if s.DB == "" {
				return nil, sqlerr.NoDB()
			}
			tg.db = s.DB
		}
		if isSystemSchema(tg.db) && worldReadable(tg.db, tg.name) {
			continue
		}
		if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindAnalyzeTable).Need(tg.db, tg.name)); err != nil {
			return nil, err
		}
	}
	// Table maintenance statements commit implicitly, as in MySQL.
	if err := s.commit(); err != nil {
		return nil, err
	}
	var rows [][]string
	for _, tg := range st.targets {
		r, err := s.analyzeOne(ctx, tg, st)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return textResult(checkTableColumns, rows), nil
}

// analyzeOne returns the result rows for one table. An error aborts the
// statement (interruption, I/O error).
func (s *Session) analyzeOne(ctx context.Context, tg checkTarget, st analyzeStmt) ([][]string, error) {
	name := tg.db + "." + tg.name
	op := "analyze"
	if st.histogram != 0 {
		op = "histogram"
	}
	msg := func(typ, text string) []string { return []string{name, op, typ, text} }
	def, rows := s.maintenanceTable(tg, "analyze", msg)
	if def == nil {
		return rows, nil
	}
	if s.isTemporary(def) {
		// Statistics are published engine-wide; a temporary table has none.
		return [][]string{msg("note", "The storage engine for the table doesn't support "+op)}, nil
	}
	switch st.histogram {
	case 'u':
		return s.updateHistograms(ctx, def, st, msg)
	case 'd':
		return s.dropHistograms(def, st, msg)
	}
	if _, err := s.eng.Store.Analyze(ctx, s.eng.Cat, def, table.AnalyzeOptions{}); err != nil {
		if ctx.Err() != nil {
			return nil, checkInterruptedErr()
		}
		if errors.Is(err, catalog.ErrStatsStale) {
			return [][]string{msg("Error", "Table '"+name+"' doesn't exist"), msg("status", "Operation failed")}, nil
		}
		return nil, err
	}
	return [][]string{msg("status", "OK")}, nil
}

// updateHistograms runs ANALYZE TABLE … UPDATE HISTOGRAM: the named
// columns get explicit histograms (and the table's statistics are
// refreshed with them).
func (s *Session) updateHistograms(ctx context.Context, def *catalog.Table, st analyzeStmt, msg func(typ, text string) []string) ([][]string, error) {
	if st.buckets < 0 || st.buckets > table.MaxHistogramBuckets {
		return [][]string{msg("Error", fmt.Sprintf("Number of buckets value must be in the range [1, %d].", table.MaxHistogramBuckets))}, nil
	}
	buckets := st.buckets
	if buckets == 0 {
		buckets = 100 // MySQL's default
	}
	// One message per column, ordered by column name as MySQL's results
	// map orders them.
	res := map[string][]string{}
	want := map[int]int{}
	for _, name := range st.cols {
		i := def.ColumnIndex(name)
		switch {
		case i < 0:
			res[name] = msg("Error", "The column '"+name+"' does not exist.")
		case !table.HistogramSupported(&def.Columns[i]):
			res[name] = msg("Error", "The column '"+name+"' has an unsupported data type.")
		case singleUniqueColumn(def, i):
			res[name] = msg("Error", "The column '"+name+"' is covered by a single-part unique index.")
		default:
			want[i] = buckets
			c := def.Columns[i].Name
			res[c] = msg("status", "Histogram statistics created for column '"+c+"'.")
		}
	}
	if len(want) > 0 {
		if _, err := s.eng.Store.Analyze(ctx, s.eng.Cat, def, table.AnalyzeOptions{Histograms: want}); err != nil {
			if ctx.Err() != nil {
				return nil, checkInterruptedErr()
			}
			return nil, err
		}
	}
	return sortedMessages(res), nil
}

// sortedMessages returns the messages by column name.
func sortedMessages(m map[string][]string) [][]string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([][]string, 0, len(names))
	for _, n := range names {
		out = append(out, m[n])
	}
	return out
}

// singleUniqueColumn reports whether column col alone is a unique key
// (MySQL builds no histogram for it: every value is unique).
func singleUniqueColumn(def *catalog.Table, col int) bool {
	for k, ix := range def.Indexes {
		if (ix.Unique || ix.Primary) && !(k == 0 && def.HiddenPK) && len(ix.Columns) == 1 && ix.Columns[0].Col == col && ix.Columns[0].Prefix == 0 {
			return true
		}
	}
	return false
}

func (s *Session) dropHistograms(def *catalog.Table, st analyzeStmt, msg func(typ, text string) []string) ([][]string, error) {
	dropped, err := s.eng.Cat.DropHistograms(def, st.cols)
	if err != nil {
		return nil, err
	}
	res := map[string][]string{}
	for _, name := range st.cols {
		found := ""
		for _, d := range dropped {
			if strings.EqualFold(d, name) {
				found = d
			}
		}
		if found == "" {
			res[name] = msg("Error", "No histogram statistics found for column '"+name+"'.")
		} else {
			res[found] = msg("status", "Histogram statistics removed for column '"+found+"'.")
		}
	}
	return sortedMessages(res), nil
}

// indexCardinality returns SHOW INDEX's Cardinality of key part seq
// (1-based) of ix: the distinct values of that key prefix, or nil without
// statistics.
func (s *Session) indexCardinality(t *catalog.Table, ix *catalog.Index, seq int) any {
	if isSystemSchema(t.DB) {
		return nil
	}
	return vtable.IndexCardinality(s.eng.Cat.Stats(t), ix, seq)
}

// cardinalityText is indexCardinality as SHOW INDEX prints it.
func (s *Session) cardinalityText(t *catalog.Table, ix *catalog.Index, seq int) string {
	if n, ok := s.indexCardinality(t, ix, seq).(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	return nullStr
}

// tableRows returns information_schema.TABLES.TABLE_ROWS of a user table:
// the analyzed row count plus the rows inserted minus deleted since.
func (s *Session) tableRows(t *catalog.Table) uint64 {
	return uint64(s.eng.Store.EstimatedRows(t, s.eng.Cat.Stats(t)))
}

// startAutoAnalyze starts the background statistics refresh, switched by
// the global innodb_stats_auto_recalc.
func (e *Engine) startAutoAnalyze() *table.AutoAnalyzer {
	return e.Store.StartAutoAnalyze(e.Cat, table.AutoAnalyzeConfig{
		Enabled: func() bool {
			v, _ := e.Globals.Get("innodb_stats_auto_recalc")
			n, _ := v.ToInt64()
			return n != 0
		},
	})
}
