package coltype

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/sqlerror"
)

// DefaultCollation is strata's default collation, utf8mb4_general_ci.
const DefaultCollation collations.ID = 45

// collEnv is the collation environment strata presents (MySQL 8.0).
var collEnv = collations.MySQL8()

// CollationName returns the MySQL name of a collation ("utf8mb4_general_ci").
func CollationName(id collations.ID) string { return collEnv.LookupName(id) }

// CharsetName returns the character set of a collation ("utf8mb4").
func CharsetName(id collations.ID) string { return collEnv.LookupCharsetName(id) }

// MaxCharLen is the maximum bytes per character of a collation's charset
// (1 for an unknown collation).
func MaxCharLen(id collations.ID) int {
	if c := colldata.Lookup(id); c != nil {
		return c.Charset().MaxWidth()
	}
	return 1
}

func normCharset(name string) string {
	name = strings.ToLower(strings.Trim(name, "'\""))
	if name == "utf8" {
		return "utf8mb3"
	}
	return name
}

// defaultCollationFor returns the default collation of a charset: the
// table's collation when it belongs to that charset, strata's default for
// utf8mb4, else the charset's MySQL default.
func defaultCollationFor(cs string, tableColl collations.ID) collations.ID {
	if tableColl != collations.Unknown && CharsetName(tableColl) == cs {
		return tableColl
	}
	if cs == "utf8mb4" {
		return DefaultCollation
	}
	return collEnv.DefaultCollationForCharset(cs)
}

// ResolveCollation resolves a CHARACTER SET / BINARY / COLLATE clause into a
// collation id. csName may be empty (use the table's), binary is the BINARY
// attribute (the charset's _bin collation), coll may be empty.
func ResolveCollation(csName string, binary bool, coll string, tableColl collations.ID) (collations.ID, error) {
	if tableColl == collations.Unknown {
		tableColl = DefaultCollation
	}
	cs := ""
	if csName != "" {
		cs = normCharset(csName)
		if collEnv.DefaultCollationForCharset(cs) == collations.Unknown {
			return 0, newErr(sqlerror.ERUnknownCharacterSet, ssSyntax, "Unknown character set: '"+csName+"'")
		}
	}
	if coll != "" {
		name := strings.ToLower(strings.Trim(coll, "'\""))
		if strings.HasPrefix(name, "utf8_") {
			name = "utf8mb3_" + name[len("utf8_"):]
		}
		id := collEnv.LookupByName(name)
		if id == collations.Unknown {
			return 0, newErr(sqlerror.ERUnknownCollation, ssGeneral, "Unknown collation: '"+coll+"'")
		}
		if cs != "" && CharsetName(id) != cs {
			return 0, newErr(sqlerror.ERCollationCharsetMismatch, ssSyntax,
				"COLLATION '"+name+"' is not valid for CHARACTER SET '"+cs+"'")
		}
		return id, nil
	}
	if cs == "" {
		cs = CharsetName(tableColl)
	}
	if binary {
		if cs == "binary" {
			return collations.CollationBinaryID, nil
		}
		if id := collEnv.LookupByName(cs + "_bin"); id != collations.Unknown {
			return id, nil
		}
		return collEnv.BinaryCollationForCharset(cs), nil
	}
	return defaultCollationFor(cs, tableColl), nil
}

// charsetOf returns the charset of a collation, or nil.
func charsetOf(id collations.ID) charset.Charset {
	if c := colldata.Lookup(id); c != nil {
		return c.Charset()
	}
	return nil
}
