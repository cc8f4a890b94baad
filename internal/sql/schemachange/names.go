package schemachange

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// ApplyDBOptions applies the CHARACTER SET and COLLATE options of CREATE
// or ALTER DATABASE to db (1115, 1273 for unknown names).
func ApplyDBOptions(db *catalog.Database, opts []sqlparser.DatabaseOption) error {
	for _, o := range opts {
		switch o.Type {
		case sqlparser.CharacterSetType:
			cs := strings.ToLower(o.Value)
			id := DefaultCollation(cs)
			if id == collations.Unknown {
				return sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSClientError, "Unknown character set: '%s'", o.Value)
			}
			db.Charset, db.Collation = coltype.CharsetName(id), id
		case sqlparser.CollateType:
			id := collations.MySQL8().LookupByName(strings.ToLower(o.Value))
			if id == collations.Unknown {
				return sqlerr.New(sqlerror.ERUnknownCollation, sqlerror.SSUnknownSQLState, "Unknown collation: '%s'", o.Value)
			}
			db.Collation, db.Charset = id, coltype.CharsetName(id)
		}
	}
	return nil
}

// CheckIdent refuses a database, table or column name MySQL refuses
// (1103): empty, longer than 64 characters, or ending in a space.
func CheckIdent(name, what string) error {
	if name == "" || len(name) > 64 || strings.HasSuffix(name, " ") {
		return sqlerr.New(sqlerror.ERWrongTableName, sqlerror.SSClientError, "Incorrect %s name '%s'", what, name)
	}
	return nil
}

// DefaultCollation maps a charset name to its default collation
// (utf8mb4 defaults to utf8mb4_general_ci, as in MariaDB and MySQL 5.7).
func DefaultCollation(cs string) collations.ID {
	cs = strings.ToLower(strings.TrimSpace(cs))
	switch cs {
	case "utf8mb4":
		return collations.ID(45)
	case "utf8", "utf8mb3":
		return collations.ID(33)
	}
	return collations.MySQL8().DefaultCollationForCharset(cs)
}
