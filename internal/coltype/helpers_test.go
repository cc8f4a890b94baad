package coltype

import (
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

var testParser = sqlparser.NewTestParser()

// parseCreate parses a CREATE TABLE statement.
func parseCreate(t testing.TB, sql string) *sqlparser.CreateTable {
	t.Helper()
	st, err := testParser.ParseStrictDDL(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	ct, ok := st.(*sqlparser.CreateTable)
	if !ok {
		t.Fatalf("not a CREATE TABLE: %q", sql)
	}
	return ct
}

// colDef converts the single column of "CREATE TABLE t (<def>)".
func colDef(t testing.TB, def string) (catalog.Column, error) {
	t.Helper()
	ct := parseCreate(t, "create table t ("+def+")")
	return FromAST(ct.TableSpec.Columns[0], collations.ID(45))
}

func mustCol(t testing.TB, def string) *catalog.Column {
	t.Helper()
	c, err := colDef(t, def)
	if err != nil {
		t.Fatalf("FromAST(%q): %v", def, err)
	}
	return &c
}
