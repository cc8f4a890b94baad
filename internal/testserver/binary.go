package testserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BinaryEnv names the environment variable holding a prebuilt strata binary;
// when set, Binary returns it instead of building.
const BinaryEnv = "STRATA_BINARY"

var build struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of a strata binary: $STRATA_BINARY if set,
// otherwise ./cmd/strata of the enclosing module built once per test process
// (`go build -o <tmp>/strata ./cmd/strata`, the module root found by walking
// up from the working directory to go.mod). It fails the test on error.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(BinaryEnv); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatalf("testserver: %s=%q: %v", BinaryEnv, p, err)
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() {
			t.Fatalf("testserver: %s=%q is not a file (err: %v)", BinaryEnv, p, err)
		}
		return abs
	}
	build.once.Do(func() { build.path, build.err = buildBinary() })
	if build.err != nil {
		t.Fatalf("testserver: %v", build.err)
	}
	return build.path
}

// buildBinary compiles ./cmd/strata into a fresh temporary directory.
func buildBinary() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("build strata: %w", err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return "", fmt.Errorf("build strata: %w", err)
	}
	sweepStaleBinaries()
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", binaryDirPrefix, os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("build strata: %w", err)
	}
	out := filepath.Join(dir, "strata")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/strata")
	cmd.Dir = root
	if output, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/strata in %s: %w\n%s", root, err, output)
	}
	return out, nil
}

// binaryDirPrefix starts the name of the directory a test process builds
// its binary in, followed by the process id.
const binaryDirPrefix = "strata-testserver-"

// sweepStaleBinaries removes the binary directories of test processes that
// have exited (a test binary cannot remove its own when it ends: the
// testing package has no hook for it, and a killed one never could): those
// whose process id no longer runs, and those without one (an older naming)
// older than a day. A directory of ~100 MB per `go test` run adds up.
func sweepStaleBinaries() {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, binaryDirPrefix) {
			continue
		}
		rest := strings.TrimPrefix(name, binaryDirPrefix)
		if i := strings.IndexByte(rest, '-'); i > 0 {
			if pid, err := strconv.Atoi(rest[:i]); err == nil {
				if pid != os.Getpid() && !processRuns(pid) {
					_ = os.RemoveAll(filepath.Join(tmp, name))
				}
				continue
			}
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			_ = os.RemoveAll(filepath.Join(tmp, name))
		}
	}
}

// processRuns reports whether a process with id pid exists.
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// moduleRoot walks up from dir to the first directory holding go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("find module root: %w", err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		d = parent
	}
}
