package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SELECT ... INTO: the query runs as it would without the INTO clause
// (wherever it was written: after the select list, at the end, or before
// or after a locking clause), its result is collected instead of being
// sent, and then:
//
//   - INTO @a, @b assigns the one row's columns to the user variables
//     (1222 when the counts differ, checked before the query runs; for
//     more than one row the first is assigned and the statement fails
//     with 1172, as in MySQL; no row leaves the variables as they were,
//     with warning 1329);
//   - INTO OUTFILE / DUMPFILE writes the rows to a new server-side file
//     (select_outfile.go).
//
// The statement answers an OK packet whose affected-row count is the
// number of rows selected, as MySQL's. It is never cached as a plan: the
// plan cache holds plans whose result goes to the client.

// execSelectInto runs a SELECT or set operation that has an INTO clause.
func (s *Session) execSelectInto(ctx context.Context, stmt sqlparser.TableStatement, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	var into *sqlparser.SelectInto
	switch st := stmt.(type) {
	case *sqlparser.Select:
		into = st.Into
		c := sqlparser.CloneRefOfSelect(st)
		c.Into = nil
		stmt = c
	case *sqlparser.Union:
		c := sqlparser.CloneRefOfUnion(st)
		into = c.Into
		c.Into = nil
		if last := lastSelect(c); into == nil && last != nil {
			into, last.Into = last.Into, nil
		}
		stmt = c
	}
	var out *outfile
	switch into.Type {
	case sqlparser.IntoVariables:
		for _, v := range into.VarList {
			if v.Scope != sqlparser.VariableScope {
				return nil, sqlerr.New(sqlerr.UndeclaredVar, "42000", "Undeclared variable: %s", v.Name.String())
			}
		}
	case sqlparser.IntoOutfile, sqlparser.IntoDumpfile:
		var err error
		if out, err = s.openOutfile(into); err != nil {
			return nil, err
		}
	default:
		return nil, sqlerr.Unsupported("SELECT ... INTO OUTFILE S3")
	}
	p, err := s.planQuery(ctx, stmt, nil)
	if err == nil && into.Type == sqlparser.IntoVariables && len(p.outputs()) != len(into.VarList) {
		err = sqlerr.New(sqlerror.ERWrongNumberOfColumnsInSelect, sqlerror.SSWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
	}
	if err != nil {
		if out != nil {
			out.abort()
		}
		s.releaseIfIdle()
		return nil, err
	}
	// No row may reach the client: the sink collects them (variables) or
	// writes them to the file as they come (OUTFILE, DUMPFILE).
	saved := s.out
	s.out.begin(nil)
	if out != nil {
		s.out.begin(out.writeBatch)
	}
	res, err := s.runSelect(ctx, p, bv)
	s.out = saved
	if out != nil {
		if err == nil {
			err = out.writeBatch(res)
		}
		if err != nil {
			out.abort()
			return nil, err
		}
		res, err := out.finish()
		if err == nil {
			s.rowCount = int64(res.RowsAffected)
		}
		return res, err
	}
	if err != nil {
		return nil, err
	}
	if len(res.Rows) == 0 {
		s.warn("Warning", uint16(sqlerr.NoDataFetched), "No data - zero rows were fetched, selected, or processed")
	} else {
		// MySQL assigns the first row, then fails at the second.
		for i, v := range into.VarList {
			s.userVars[strings.ToLower(v.Name.String())] = cloneValue(res.Rows[0][i])
		}
		if len(res.Rows) > 1 {
			return nil, sqlerr.New(sqlerror.ERTooManyRows, "42000", "Result consisted of more than one row")
		}
	}
	s.rowCount = int64(len(res.Rows))
	return &sqltypes.Result{RowsAffected: uint64(len(res.Rows))}, nil
}

// unionInto reports whether a set operation has an INTO clause: its own,
// or that of its last query block (SELECT 1 UNION SELECT 2 INTO @x parses
// with the clause on the last SELECT).
func unionInto(u *sqlparser.Union) bool {
	if u.Into != nil {
		return true
	}
	last := lastSelect(u)
	return last != nil && last.Into != nil
}

// lastSelect returns the last query block of a set operation, or nil
// when it is parenthesised into a nested set operation's.
func lastSelect(u *sqlparser.Union) *sqlparser.Select {
	for {
		switch r := u.Right.(type) {
		case *sqlparser.Select:
			return r
		case *sqlparser.Union:
			u = r
		default:
			return nil
		}
	}
}
