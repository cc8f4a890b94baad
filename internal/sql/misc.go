package sql

import (
	"context"
	"time"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

func timeSince(t time.Time) time.Duration { return time.Since(t) }

func unixTime(sec int64) string {
	if sec == 0 {
		return nullStr
	}
	return time.Unix(sec, 0).Format("2006-01-02 15:04:05")
}

func typeFromField(f *querypb.Field) evalengine.Type {
	return evalengine.NewTypeFromField(f)
}

// execAnalyze runs ANALYZE TABLE: statistics are gathered on demand, so it
// reports OK for each existing table.
func (s *Session) execAnalyze(ctx context.Context, st *sqlparser.Analyze) (*sqltypes.Result, error) {
	db := st.Table.Qualifier.String()
	if db == "" {
		db = s.DB
	}
	name := db + "." + st.Table.Name.String()
	if s.eng.Cat.Table(db, st.Table.Name.String()) == nil {
		return textResult([]string{"Table", "Op", "Msg_type", "Msg_text"}, [][]string{
			{name, "analyze", "Error", "Table '" + name + "' doesn't exist"},
			{name, "analyze", "status", "Operation failed"},
		}), nil
	}
	return textResult([]string{"Table", "Op", "Msg_type", "Msg_text"}, [][]string{{name, "analyze", "status", "OK"}}), nil
}

// execExplain describes the access path chosen for a SELECT.
func (s *Session) execExplain(ctx context.Context, st *sqlparser.ExplainStmt) (*sqltypes.Result, error) {
	sel, ok := st.Statement.(*sqlparser.Select)
	if !ok {
		return nil, unsupportedErr("EXPLAIN of this statement")
	}
	p, err := s.planSelect(ctx, sel)
	s.releaseIfIdle()
	if err != nil {
		return nil, err
	}
	names := []string{"id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "Extra"}
	var rows [][]string
	for _, src := range p.srcs {
		typ, key := "ALL", nullStr
		if src.path != nil {
			key = src.path.ix.Name
			switch {
			case src.path.unique:
				typ = "const"
				if len(p.srcs) > 1 {
					typ = "eq_ref"
				}
			case len(src.path.eq) > 0:
				typ = "ref"
			case src.path.hasRange:
				typ = "range"
			case src.path.ix.Primary:
				typ, key = "ALL", nullStr
			default:
				typ = "index"
			}
		}
		extra := ""
		if len(src.filter) > 0 {
			extra = "Using where"
		}
		if src.covering && src.path != nil && !src.path.ix.Primary {
			extra = "Using index"
		}
		rows = append(rows, []string{"1", "SIMPLE", src.alias, nullStr, typ, key, key, nullStr, nullStr, "1", "100.00", extra})
	}
	if p.sortNeed {
		if len(rows) > 0 {
			rows[0][11] = joinExtra(rows[0][11], "Using filesort")
		}
	}
	return textResult(names, rows), nil
}

func joinExtra(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
