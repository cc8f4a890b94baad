package main

import (
	"flag"
	"io"
	"testing"
)

// TestLogBinFlag: --log-bin alone, with a name, and switched off.
func TestLogBinFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		on   bool
		base string
	}{
		{nil, false, ""},
		{[]string{"--log-bin"}, true, "binlog"},
		{[]string{"--log-bin=mysql-bin"}, true, "mysql-bin"},
		{[]string{"--log-bin=/var/log/strata/bin"}, true, "/var/log/strata/bin"},
		{[]string{"--log-bin=false"}, false, ""},
		{[]string{"--log-bin", "--log-bin=OFF"}, false, "binlog"},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		b := addBinlogFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if b.logBin.on != tc.on || (tc.on && b.logBin.base != tc.base) {
			t.Errorf("%v: on=%v base=%q, want %v %q", tc.args, b.logBin.on, b.logBin.base, tc.on, tc.base)
		}
	}
}
