package bench

import (
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) *SysbenchOutput {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := ParseSysbench(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// testdata/*.txt are real outputs of sysbench 1.0.20 (Debian) run with
// --report-interval=1 --percentile=95 --histogram=on.
func TestParseSysbenchReadWrite(t *testing.T) {
	out := parseFile(t, "mariadb-innodb-oltp_read_write.txt")
	if !out.Complete || out.Version != "1.0.20" || out.Percentile != 95 {
		t.Fatalf("complete=%v version=%q pct=%d", out.Complete, out.Version, out.Percentile)
	}
	if len(out.Samples) != 4 {
		t.Fatalf("%d samples, want 4", len(out.Samples))
	}
	want := Sample{T: 1, Threads: 2, TPS: 385.57, QPS: 7755.42, Reads: 5437.98, Writes: 1543.29, Other: 774.14, LatPct: 8.90, ErrPS: 1, ReconnPS: 0}
	if out.Samples[0] != want {
		t.Fatalf("sample 0 = %+v\nwant %+v", out.Samples[0], want)
	}
	s := out.Summary
	if s.Reads != 22204 || s.Writes != 6341 || s.Other != 3171 || s.Queries != 31716 {
		t.Errorf("queries: %+v", s)
	}
	if s.Transactions != 1585 || s.TPS != 395.47 || s.QPS != 7913.39 || s.IgnoredErrors != 1 || s.Reconnects != 0 {
		t.Errorf("transactions: %+v", s)
	}
	if s.TotalTime != 4.0074 || s.Events != 1585 {
		t.Errorf("general: %+v", s)
	}
	if s.LatMin != 1.59 || s.LatAvg != 5.05 || s.LatMax != 37.34 || s.LatPct != 9.39 || s.LatSum != 8001.82 {
		t.Errorf("latency: %+v", s)
	}
	var n int64
	for _, c := range out.HistCounts {
		n += c
	}
	if n != s.Events || out.HistValues[0] != 1.579 || out.HistValues[len(out.HistValues)-1] != 37.565 {
		t.Errorf("histogram: %d events (want %d), first %v last %v", n, s.Events, out.HistValues[0], out.HistValues[len(out.HistValues)-1])
	}
	// sysbench's own 95th percentile agrees with ours from its histogram
	// (sysbench reports the bucket's value).
	if p := HistogramPercentile(out.HistValues, out.HistCounts, 95); p < 9.2 || p > 9.6 {
		t.Errorf("histogram p95 = %v, sysbench says %v", p, s.LatPct)
	}
}

func TestParseSysbenchPointSelectStrata(t *testing.T) {
	out := parseFile(t, "strata-oltp_point_select.txt")
	if !out.Complete || len(out.Samples) < 4 || out.Summary.Transactions == 0 {
		t.Fatalf("complete=%v samples=%d txns=%d", out.Complete, len(out.Samples), out.Summary.Transactions)
	}
	for _, s := range out.Samples {
		if s.Threads != 4 || s.TPS <= 0 || s.TPS != s.QPS || s.Writes != 0 {
			t.Fatalf("point-select sample %+v", s)
		}
	}
}

func TestParseSysbenchFatalAndTruncated(t *testing.T) {
	in := `sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Threads started!

[ 1s ] thds: 4 tps: 10.00 qps: 200.00 (r/w/o: 140.00/40.00/20.00) lat (ms,99%): 12.30 err/s: 0.00 reconn/s: 0.00
FATAL: mysql_drv_query() returned error 1062 (Duplicate entry '5' for key 'PRIMARY') for query 'INSERT ...'
FATAL: ` + "`thread_run' function failed: ./oltp_common.lua:488: SQL error, errno = 1062, state = '23000'"
	out, err := ParseSysbench(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if out.Complete || len(out.Samples) != 1 || len(out.Fatal) != 2 || out.Percentile != 99 || out.Samples[0].LatPct != 12.3 {
		t.Fatalf("%+v", out)
	}
	m := ComputeMetrics(out, 4, ProcCounters{CPUSeconds: 1})
	if m.Errors != 2 || m.Transactions != 0 || m.CPUPerTxn != 0 {
		t.Fatalf("metrics of a failed run: %+v", m)
	}
}

func TestComputeMetrics(t *testing.T) {
	out := &SysbenchOutput{Complete: true, Percentile: 95, Summary: Summary{Transactions: 1000, IgnoredErrors: 3, Reconnects: 1}}
	// Ten seconds: the first and last are warm-up/ramp-down outliers.
	tps := []float64{1, 100, 100, 100, 100, 200, 200, 200, 200, 1}
	for i, v := range tps {
		out.Samples = append(out.Samples, Sample{T: float64(i + 1), TPS: v, QPS: 10 * v, LatPct: 1000 / v})
	}
	out.HistValues = []float64{1, 2, 50}
	out.HistCounts = []int64{980, 15, 5}
	m := ComputeMetrics(out, 4, ProcCounters{CPUSeconds: 2, WriteBytes: 4096000})
	if !near(m.TPS, 150) || !near(m.QPS, 1500) {
		t.Errorf("TPS %v QPS %v, want 150 1500 (trimmed)", m.TPS, m.QPS)
	}
	if !near(m.LatP95, 7.5) { // mean of 10,10,10,10,5,5,5,5
		t.Errorf("LatP95 %v, want 7.5", m.LatP95)
	}
	if !near(m.LatMean, 4*1000/150.0) {
		t.Errorf("LatMean %v", m.LatMean)
	}
	if m.LatP99 != 2 {
		t.Errorf("LatP99 %v, want 2 (from the histogram)", m.LatP99)
	}
	if !near(m.CPUPerTxn, 0.002) || !near(m.WriteBytesPerTxn, 4096) {
		t.Errorf("per txn: cpu %v bytes %v", m.CPUPerTxn, m.WriteBytesPerTxn)
	}
	if m.Samples != 10 || m.TrimmedSamples != 8 || m.IgnoredErrors != 3 || m.Reconnects != 1 {
		t.Errorf("counts: %+v", m)
	}
}
