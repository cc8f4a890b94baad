package plan

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// IndexHints restricts the candidate indexes of a table (USE, FORCE and
// IGNORE INDEX). The zero value allows every index.
type IndexHints struct {
	Use    map[string]bool // USE/FORCE INDEX names (lower case); nil = all
	Ignore map[string]bool
	// Force: FORCE INDEX, a table scan is chosen only when no allowed
	// index serves any predicate.
	Force bool
}

// ParseHints collects a table's index hints.
func ParseHints(h sqlparser.IndexHints) IndexHints {
	var out IndexHints
	for _, hint := range h {
		names := map[string]bool{}
		for _, n := range hint.Indexes {
			names[strings.ToLower(n.String())] = true
		}
		switch hint.Type {
		case sqlparser.IgnoreOp:
			if out.Ignore == nil {
				out.Ignore = map[string]bool{}
			}
			for n := range names {
				out.Ignore[n] = true
			}
		case sqlparser.ForceOp, sqlparser.UseOp:
			if hint.Type == sqlparser.ForceOp {
				out.Force = true
			}
			if out.Use == nil {
				out.Use = map[string]bool{}
			}
			for n := range names {
				out.Use[n] = true
			}
		}
	}
	return out
}

// Allowed reports whether the hints let the planner use ix.
func (h IndexHints) Allowed(ix *catalog.Index) bool {
	name := strings.ToLower(ix.Name)
	if h.Ignore[name] {
		return false
	}
	if h.Use != nil && !h.Use[name] {
		return false
	}
	return true
}

// Check fails with 1176 when a hint names an index t does not have.
func (h IndexHints) Check(t *catalog.Table) error {
	for _, m := range []map[string]bool{h.Use, h.Ignore} {
		for name := range m {
			if name == "primary" && !t.HiddenPK {
				continue
			}
			if ix := t.IndexByName(name); ix == nil || (ix.Primary && t.HiddenPK) {
				return sqlerr.New(sqlerror.ERKeyDoesNotExist, sqlerror.SSClientError, "Key '%s' doesn't exist in table '%s'", name, t.Name)
			}
		}
	}
	return nil
}
