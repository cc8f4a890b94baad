package eval

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/vt/sqlparser"
)

// Byte-level functions over columns of other character sets. strata keeps
// the text of a latin1 (cp1250, ...) column as UTF-8 and evaluates it as
// utf8mb4 text (collation.EvalCollation), which is right for comparisons,
// LIKE, CONCAT and UPPER but not for functions of the bytes: LENGTH('é')
// of a latin1 column is 1 in MySQL, 2 in UTF-8. rewriteColumnCharsets
// gives such a function, when its argument is the column itself, the
// column converted to its own character set (CONVERT(col USING latin1)),
// so it sees the bytes MySQL stores.

// byteFuncs are the functions whose result depends on their argument's
// bytes, not its characters.
var byteFuncs = map[string]bool{
	"length": true, "octet_length": true, "bit_length": true, "hex": true,
	"ord": true, "ascii": true, "md5": true, "sha": true, "sha1": true, "sha2": true,
	"crc32": true, "to_base64": true,
}

// rewriteColumnCharsets wraps the column arguments of byte-level functions
// (and of CAST/CONVERT to a binary string) in a conversion to the column's
// own character set, when that set is not UTF-8, ASCII or binary.
func (c *Compiler) rewriteColumnCharsets(e sqlparser.Expr) sqlparser.Expr {
	if c.Scope == nil {
		return e
	}
	wrap := func(arg sqlparser.Expr) sqlparser.Expr {
		cn, ok := arg.(*sqlparser.ColName)
		if !ok {
			return arg
		}
		i, err := c.Scope.Resolve(cn)
		if err != nil || i < 0 || i >= len(c.Scope.Cols) {
			return arg
		}
		col := c.Scope.Cols[i].Col
		if col == nil {
			return arg
		}
		cs := collations.MySQL8().LookupCharsetName(col.Collation)
		switch cs {
		case "", "utf8mb4", "utf8mb3", "ascii", "binary":
			return arg
		}
		return &sqlparser.ConvertUsingExpr{Expr: arg, Type: cs}
	}
	out := sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.FuncExpr:
			if byteFuncs[strings.ToLower(n.Name.String())] && len(n.Exprs) > 0 {
				n.Exprs[0] = wrap(n.Exprs[0])
			}
		case *sqlparser.CastExpr:
			if n.Type != nil && isBinaryType(n.Type) {
				n.Expr = wrap(n.Expr)
			}
		case *sqlparser.ConvertExpr:
			if n.Type != nil && isBinaryType(n.Type) {
				n.Expr = wrap(n.Expr)
			}
		}
		return true
	})
	return out.(sqlparser.Expr)
}

// isBinaryType reports whether a CAST/CONVERT target is a binary string.
func isBinaryType(t *sqlparser.ConvertType) bool {
	typ := strings.ToLower(t.Type)
	return typ == "binary" || (typ == "char" && t.Charset.Name == "binary")
}
