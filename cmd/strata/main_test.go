package main

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// TestHelp checks that every command prints its own usage to stdout and
// exits 0 for --help and -h, and prints usage to stderr with exit 2 for an
// unknown flag.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // a line only this command's usage has
	}{
		{[]string{"--help"}, "strata serve [flags]"},
		{[]string{"-h"}, "strata serve [flags]"},
		{[]string{"serve", "--help"}, "Usage: strata serve [flags]"},
		{[]string{"serve", "-h"}, "--datadir DIR"},
		{[]string{"version", "--help"}, "Usage: strata version"},
		{[]string{"version", "-h"}, "Usage: strata version"},
		{[]string{"stress", "--help"}, "Usage: strata stress [flags]"},
		{[]string{"backup", "--help"}, "Usage: strata backup --to DIR"},
		{[]string{"restore", "-h"}, "Usage: strata restore --from DIR"},
		{[]string{"stress", "-h"}, "--kills N"},
		{[]string{"bench", "--help"}, "strata bench sysbench [flags]"},
		{[]string{"bench", "sysbench", "--help"}, "--threads LIST"},
		{[]string{"bench", "seed", "-h"}, "--noise LIST"},
		{[]string{"bench", "report", "--help"}, "strata bench report RESULTS.json"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != 0 || !strings.Contains(out.String(), tc.want) || errb.Len() != 0 {
			t.Errorf("strata %s: exit %d, stdout lacks %q or stderr not empty\nstdout:\n%s\nstderr:\n%s",
				strings.Join(tc.args, " "), code, tc.want, out.String(), errb.String())
		}
	}
	for _, args := range [][]string{{"serve", "--nope"}, {"bench", "sysbench", "--nope"}, {"stress", "--nope"}, {"version", "x"}, {"nope"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "Usage") {
			t.Errorf("strata %s: exit %d (want 2), stdout %q, stderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"serve", "--help"}, &out, &errb); code == 0 && strings.Contains(out.String(), "strata stress") {
		t.Errorf("strata serve --help prints the top-level help:\n%s", out.String())
	}
}

// TestDataDirInUse starts a server and then a second one on the same data
// directory: the second must exit non-zero at once, saying that another
// strata process holds the directory and naming the directory, its lock
// file and the holder's pid.
func TestDataDirInUse(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, testserver.Binary(t), "serve", "--datadir", srv.DataDir, "--port", "0")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the second server did not exit: %s", out)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() == 0 {
		t.Fatalf("the second server: err %v, want a non-zero exit\n%s", err, out)
	}
	for _, want := range []string{
		"another strata process holds the data directory",
		"datadir=" + srv.DataDir,
		"lockfile=" + srv.DataDir + "/LOCK",
		"pid=" + strconv.Itoa(srv.PID()),
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "resource temporarily unavailable") {
		t.Errorf("output still shows the raw lock error:\n%s", out)
	}
}

// TestBulkMemory: an eighth of the memory budget, between 16 and 128 MiB.
func TestBulkMemory(t *testing.T) {
	for budget, want := range map[int64]int{512 << 20: 64 << 20, 64 << 20: 16 << 20, 8 << 30: 128 << 20} {
		if got := bulkMemory(budget); got != want {
			t.Errorf("bulkMemory(%d) = %d, want %d", budget, got, want)
		}
	}
	if got := bulkMemory(0); got < 16<<20 || got > 128<<20 {
		t.Errorf("bulkMemory(0) = %d", got)
	}
}
