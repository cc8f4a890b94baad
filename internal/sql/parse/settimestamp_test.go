package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestSetTimestamp(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, out string }{
		{"SET timestamp = 5", "SET `timestamp` = 5"},
		{"set SESSION timestamp=DEFAULT", "set SESSION `timestamp`=DEFAULT"},
		{"SET GLOBAL timestamp = 5", "SET GLOBAL `timestamp` = 5"},
		{"SET @a = 1, timestamp = 1.5", "SET @a = 1, `timestamp` = 1.5"},
		{"SET @a = TIMESTAMP '2020-01-01 00:00:00'", ""},
		{"SET @a = 'timestamp = 1'", ""},
		{"SELECT timestamp = 1", ""},
	} {
		got, ok := SetTimestamp(p, c.in)
		if c.out == "" {
			if ok {
				t.Errorf("%q: rewritten to %q", c.in, got)
			}
			continue
		}
		if !ok || got != c.out {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, ok, c.out)
			continue
		}
		if _, err := p.Parse(got); err != nil {
			t.Errorf("%q: %v", got, err)
		}
	}
}
