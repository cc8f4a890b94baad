package sql

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

type outfile struct{}

func (s *Session) openOutfile(into *sqlparser.SelectInto) (*outfile, error) {
	return nil, sqlerr.Unsupported("SELECT ... INTO OUTFILE")
}

func (o *outfile) write(res *sqltypes.Result) (*sqltypes.Result, error) { return nil, nil }
