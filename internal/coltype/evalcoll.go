package coltype

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
)

// strata keeps the text of every column as UTF-8, whatever the column's
// character set (toCharset checks that the text fits the set, then stores
// it as UTF-8). Expressions must therefore read a column of another
// character set (latin1, cp1250, ...) as UTF-8 text: evaluated under its
// declared collation, the bytes would be taken for that set's characters
// ('é', stored C3 A9, would read as 'Ã©'), so comparisons with literals,
// LIKE, CONCAT and UPPER would answer wrongly. EvalCollation gives such a
// column the utf8mb4 collation with the closest rules instead: _bin to
// utf8mb4_bin, case-sensitive to utf8mb4_bin, the rest to
// utf8mb4_general_ci (accent- and case-insensitive, as the sets' default
// collations). What stays as the declared set: SHOW CREATE TABLE,
// information_schema, and the index keys (weights of the stored bytes).
// Known differences from MySQL for non-ASCII text in such columns: LENGTH
// and HEX count and show the UTF-8 bytes, and the few letters a national
// collation orders apart (latin1_swedish_ci's Å, Ä, Ö after Z) sort as in
// utf8mb4_general_ci.

// EvalCollation returns the collation expressions evaluate a text column
// of collation id under.
func EvalCollation(id collations.ID) collations.ID {
	switch CharsetName(id) {
	case "utf8mb4", "utf8mb3", "binary", "ascii", "":
		return id
	}
	name := CollationName(id)
	switch {
	case strings.HasSuffix(name, "_bin"), strings.HasSuffix(name, "_cs"):
		return collations.CollationUtf8mb4BinID
	}
	return DefaultCollation
}
