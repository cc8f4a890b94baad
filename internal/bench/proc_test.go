package bench

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseProcStat(t *testing.T) {
	// A command name with spaces and parentheses; utime=1234 stime=766.
	stat := []byte("4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 766 0 0 20 0 12 0 100 1000 10 18446744073709551615")
	cpu, err := parseProcStatCPU(stat)
	if err != nil || cpu != 20 {
		t.Fatalf("cpu = %v, %v; want 20 s", cpu, err)
	}
	if _, err := parseProcStatCPU([]byte("garbage")); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestParseProcIO(t *testing.T) {
	io := []byte("rchar: 100\nwchar: 200\nsyscr: 1\nsyscw: 2\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n")
	r, w, err := parseProcIO(io)
	if err != nil || r != 4096 || w != 8192 {
		t.Fatalf("read %d write %d err %v", r, w, err)
	}
}

func TestReadProcCountersSelf(t *testing.T) {
	c, err := ReadProcCounters(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if c.CPUSeconds < 0 || c.WriteBytes < 0 {
		t.Fatalf("%+v", c)
	}
}

func TestDiskUsage(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sbtest"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i)
	}
	for _, name := range []string{"sbtest/sbtest1.ibd", "ib_logfile0"} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all, err := DiskUsage(dir, nil)
	if err != nil || all < 128<<10 {
		t.Fatalf("all = %d, %v", all, err)
	}
	tables, err := DiskUsage(dir, func(rel string) bool { return filepath.Ext(rel) == ".ibd" })
	if err != nil || tables < 64<<10 || tables >= all {
		t.Fatalf("tables = %d (all %d), %v", tables, all, err)
	}
}

func TestCgroupPath(t *testing.T) {
	v1 := "9:name=systemd:/\n7:blkio:/a\n4:memory:/process_api/abc\n2:cpu,cpuacct:/c\n0::/\n"
	if got := cgroupPath(v1, "memory"); got != "/process_api/abc" {
		t.Errorf("memory = %q", got)
	}
	if got := cgroupPath(v1, "cpuacct"); got != "/c" {
		t.Errorf("cpuacct = %q", got)
	}
	if got := cgroupPath("0::/user.slice/session-1.scope\n", ""); got != "/user.slice/session-1.scope" {
		t.Errorf("v2 = %q", got)
	}
}

func TestParseOptions(t *testing.T) {
	o, err := parseOptions("sysbench", []string{"--quick", "--engines", "myrocks,strata", "--scripts", "point_select,oltp_insert.lua", "--out", "x"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if o.Tables != 1 || o.TableSize != 10000 || o.Time.Seconds() != 8 || len(o.Threads) != 1 || o.Threads[0] != 4 {
		t.Errorf("quick defaults: %+v", o)
	}
	if len(o.Engines) != 2 || o.Engines[0] != "strata" || o.Engines[1] != "myrocks" {
		t.Errorf("engines %v (strata must come first)", o.Engines)
	}
	if len(o.Scripts) != 2 || o.Scripts[0] != "oltp_point_select" || o.Scripts[1] != "oltp_insert" {
		t.Errorf("scripts %v", o.Scripts)
	}
	if !filepath.IsAbs(o.Out) {
		t.Errorf("out %q not absolute", o.Out)
	}
	s, err := parseOptions("seed", []string{"--quick", "--mem-limit", "1G", "--hdd-iops", "80"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Threads) != 2 || len(s.Noise) != 2 || s.Noise[1] != "x1" || s.Limits.MemBytes != 1<<30 || s.Limits.IOPS != 80 || len(s.Scripts) != 2 {
		t.Errorf("seed quick: %+v", s)
	}
	full, err := parseOptions("seed", nil, os.Stderr)
	if err != nil || len(full.Threads) != 3 || len(full.Noise) != 5 || full.Time.Seconds() != 30 {
		t.Errorf("seed defaults: %+v %v", full, err)
	}
	for _, bad := range [][]string{{"--engines", "postgres"}, {"--threads", "0"}, {"--mem-limit", "lots"}} {
		if _, err := parseOptions("sysbench", bad, devNull(t)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, err := parseOptions("seed", []string{"--load", "redmine"}, devNull(t)); err == nil {
		t.Error("--load redmine accepted before it exists")
	}
}

func devNull(t *testing.T) *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1G": 1 << 30, "512M": 512 << 20, "2GiB": 2 << 30, "1024": 1024, "1.5k": 1536} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
