package exec

import "context"

// Predicate decides whether a row passes a Filter. It is an interface, not
// a func, so that a caller can keep one in a reused plan and point it at
// the current execution without allocating a closure.
type Predicate interface {
	Keep(row Row) (bool, error)
}

// Filter passes on the rows of its input that Pred keeps. Its batches are
// the input's rows in a reused slice: a row is valid as long as the input
// keeps it (until the next call to Next). An input batch whose rows all
// fail is skipped: Next returns nil only at the end.
type Filter struct {
	Input Operator
	Pred  Predicate
	batch []Row
}

// Open implements Operator.
func (f *Filter) Open(ctx context.Context) error { return f.Input.Open(ctx) }

// Next implements Operator.
func (f *Filter) Next() ([]Row, error) {
	for {
		in, err := f.Input.Next()
		if err != nil || in == nil {
			return nil, err
		}
		f.batch = f.batch[:0]
		for _, r := range in {
			ok, err := f.Pred.Keep(r)
			if err != nil {
				return nil, err
			}
			if ok {
				f.batch = append(f.batch, r)
			}
		}
		if len(f.batch) > 0 {
			return f.batch, nil
		}
	}
}

// Close implements Operator: it closes the input and drops the batch.
func (f *Filter) Close() error {
	clear(f.batch)
	f.batch = f.batch[:0]
	return f.Input.Close()
}
