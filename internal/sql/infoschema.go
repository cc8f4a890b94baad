package sql

import (
	"github.com/strata-db/strata/internal/catalog"
)

// systemTable returns the definition and row source of a table in a system
// schema (information_schema, mysql, performance_schema, sys).
func (s *Session) systemTable(db, name string) (*catalog.Table, func(ex *execCtx) ([]Row, error), error) {
	return nil, nil, noTableErr(db, name)
}

// systemTables lists the tables of a system schema.
func (s *Session) systemTables(db string) []*catalog.Table {
	return nil
}
