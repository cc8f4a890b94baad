package bench

import (
	"math"
	"testing"
)

func TestComputeRedmineMetrics(t *testing.T) {
	rs := &RedmineStep{Requests: 120, DBSeconds: 0.5, AppCPUSeconds: 5, Failed: 1, FirstError: "HTTP 500"}
	// 10 successful operations given out of start order: latencies
	// 100..1000 ms by start; the first (100) and last (1000) are trimmed.
	for i := 9; i >= 0; i-- {
		rs.Ops = append(rs.Ops, OpSample{T: float64(i), Ms: float64(100 * (i + 1))})
	}
	rs.Ops = append(rs.Ops, OpSample{T: 3.5, Ms: 4500, Failed: true})
	m := ComputeRedmineMetrics(rs, 10, ProcCounters{CPUSeconds: 2, WriteBytes: 1000})
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("trimmed mean", m.LatMean, 550)           // mean of 200..900
	near("p95", m.LatP95, 200+0.95*7*100)          // interpolated over 200..900
	near("p99", m.LatP99, 100+0.99*9*100)          // all successful operations
	near("ops/s", m.TPS, 1)                        // 10 successful in 10 s
	near("requests/s", m.QPS, 12)                  //
	near("db ms per op", m.DBPerOp, 500.0/11)      // failed operation included
	near("db share", m.DBShare, 500.0/(5500+4500)) // of all operations' time
	near("cpu per op", m.CPUPerTxn, 0.2)           //
	near("bytes per op", m.WriteBytesPerTxn, 100)
	near("app cpu per op", m.AppCPUPerOp, 0.5) //
	if m.Transactions != 10 || m.Errors != 1 || m.Samples != 10 || m.TrimmedSamples != 8 {
		t.Errorf("counts %+v", m)
	}
	if z := ComputeRedmineMetrics(&RedmineStep{}, 10, ProcCounters{}); z.LatP95 != 0 || z.DBShare != 0 || z.TPS != 0 {
		t.Errorf("empty step %+v", z)
	}
}

func TestRedmineDataFor(t *testing.T) {
	if d := redmineDataFor(false, 4); d.Projects != 4 || d.Issues() != 4*d.IssuesPerProject {
		t.Errorf("default dataset %+v", d)
	}
	// Every client needs a project of its own.
	if d := redmineDataFor(true, 6); d.Projects != 6 {
		t.Errorf("6 clients got %d projects", d.Projects)
	}
}
