package sql

import "github.com/strata-db/strata/internal/sql/parse"

// SplitStatements splits a multi-statement COM_QUERY into statements,
// keeping a CREATE TRIGGER's BEGIN ... END body whole.
func (e *Engine) SplitStatements(query string) ([]string, error) {
	return parse.SplitStatements(e.Env.Parser(), query)
}
