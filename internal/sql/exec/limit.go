package exec

import "context"

// Limit skips the first Offset rows of its input and passes on at most
// Count of the rest (SQL's LIMIT Count OFFSET Offset), counting across
// batches. It stops reading its input once Count rows have passed, so an
// input that reads a table reads no further than the rows it needs —
// provided its batches are no larger than the rows still wanted.
//
// Its batches are sub-slices of the input's, valid as the input's are.
type Limit struct {
	Input         Operator
	Offset, Count uint64
	skipped, sent uint64
}

// Open implements Operator: it resets the counts, so a Limit can be run
// again.
func (l *Limit) Open(ctx context.Context) error {
	l.skipped, l.sent = 0, 0
	return l.Input.Open(ctx)
}

// Next implements Operator.
func (l *Limit) Next() ([]Row, error) {
	for l.sent < l.Count {
		b, err := l.Input.Next()
		if err != nil || b == nil {
			return nil, err
		}
		if skip := min(l.Offset-l.skipped, uint64(len(b))); skip > 0 {
			l.skipped += skip
			b = b[skip:]
		}
		if n := min(l.Count-l.sent, uint64(len(b))); n > 0 {
			l.sent += n
			return b[:n], nil
		}
	}
	return nil, nil
}

// Full reports whether Count rows have passed: the caller may stop
// pulling (Next would return nil).
func (l *Limit) Full() bool { return l.sent >= l.Count }

// Close implements Operator.
func (l *Limit) Close() error { return l.Input.Close() }
