package sql

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
	const is = "information_schema"
	defineSys(is, "STATISTICS", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "NON_UNIQUE i",
		"INDEX_SCHEMA s64", "INDEX_NAME s64?", "SEQ_IN_INDEX iu", "COLUMN_NAME s64?",
		"COLLATION s1?", "CARDINALITY b?", "SUB_PART b?", "PACKED bin0?", "NULLABLE s3",
		"INDEX_TYPE s11", "COMMENT s8", "INDEX_COMMENT s2048", "IS_VISIBLE s3",
		"EXPRESSION lt?",
	}, statisticsRows)
	defineSys(is, "KEY_COLUMN_USAGE", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "COLUMN_NAME s64?",
		"ORDINAL_POSITION iu", "POSITION_IN_UNIQUE_CONSTRAINT iu?",
		"REFERENCED_TABLE_SCHEMA s64?", "REFERENCED_TABLE_NAME s64?",
		"REFERENCED_COLUMN_NAME s64?",
	}, keyColumnUsageRows)
	defineSys(is, "REFERENTIAL_CONSTRAINTS", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"UNIQUE_CONSTRAINT_CATALOG s64", "UNIQUE_CONSTRAINT_SCHEMA s64",
		"UNIQUE_CONSTRAINT_NAME s64?", "MATCH_OPTION s7", "UPDATE_RULE s11",
		"DELETE_RULE s11", "TABLE_NAME s64", "REFERENCED_TABLE_NAME s64",
	}, referentialConstraintsRows)
	defineSys(is, "TABLE_CONSTRAINTS", []string{
		"CONSTRAINT_CATALOG s64", "CONSTRAINT_SCHEMA s64", "CONSTRAINT_NAME s64?",
		"TABLE_SCHEMA s64", "TABLE_NAME s64", "CONSTRAINT_TYPE s11", "ENFORCED s3",
	}, tableConstraintsRows)
	defineSys(is, "CHECK_CONSTRAINTS", []string{
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

// userTables calls fn for every table of every user database the session
// may see.
func (s *Session) userTables(fn func(db string, t *catalog.Table)) {
	for _, db := range s.eng.Cat.Databases() {
		for _, t := range s.eng.Cat.Tables(db) {
			if s.canSeeTable(db, t.Name) {
				fn(db, t)
			}
		}
	}
}

func statisticsRows(s *Session, _ *execCtx, out *sysRows) error {
	s.userTables(func(db string, t *catalog.Table) {
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
				out.add("def", db, t.Name, nonUnique, db, ix.Name, i+1, c.Name, coll,
					s.indexCardinality(t, ix, i+1), sub, nil, null, "BTREE", "", ix.Comment, "YES", nil)
			}
		}
	})
	return nil
}

// foreignKey is a parsed FOREIGN KEY constraint of a table.
type foreignKey struct {
	name     string
	cols     []string
	refDB    string
	refTable string
	refCols  []string
	onUpdate string
	onDelete string
}

// foreignKeys parses the foreign keys kept in a table definition. Unnamed
// constraints get MySQL's generated names (<table>_ibfk_<n>).
func (s *Session) foreignKeys(t *catalog.Table) []foreignKey {
	var out []foreignKey
	unnamed := 0
	for _, text := range t.ForeignKeys {
		stmt, err := s.eng.Parser.Parse("alter table t add " + text)
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
		fk := foreignKey{
			name:     add.ConstraintDefinition.Name.String(),
			refDB:    ref.ReferencedTable.Qualifier.String(),
			refTable: ref.ReferencedTable.Name.String(),
			onUpdate: referenceRule(ref.OnUpdate),
			onDelete: referenceRule(ref.OnDelete),
		}
		if fk.name == "" {
			unnamed++
			fk.name = t.Name + "_ibfk_" + strconv.Itoa(unnamed)
		}
		if fk.refDB == "" {
			fk.refDB = t.DB
		}
		for _, c := range def.Source {
			fk.cols = append(fk.cols, c.String())
		}
		for _, c := range ref.ReferencedColumns {
			fk.refCols = append(fk.refCols, c.String())
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
func (s *Session) uniqueConstraintName(fk *foreignKey) any {
	rt := s.eng.Cat.Table(fk.refDB, fk.refTable)
	if rt == nil {
		return nil
	}
	for _, ix := range visibleIndexes(rt) {
		if !ix.Primary && !ix.Unique || len(ix.Columns) != len(fk.refCols) {
			continue
		}
		match := true
		for i, ic := range ix.Columns {
			if !strings.EqualFold(rt.Columns[ic.Col].Name, fk.refCols[i]) {
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

func keyColumnUsageRows(s *Session, _ *execCtx, out *sysRows) error {
	s.userTables(func(db string, t *catalog.Table) {
		for _, ix := range visibleIndexes(t) {
			if !ix.Primary && !ix.Unique {
				continue
			}
			for i, ic := range ix.Columns {
				out.add("def", db, ix.Name, "def", db, t.Name, t.Columns[ic.Col].Name,
					i+1, nil, nil, nil, nil)
			}
		}
		for _, fk := range s.foreignKeys(t) {
			for i, c := range fk.cols {
				var refCol any
				if i < len(fk.refCols) {
					refCol = fk.refCols[i]
				}
				out.add("def", db, fk.name, "def", db, t.Name, c, i+1, i+1,
					fk.refDB, fk.refTable, refCol)
			}
		}
	})
	return nil
}

func referentialConstraintsRows(s *Session, _ *execCtx, out *sysRows) error {
	s.userTables(func(db string, t *catalog.Table) {
		for _, fk := range s.foreignKeys(t) {
			out.add("def", db, fk.name, "def", fk.refDB, s.uniqueConstraintName(&fk),
				"NONE", fk.onUpdate, fk.onDelete, t.Name, fk.refTable)
		}
	})
	return nil
}

func tableConstraintsRows(s *Session, _ *execCtx, out *sysRows) error {
	s.userTables(func(db string, t *catalog.Table) {
		for _, ix := range visibleIndexes(t) {
			switch {
			case ix.Primary:
				out.add("def", db, ix.Name, db, t.Name, "PRIMARY KEY", "YES")
			case ix.Unique:
				out.add("def", db, ix.Name, db, t.Name, "UNIQUE", "YES")
			}
		}
		for _, fk := range s.foreignKeys(t) {
			out.add("def", db, fk.name, db, t.Name, "FOREIGN KEY", "YES")
		}
		for _, ck := range t.Checks {
			enforced := "YES"
			if ck.NotEnforced {
				enforced = "NO"
			}
			out.add("def", db, ck.Name, db, t.Name, "CHECK", enforced)
		}
	})
	return nil
}

// checkConstraintsRows lists CHECK constraints with their clauses as MySQL
// prints them.
func checkConstraintsRows(s *Session, _ *execCtx, out *sysRows) error {
	s.userTables(func(db string, t *catalog.Table) {
		for _, ck := range t.Checks {
			out.add("def", db, ck.Name, ck.Clause)
		}
	})
	return nil
}
