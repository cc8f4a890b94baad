package vtable

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

// information_schema tables describing indexes and constraints:
// STATISTICS, KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS, TABLE_CONSTRAINTS,
// CHECK_CONSTRAINTS.

func init() {
	const is = InformationSchema
	define(is, "STATISTICS", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "NON_UNIQUE i",
		"INDEX_SCHEMA s64", "INDEX_NAME s64?", "SEQ_IN_INDEX iu", "COLUMN_NAME s64?",
		"COLLATION s1?", "CARDINALITY b?", "SUB_PART b?", "PACKED bin0?", "NULLABLE s3",
		"INDEX_TYPE s11", "COMMENT s8", "INDEX_COMMENT s2048", "IS_VISIBLE s3",
		"EXPRESSION lt?",
	}, statisticsRows)
	define(is, "KEY_COLUMN_USAGE", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "COLUMN_NAME s64?",
		"ORDINAL_POSITION iu", "POSITION_IN_UNIQUE_CONSTRAINT iu?",
		"REFERENCED_TABLE_SCHEMA s64?", "REFERENCED_TABLE_NAME s64?",
		"REFERENCED_COLUMN_NAME s64?",
	}, keyColumnUsageRows)
	define(is, "REFERENTIAL_CONSTRAINTS", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"UNIQUE_CONSTRAINT_CATALOG s64", "UNIQUE_CONSTRAINT_SCHEMA s64",
		"UNIQUE_CONSTRAINT_NAME s64?", "MATCH_OPTION s7", "UPDATE_RULE s11",
		"DELETE_RULE s11", "TABLE_NAME s64", "REFERENCED_TABLE_NAME s64",
	}, referentialConstraintsRows)
	define(is, "TABLE_CONSTRAINTS", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"TABLE_SCHEMA s64", "TABLE_NAME s64", "CONSTRAINT_TYPE s11", "ENFORCED s3",
	}, tableConstraintsRows)
	define(is, "CHECK_CONSTRAINTS", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64",
		"CHECK_CLAUSE lt",
	}, checkConstraintsRows)
}

// visibleIndexes lists a table's indexes as MySQL orders them: primary key,
// unique keys, then the others, each group in definition order.
func visibleIndexes(t *catalog.Table) []*catalog.Index {
	out := make([]*catalog.Index, 0, len(t.Indexes))
	for _, rank := range []int{0, 1, 2} {
		for k, ix := range t.Indexes {
			if k == 0 && t.HiddenPK {
				continue
			}
			r := 2
			switch {
			case ix.Primary:
				r = 0
			case ix.Unique:
				r = 1
			}
			if r == rank {
				out = append(out, ix)
			}
		}
	}
	return out
}

func statisticsRows(src Source, out *Rows) error {
	cat := src.Catalog()
	userTables(src, func(db string, t *catalog.Table) {
		for _, ix := range visibleIndexes(t) {
			nonUnique := 1
			if ix.Unique || ix.Primary {
				nonUnique = 0
			}
			for i, ic := range ix.Columns {
				c := &t.Columns[ic.Col]
				coll := "A"
				if ic.Desc {
					coll = "D"
				}
				var sub any
				if ic.Prefix > 0 {
					sub = int64(ic.Prefix)
				}
				null := ""
				if c.Nullable {
					null = "YES"
				}
				out.Add("def", db, t.Name, nonUnique, db, ix.Name, i+1, c.Name, coll,
					IndexCardinality(cat.Stats(t), ix, i+1), sub, nil, null, "BTREE", "", ix.Comment, "YES", nil)
			}
		}
	})
	return nil
}

// ForeignKey is a parsed FOREIGN KEY constraint of a table.
type ForeignKey struct {
	// Name is the constraint's name.
	Name string
	// Cols are the referencing columns.
	Cols []string
	// RefDB and RefTable name the referenced table.
	RefDB, RefTable string
	// RefCols are the referenced columns.
	RefCols []string
	// OnUpdate and OnDelete are the referential actions as
	// REFERENTIAL_CONSTRAINTS spells them (NO ACTION when unspecified).
	OnUpdate, OnDelete string
}

// ForeignKeys parses the foreign keys kept in a table definition (texts
// that do not parse as one are skipped). Unnamed constraints get MySQL's
// generated names (<table>_ibfk_<n>).
func ForeignKeys(p *sqlparser.Parser, t *catalog.Table) []ForeignKey {
	var out []ForeignKey
	unnamed := 0
	for _, text := range t.ForeignKeys {
		stmt, err := p.Parse("alter table t add " + text)
		if err != nil {
			continue
		}
		alter, ok := stmt.(*sqlparser.AlterTable)
		if !ok || len(alter.AlterOptions) != 1 {
			continue
		}
		add, ok := alter.AlterOptions[0].(*sqlparser.AddConstraintDefinition)
		if !ok {
			continue
		}
		def, ok := add.ConstraintDefinition.Details.(*sqlparser.ForeignKeyDefinition)
		if !ok || def.ReferenceDefinition == nil {
			continue
		}
		ref := def.ReferenceDefinition
		fk := ForeignKey{
			Name:     add.ConstraintDefinition.Name.String(),
			RefDB:    ref.ReferencedTable.Qualifier.String(),
			RefTable: ref.ReferencedTable.Name.String(),
			OnUpdate: referenceRule(ref.OnUpdate),
			OnDelete: referenceRule(ref.OnDelete),
		}
		if fk.Name == "" {
			unnamed++
			fk.Name = t.Name + "_ibfk_" + strconv.Itoa(unnamed)
		}
		if fk.RefDB == "" {
			fk.RefDB = t.DB
		}
		for _, c := range def.Source {
			fk.Cols = append(fk.Cols, c.String())
		}
		for _, c := range ref.ReferencedColumns {
			fk.RefCols = append(fk.RefCols, c.String())
		}
		out = append(out, fk)
	}
	return out
}

// referenceRule is the UPDATE_RULE/DELETE_RULE text of a referential action
// (MySQL 8.0 reports an unspecified action as NO ACTION).
func referenceRule(a sqlparser.ReferenceAction) string {
	switch a {
	case sqlparser.Restrict:
		return "RESTRICT"
	case sqlparser.Cascade:
		return "CASCADE"
	case sqlparser.SetNull:
		return "SET NULL"
	case sqlparser.SetDefault:
		return "SET DEFAULT"
	}
	return "NO ACTION"
}

// uniqueConstraintName names the index of the referenced table that a
// foreign key's referenced columns match: PRIMARY, a unique key, or nil.
func uniqueConstraintName(cat *catalog.Catalog, fk *ForeignKey) any {
	rt := cat.Table(fk.RefDB, fk.RefTable)
	if rt == nil {
		return nil
	}
	for _, ix := range visibleIndexes(rt) {
		if !ix.Primary && !ix.Unique || len(ix.Columns) != len(fk.RefCols) {
			continue
		}
		match := true
		for i, ic := range ix.Columns {
			if !strings.EqualFold(rt.Columns[ic.Col].Name, fk.RefCols[i]) {
				match = false
				break
			}
		}
		if match {
			return ix.Name
		}
	}
	return nil
}

func keyColumnUsageRows(src Source, out *Rows) error {
	userTables(src, func(db string, t *catalog.Table) {
		for _, ix := range visibleIndexes(t) {
			if !ix.Primary && !ix.Unique {
				continue
			}
			for i, ic := range ix.Columns {
				out.Add("def", db, ix.Name, "def", db, t.Name, t.Columns[ic.Col].Name,
					i+1, nil, nil, nil, nil)
			}
		}
		for _, fk := range ForeignKeys(src.Parser(), t) {
			for i, c := range fk.Cols {
				var refCol any
				if i < len(fk.RefCols) {
					refCol = fk.RefCols[i]
				}
				out.Add("def", db, fk.Name, "def", db, t.Name, c, i+1, i+1,
					fk.RefDB, fk.RefTable, refCol)
			}
		}
	})
	return nil
}

func referentialConstraintsRows(src Source, out *Rows) error {
	userTables(src, func(db string, t *catalog.Table) {
		for _, fk := range ForeignKeys(src.Parser(), t) {
			out.Add("def", db, fk.Name, "def", fk.RefDB, uniqueConstraintName(src.Catalog(), &fk),
				"NONE", fk.OnUpdate, fk.OnDelete, t.Name, fk.RefTable)
		}
	})
	return nil
}

func tableConstraintsRows(src Source, out *Rows) error {
	userTables(src, func(db string, t *catalog.Table) {
		for _, ix := range visibleIndexes(t) {
			switch {
			case ix.Primary:
				out.Add("def", db, ix.Name, db, t.Name, "PRIMARY KEY", "YES")
			case ix.Unique:
				out.Add("def", db, ix.Name, db, t.Name, "UNIQUE", "YES")
			}
		}
		for _, fk := range ForeignKeys(src.Parser(), t) {
			out.Add("def", db, fk.Name, db, t.Name, "FOREIGN KEY", "YES")
		}
		for _, ck := range t.Checks {
			enforced := "YES"
			if ck.NotEnforced {
				enforced = "NO"
			}
			out.Add("def", db, ck.Name, db, t.Name, "CHECK", enforced)
		}
	})
	return nil
}

// checkConstraintsRows lists CHECK constraints with their clauses as MySQL
// prints them.
func checkConstraintsRows(src Source, out *Rows) error {
	userTables(src, func(db string, t *catalog.Table) {
		for _, ck := range t.Checks {
			out.Add("def", db, ck.Name, ck.Clause)
		}
	})
	return nil
}

// IndexCardinality is the CARDINALITY of key part seq (1-based) of ix:
// the distinct values of that key prefix in the table statistics st, or
// nil without statistics.
func IndexCardinality(st *catalog.TableStats, ix *catalog.Index, seq int) any {
	if st == nil {
		return nil
	}
	if n, ok := st.Distinct(ix, seq); ok {
		return n
	}
	return nil
}
