package coltype

import (
	"vitess.io/vitess/go/mysql/collations"

	"github.com/strata-db/strata/internal/collation"
)

// EvalCollation returns the collation expressions evaluate a text column
// of collation id under (collation.EvalCollation: a non-UTF-8 character
// set's text is stored, evaluated and indexed as utf8mb4).
func EvalCollation(id collations.ID) collations.ID { return collation.EvalCollation(id) }
