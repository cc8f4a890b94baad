package vtable

import (
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
)

// information_schema.ROUTINES and PARAMETERS: the stored procedures and
// functions of the databases on which src holds EXECUTE, CREATE ROUTINE or
// ALTER ROUTINE (as MySQL).

// visibleRoutines calls fn for each routine src may see.
func visibleRoutines(src Source, fn func(r *catalog.Routine)) {
	sub := src.Subject()
	for _, db := range src.Catalog().Databases() {
		rs := src.Catalog().Routines(db)
		if len(rs) == 0 {
			continue
		}
		if sub != nil {
			n := privilege.Need{Level: privilege.Database, Privs: privilege.Execute | privilege.CreateRoutine | privilege.AlterRoutine,
				Any: true, DB: db, Deny: privilege.DenyDB}
			if !sub.Allowed(n) {
				continue
			}
		}
		for _, r := range rs {
			fn(r)
		}
	}
}

// routineTime formats a routine's time (Unix microseconds).
func routineTime(us int64) string {
	return time.UnixMicro(us).Format("2006-01-02 15:04:05")
}

// typeInfo is the type columns COLUMNS, ROUTINES and PARAMETERS share: DATA_TYPE,
// CHARACTER_MAXIMUM_LENGTH, CHARACTER_OCTET_LENGTH, NUMERIC_PRECISION,
// NUMERIC_SCALE, DATETIME_PRECISION, CHARACTER_SET_NAME, COLLATION_NAME,
// DTD_IDENTIFIER.
func typeInfo(c *catalog.Column) []any {
	if c == nil {
		return []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}
	}
	charMax, octetMax := charLengths(c)
	prec, scale := numericPrecision(c)
	var dtPrec, csName, collName any
	switch c.Type {
	case sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time:
		dtPrec = uint64(max(c.Scale, 0))
	}
	if hasCharset(c) {
		csName, collName = coltype.CharsetName(c.Collation), coltype.CollationName(c.Collation)
	}
	return []any{c.TypeName, charMax, octetMax, prec, scale, dtPrec, csName, collName, coltype.FormatType(c)}
}

func routinesRows(src Source, out *Rows) error {
	visibleRoutines(src, func(r *catalog.Routine) {
		ti := typeInfo(r.ReturnCol)
		if r.Type == "PROCEDURE" {
			ti[0] = ""
		}
		det := "NO"
		if r.Deterministic {
			det = "YES"
		}
		sec := "DEFINER"
		if r.SecurityInvoker {
			sec = "INVOKER"
		}
		row := []any{r.Name, "def", r.DB, r.Name, r.Type}
		row = append(row, ti...)
		row = append(row, "SQL", r.Body, nil, "SQL", "SQL", det, r.DataAccess, nil, sec,
			routineTime(r.Created), routineTime(r.Modified), r.SQLMode, r.Comment, r.Definer,
			r.CharsetClient, r.CollationConnection, r.DBCollation)
		out.Add(row...)
	})
	return nil
}

func parametersRows(src Source, out *Rows) error {
	visibleRoutines(src, func(r *catalog.Routine) {
		if r.Type == "FUNCTION" {
			row := []any{"def", r.DB, r.Name, uint64(0), nil, nil}
			row = append(row, typeInfo(r.ReturnCol)...)
			out.Add(append(row, r.Type)...)
		}
		for i, p := range r.Params {
			mode := p.Mode
			if mode == "" {
				mode = "IN"
			}
			row := []any{"def", r.DB, r.Name, uint64(i + 1), mode, p.Name}
			row = append(row, typeInfo(p.Col)...)
			out.Add(append(row, r.Type)...)
		}
	})
	return nil
}
