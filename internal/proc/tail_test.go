package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, []byte("first line\nsecond\nthird\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max  int64
		want string
	}{
		{1 << 10, "first line\nsecond\nthird\n"},
		{25, "first line\nsecond\nthird\n"}, // the whole file
		{14, "second\nthird\n"},             // cut at a line start
		{16, "second\nthird\n"},             // cut inside "first line"
		{4, "ird\n"},                        // cut inside the only line left
		{0, ""},
	} {
		if got := Tail(path, tc.max); got != tc.want {
			t.Errorf("Tail(%d) = %q, want %q", tc.max, got, tc.want)
		}
	}
	if got := Tail(filepath.Join(t.TempDir(), "nope"), 10); !strings.HasPrefix(got, "(cannot read log") {
		t.Errorf("Tail of a missing file = %q", got)
	}
}
