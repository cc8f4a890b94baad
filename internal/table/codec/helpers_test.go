package codec

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// Collation ids used by the tests.
const (
	collGeneralCI = collations.ID(45)  // utf8mb4_general_ci
	collBin       = collations.ID(46)  // utf8mb4_bin
	collBinary    = collations.ID(63)  // binary
	coll0900AICI  = collations.ID(255) // utf8mb4_0900_ai_ci
)

func intCol(name string, typ sqltypes.Type) catalog.Column {
	return catalog.Column{Name: name, Type: typ, Collation: collBinary, Nullable: true}
}

func textCol(name string, typ sqltypes.Type, coll collations.ID) catalog.Column {
	return catalog.Column{Name: name, Type: typ, Collation: coll, Nullable: true}
}

func scaled(name string, typ sqltypes.Type, scale int) catalog.Column {
	return catalog.Column{Name: name, Type: typ, Scale: scale, Collation: collBinary, Nullable: true}
}

func enumCol(name string, typ sqltypes.Type, members ...string) catalog.Column {
	return catalog.Column{Name: name, Type: typ, EnumValues: members, Collation: collGeneralCI, Nullable: true}
}

func val(typ sqltypes.Type, s string) sqltypes.Value {
	return sqltypes.MakeTrusted(typ, []byte(s))
}
