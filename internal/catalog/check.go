package catalog

import (
	"sort"
	"strconv"
	"strings"
)

// CheckConstraint is a CHECK constraint of a table (MySQL 8.0.16+). The
// expression is kept as MySQL prints it, the way foreign keys are kept in
// MySQL's format: the same text serves SHOW CREATE TABLE,
// INFORMATION_SCHEMA.CHECK_CONSTRAINTS and, parsed again, evaluation.
type CheckConstraint struct {
	// Name is unique among the CHECK constraints of a database, compared
	// case-insensitively (MySQL's rule).
	Name string `json:"name"`
	// Clause is the expression in MySQL's canonical form, the CHECK_CLAUSE
	// column of INFORMATION_SCHEMA.CHECK_CONSTRAINTS: "(`n` > 0)".
	Clause string `json:"clause"`
	// Columns are the columns the expression refers to, as written in it
	// (each once, compared case-insensitively). DROP COLUMN and RENAME
	// COLUMN consult them without parsing the clause.
	Columns []string `json:"columns,omitempty"`
	// NotEnforced constraints are kept but not evaluated ([NOT] ENFORCED).
	NotEnforced bool `json:"not_enforced,omitempty"`
}

// Uses reports whether the constraint refers to column name.
func (c *CheckConstraint) Uses(name string) bool {
	for _, n := range c.Columns {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// UsesOnly reports whether the constraint refers to column name and to no
// other column.
func (c *CheckConstraint) UsesOnly(name string) bool {
	if len(c.Columns) == 0 {
		return false
	}
	for _, n := range c.Columns {
		if !strings.EqualFold(n, name) {
			return false
		}
	}
	return true
}

// CheckIndex returns the position of the named CHECK constraint
// (case-insensitive), or -1.
func (t *Table) CheckIndex(name string) int {
	for i := range t.Checks {
		if strings.EqualFold(t.Checks[i].Name, name) {
			return i
		}
	}
	return -1
}

// HasEnforcedChecks reports whether any CHECK constraint of t is enforced.
func (t *Table) HasEnforcedChecks() bool {
	for i := range t.Checks {
		if !t.Checks[i].NotEnforced {
			return true
		}
	}
	return false
}

// SortChecks puts CHECK constraints in MySQL's order: by name, which is
// the order SHOW CREATE TABLE lists them and the order they are evaluated
// in (so the first violated one in that order is the one reported).
func SortChecks(cs []CheckConstraint) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := strings.ToLower(cs[i].Name), strings.ToLower(cs[j].Name)
		if a != b {
			return a < b
		}
		return cs[i].Name < cs[j].Name
	})
}

// GeneratedCheckName is the name MySQL gives the n-th unnamed CHECK
// constraint of a table: <table>_chk_<n>.
func GeneratedCheckName(table string, n int) string {
	return table + "_chk_" + strconv.Itoa(n)
}

// GeneratedCheckNumber returns n when name has the form of a generated name
// of table (<table>_chk_<n>, the table part compared case-insensitively).
func GeneratedCheckNumber(table, name string) (int, bool) {
	prefix := table + "_chk_"
	if len(name) <= len(prefix) || !strings.EqualFold(name[:len(prefix)], prefix) {
		return 0, false
	}
	digits := name[len(prefix):]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// MaxGeneratedCheckNumber is the highest n among cs named <table>_chk_<n>
// (0 when none is): MySQL numbers a table's next unnamed constraint after it.
func MaxGeneratedCheckNumber(table string, cs []CheckConstraint) int {
	m := 0
	for i := range cs {
		if n, ok := GeneratedCheckNumber(table, cs[i].Name); ok && n > m {
			m = n
		}
	}
	return m
}

// RenameGeneratedChecks renames constraints with generated names of table
// oldName to the same numbers under newName, as RENAME TABLE does in MySQL,
// and keeps the MySQL order. Other names are kept.
func RenameGeneratedChecks(cs []CheckConstraint, oldName, newName string) {
	changed := false
	for i := range cs {
		if n, ok := GeneratedCheckNumber(oldName, cs[i].Name); ok {
			cs[i].Name = GeneratedCheckName(newName, n)
			changed = true
		}
	}
	if changed {
		SortChecks(cs)
	}
}

// CheckOwner returns the table of database db that has a CHECK constraint
// named name (case-insensitive), other than the table named skip; nil when
// there is none. MySQL requires CHECK constraint names to be unique within
// a database.
func (c *Catalog) CheckOwner(db, name, skip string) *Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for tn, t := range c.mu.tables[db] {
		if tn == skip {
			continue
		}
		if t.CheckIndex(name) >= 0 {
			return t
		}
	}
	return nil
}
