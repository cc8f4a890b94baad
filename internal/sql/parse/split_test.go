package parse

import (
	"reflect"
	"testing"
)

// TestSplitTopLevel: separators inside quotes, backticks, comments and
// parentheses do not split; an unclosed quote or comment is reported.
func TestSplitTopLevel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"a = 1, b = 2", []string{"a = 1", " b = 2"}, true},
		{"a = f(1, 2), b = 'x,y'", []string{"a = f(1, 2)", " b = 'x,y'"}, true},
		{"a = `c,d`, b = \"e\\\",f\"", []string{"a = `c,d`", " b = \"e\\\",f\""}, true},
		{"a = 1 /* , */, b = 2 -- ,\n, c", []string{"a = 1 /* , */", " b = 2 -- ,\n", " c"}, true},
		{"a = 'x, b", []string{"a = 'x, b"}, false},
		{"a, /* b", []string{"a", " /* b"}, false},
	} {
		got, ok := SplitTopLevel(c.in, ',')
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitTopLevel(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
