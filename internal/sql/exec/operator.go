package exec

import (
	"context"

	"vitess.io/vitess/go/sqltypes"
)

// Row is one row of values, as the sql package's rows.
type Row = []sqltypes.Value

// Batch limits: a batch holds at most BatchRows rows, and is cut once its
// values' bytes reach BatchBytes (the sql package's streaming uses the same
// sizes).
const (
	BatchRows  = 256
	BatchBytes = 256 << 10
)

// Operator produces rows in batches (see the package doc for the contract).
type Operator interface {
	// Open prepares the operator; ctx bounds all its work until Close.
	Open(ctx context.Context) error
	// Next returns the next batch, or nil at the end. The batch is valid
	// until the next call to Next or Close.
	Next() ([]Row, error)
	// Close releases the operator's memory and files. It is always
	// called, once, whatever Open and Next returned.
	Close() error
}

// Drain calls add with every row in from's batches (from is already open),
// until the end or the first error.
func Drain(from Operator, add func(Row) error) error {
	for {
		b, err := from.Next()
		if err != nil || b == nil {
			return err
		}
		for _, row := range b {
			if err := add(row); err != nil {
				return err
			}
		}
	}
}

// Values is an Operator over rows held in memory (tests, and inputs that
// are already materialised).
type Values struct {
	Rows []Row
	pos  int
}

// Open implements Operator.
func (v *Values) Open(context.Context) error { v.pos = 0; return nil }

// Next implements Operator.
func (v *Values) Next() ([]Row, error) {
	if v.pos >= len(v.Rows) {
		return nil, nil
	}
	end := min(v.pos+BatchRows, len(v.Rows))
	b := v.Rows[v.pos:end]
	v.pos = end
	return b, nil
}

// Close implements Operator.
func (v *Values) Close() error { return nil }
