package collation

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
)

// strata keeps the text of every column as UTF-8, whatever the column's
// character set (coltype's store conversion checks that the text fits the
// set, then stores it as UTF-8). Expressions must therefore read a column
// of another character set (latin1, cp1250, ...) as UTF-8 text: evaluated
// under its declared collation, the bytes would be taken for that set's
// characters ('é', stored C3 A9, would read as 'Ã©'), so comparisons with
// literals, LIKE, CONCAT and UPPER would answer wrongly. EvalCollation
// gives such a column the utf8mb4 collation with the closest rules
// instead: _bin and case-sensitive ones to utf8mb4_bin, the rest to
// utf8mb4_general_ci (accent- and case-insensitive, as the sets' default
// collations). SHOW CREATE TABLE and information_schema keep the declared
// set. Index keys weigh under the same collation (table/codec), so an
// index range and a filter agree. Known differences from MySQL for
// non-ASCII text in such columns: LENGTH and HEX count and show the UTF-8
// bytes, and the few letters a national collation orders apart
// (latin1_swedish_ci's Å, Ä, Ö after Z) sort as in utf8mb4_general_ci.

// EvalCollation returns the collation expressions evaluate (and index
// keys weigh) a text column of collation id under. It is a table lookup.
func EvalCollation(id collations.ID) collations.ID {
	if int(id) < len(evalColls) {
		return evalColls[id]
	}
	return id
}

// evalColls maps every collation id to its evaluation collation.
var evalColls = func() []collations.ID {
	const maxID = 4096
	env := collations.MySQL8()
	out := make([]collations.ID, maxID)
	for i := range out {
		id := collations.ID(i)
		out[i] = id
		switch env.LookupCharsetName(id) {
		case "utf8mb4", "utf8mb3", "binary", "ascii", "":
			continue
		}
		name := env.LookupName(id)
		if strings.HasSuffix(name, "_bin") || strings.HasSuffix(name, "_cs") {
			out[i] = collations.CollationUtf8mb4BinID
		} else {
			out[i] = utf8mb4GeneralCI
		}
	}
	return out
}()

// utf8mb4GeneralCI is strata's default collation (coltype.DefaultCollation).
const utf8mb4GeneralCI collations.ID = 45
