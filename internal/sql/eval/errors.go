package eval

import (
	"errors"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	vtrpcpb "vitess.io/vitess/go/vt/proto/vtrpc"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vterrors"

	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// translateErr turns an error of evalengine.Translate for e into the error
// the client gets.
func translateErr(err error, e sqlparser.Expr) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se
	}
	// Classified by what the error is (its Vitess state, code or type),
	// never by its text.
	state := vterrors.ErrState(err)
	switch {
	case state == vterrors.DataOutOfRange:
		return evalErr(err)
	case state == vterrors.OperandColumns:
		// (a, b) = (1, 2, 3), (a, b) IN ((1, 2), (1)): row sizes differ.
		return sqlerr.New(sqlerror.EROperandColumns, sqlerror.SSWrongNumberOfColumns, "%s", err.Error())
	case state != vterrors.Undefined:
		return sqlerror.NewSQLErrorFromError(err)
	case evalengine.IsArgCountError(err):
		return sqlerr.New(sqlerror.ERWrongParamcountToNativeFct, sqlerror.SSClientError, "%s", err.Error())
	case vterrors.Code(err) == vtrpcpb.Code_UNIMPLEMENTED:
		// A function evalengine does not have is one MySQL does not have
		// either (strata's own are slots): 1305; anything else is 1235.
		if fname := unknownFunction(e); fname != "" {
			return sqlerr.New(sqlerror.ERSPDoesNotExist, sqlerror.SSClientError, "FUNCTION %s does not exist", fname)
		}
		return sqlerr.Unsupported("%s", sqlparser.String(e))
	case isCollationCharsetMismatch(err):
		return sqlerr.New(sqlerror.ERCollationCharsetMismatch, sqlerror.SSClientError, "%s", err.Error())
	}
	return sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%s", err.Error())
}

// unknownFunction returns the first function of e that is not a MySQL
// built-in, or "".
func unknownFunction(e sqlparser.Expr) string {
	if f, ok := e.(*sqlparser.FuncExpr); ok {
		return f.Name.String()
	}
	var fname string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if f, ok := n.(*sqlparser.FuncExpr); ok && fname == "" {
			if _, known := builtins.Lookup(f.Name.Lowered()); !known {
				fname = f.Name.String()
			}
		}
		return true, nil
	}, e)
	return fname
}

// isCollationCharsetMismatch recognises Vitess's collations error for a
// COLLATE clause naming a collation of another character set. It is the
// one error classified by its text: the collations package returns it
// untyped (fmt.Errorf), with no state or code to read.
func isCollationCharsetMismatch(err error) bool {
	return strings.Contains(err.Error(), "is not valid for CHARACTER SET")
}

// evalErr turns an error of an evaluation into the error the client gets.
func evalErr(err error) error {
	if vterrors.ErrState(err) == vterrors.DataOutOfRange {
		msg := err.Error()
		if i := strings.Index(msg, "BIGINT"); i >= 0 {
			msg = msg[i:]
		}
		return sqlerr.New(sqlerror.ERDataOutOfRange, sqlerror.SSDataOutOfRange, "%s", msg)
	}
	if se, ok := err.(*sqlerror.SQLError); ok {
		return se
	}
	return sqlerror.NewSQLErrorFromError(err)
}
