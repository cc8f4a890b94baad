package bench

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestNoisePlan(t *testing.T) {
	for _, c := range []struct {
		name       string
		solo       float64
		jobs, rate int
		cap        int
	}{
		{"none", 4000, 0, 0, 0},
		// A quarter of 4000 total IOPS is 1000: 500 reads + 500 writes.
		{"25%", 4000, 1, 500, 1000},
		{"25%", 4699, 1, 587, 1174},
		{"25%", 3, 1, 1, 2}, // never a zero cap (fio would ignore it)
		{"x1", 4000, 1, 0, 0},
		{"x2", 4000, 2, 0, 0},
		{"x4", 4000, 4, 0, 0},
	} {
		n, err := NoisePlan(c.name, c.solo)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n.Jobs != c.jobs || n.RateIOPS != c.rate || n.TotalIOPSCap() != c.cap {
			t.Errorf("NoisePlan(%q, %v) = %+v (cap %d), want jobs %d rate %d cap %d", c.name, c.solo, n, n.TotalIOPSCap(), c.jobs, c.rate, c.cap)
		}
	}
	for _, bad := range []string{"x0", "50%", "loud", "x"} {
		if _, err := NoisePlan(bad, 1000); err == nil {
			t.Errorf("NoisePlan(%q) accepted", bad)
		}
	}
	if _, err := NoisePlan("25%", 0); err == nil {
		t.Error("25% without a measurement accepted")
	}
}

func TestFioArgs(t *testing.T) {
	f := &fioNoise{file: "/tmp/x/noise.dat", size: "1G", ioengine: "libaio"}
	args := strings.Join(f.fioArgs("noise", 1, 500, 0), " ")
	for _, want := range []string{"--rw=randrw", "--rwmixread=50", "--direct=1", "--bs=4k", "--ioengine=libaio", "--numjobs=1", "--rate_iops=500,500", "--filename=/tmp/x/noise.dat"} {
		if !strings.Contains(args, want) {
			t.Errorf("fio args %q lack %q", args, want)
		}
	}
	calib := strings.Join(f.fioArgs("calibrate", 1, 0, 5*time.Second), " ")
	if !strings.Contains(calib, "--runtime=5") || !strings.Contains(calib, "--output-format=json") || strings.Contains(calib, "rate_iops") {
		t.Errorf("calibration args %q", calib)
	}
}

// testdata/fio-solo.json is real fio 3.33 JSON output of one job.
func TestParseFioIOPS(t *testing.T) {
	b, err := os.ReadFile("testdata/fio-solo.json")
	if err != nil {
		t.Fatal(err)
	}
	iops, err := parseFioIOPS(b)
	if err != nil {
		t.Fatal(err)
	}
	if iops < 4981 || iops > 4982 { // 2477.26 reads + 2504.25 writes
		t.Fatalf("iops = %v", iops)
	}
	// Warnings before the JSON are skipped.
	if v, err := parseFioIOPS(append([]byte("fio: warning\n"), b...)); err != nil || v != iops {
		t.Fatalf("with a warning: %v %v", v, err)
	}
	if _, err := parseFioIOPS([]byte(`{"jobs":[]}`)); err == nil {
		t.Fatal("no jobs accepted")
	}
}
