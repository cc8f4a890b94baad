package stress

import (
	"bytes"
	"strings"
	"testing"
)

func TestMainUsage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"--help"}, 0, "Usage: strata stress", ""},
		{[]string{"--bogus"}, 2, "", "flag provided but not defined"},
		{[]string{"--interval", "5s-1s"}, 2, "", "want 0 < min ≤ max"},
		{[]string{"--kills", "0"}, 2, "", "--kills and --loaders must be ≥ 1"},
		{[]string{"extra"}, 2, "", `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		code := Main(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
			t.Errorf("Main(%q) = %d\nstdout: %s\nstderr: %s", tc.args, code, out.String(), errb.String())
		}
	}
}
