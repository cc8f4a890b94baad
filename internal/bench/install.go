package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// installer installs missing Debian packages with apt-get, telling the
// user what it does; it runs `apt-get update` at most once, and only when a
// plain install fails.
type installer struct {
	log     io.Writer
	mu      sync.Mutex
	updated bool
}

// ensure installs pkg unless have() already reports the tool present.
func (in *installer) ensure(pkg, what string, have func() bool) error {
	if have() {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if have() {
		return nil
	}
	fmt.Fprintf(in.log, "strata bench: %s is missing; installing Debian package %s (apt-get install -y %s)\n", what, pkg, pkg)
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s is missing and installing %s needs root: run `sudo apt-get install -y %s` and retry", what, pkg, pkg)
	}
	err := in.aptGet("install", "-y", "--no-install-recommends", pkg)
	if err != nil && !in.updated {
		fmt.Fprintf(in.log, "strata bench: install failed; running apt-get update and retrying\n")
		in.updated = true
		if uerr := in.aptGet("update"); uerr != nil {
			return fmt.Errorf("apt-get update: %w", uerr)
		}
		err = in.aptGet("install", "-y", "--no-install-recommends", pkg)
	}
	if err != nil {
		return fmt.Errorf("install %s: %w", pkg, err)
	}
	if !have() {
		return fmt.Errorf("installed %s but %s is still missing", pkg, what)
	}
	return nil
}

func (in *installer) aptGet(args ...string) error {
	cmd := exec.Command("apt-get", args...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		tail := out.String()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return fmt.Errorf("apt-get %s: %w\n%s", strings.Join(args, " "), err, tail)
	}
	return nil
}

// lookPath finds a program in PATH or the sbin directories Debian uses for
// daemons (not always in a user's PATH).
func lookPath(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	for _, d := range []string{"/usr/sbin", "/usr/local/sbin", "/sbin"} {
		p := d + "/" + name
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, true
		}
	}
	return "", false
}

// rocksdbPlugin returns the path of ha_rocksdb.so from dpkg's file list of
// mariadb-plugin-rocksdb, or of the usual plugin directories.
func rocksdbPlugin() (string, bool) {
	if out, err := exec.Command("dpkg", "-L", "mariadb-plugin-rocksdb").Output(); err == nil {
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasSuffix(l, "/ha_rocksdb.so") {
				if _, err := os.Stat(l); err == nil {
					return l, true
				}
			}
		}
	}
	for _, p := range []string{"/usr/lib/mysql/plugin/ha_rocksdb.so", "/usr/lib/x86_64-linux-gnu/mariadb19/plugin/ha_rocksdb.so"} {
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// toolVersion returns the first line of `name args...`, or "unknown".
func toolVersion(name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return "unknown"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}
