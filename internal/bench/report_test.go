package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// flatRun is a recorded-shape sysbench output of n seconds at a constant
// rate and p95, with warm-up/ramp-down outliers the trimming must drop.
func flatRun(n int, tps, p95 float64, threads int) *SysbenchOutput {
	out := &SysbenchOutput{Version: "1.0.20", Percentile: 95, Complete: true}
	for i := 1; i <= n; i++ {
		s := Sample{T: float64(i), Threads: threads, TPS: tps, QPS: 20 * tps, LatPct: p95}
		if i == 1 || i == n {
			s.TPS, s.QPS, s.LatPct = tps/10, 2*tps, p95*10
		}
		out.Samples = append(out.Samples, s)
	}
	out.Summary = Summary{Transactions: int64(tps) * int64(n), TPS: tps}
	out.HistValues = []float64{p95 / 2, p95, 2 * p95}
	out.HistCounts = []int64{90, 9, 1}
	return out
}

func step(engine, script string, threads int, noise string, out *SysbenchOutput, cpu float64, wb int64) Step {
	return Step{Engine: engine, Script: script, Threads: threads, Noise: noise, Rep: 1, Output: out,
		Metrics: ComputeMetrics(out, threads, ProcCounters{CPUSeconds: cpu, WriteBytes: wb})}
}

func sampleResults(t *testing.T) *Results {
	t.Helper()
	res := &Results{
		Command: "strata bench sysbench --quick", Options: &Options{Workload: "sysbench", Quick: true, Tables: 1, TableSize: 10000, Time: 10 * time.Second, Reps: 1, CacheBytes: 128 << 20},
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Machine: Machine{CPUs: 2, Kernel: "6.1"},
		Tools: map[string]string{"sysbench": "sysbench 1.0.20"},
	}
	res.Finished = res.Started.Add(5 * time.Minute)
	for _, e := range AllEngines {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e), Version: "v-" + e, Settings: []Setting{{"cache", "128 MiB"}}})
	}
	res.Loads = []Load{
		{Engine: EngineStrata, Seconds: 1, DataDirBytes: 10 << 20, DataDirBytesAfter: 10 << 20, TableBytesAfter: 4 << 20},
		{Engine: EngineInnoDB, Seconds: 2, DataDirBytes: 25 << 20, DataDirBytesAfter: 25 << 20, TableBytesAfter: 12 << 20},
		{Engine: EngineMyRocks, Seconds: 3, DataDirBytes: 5 << 20, DataDirBytesAfter: 5 << 20, TableBytesAfter: 3 << 20},
	}
	// 10 s × 1000 TPS = 10000 transactions: 1 CPU second = 0.1 ms/txn.
	res.Steps = append(res.Steps,
		step(EngineStrata, "oltp_point_select", 4, "", flatRun(10, 1000, 2, 4), 1, 10000*1024),
		step(EngineInnoDB, "oltp_point_select", 4, "", flatRun(10, 500, 6, 4), 1, 5000*4096),
		step(EngineMyRocks, "oltp_point_select", 4, "", flatRun(10, 2000, 1, 4), 1, 20000*512),
	)
	// A real recorded run joins as strata's read_write step.
	rw := parseFile(t, "mariadb-innodb-oltp_read_write.txt")
	res.Steps = append(res.Steps, step(EngineStrata, "oltp_read_write", 2, "", rw, 3.17, 1585*2048))
	failed := Step{Engine: EngineInnoDB, Script: "oltp_read_write", Threads: 2, Rep: 1, Error: "sysbench: exit status 1: FATAL: boom"}
	res.Steps = append(res.Steps, failed)
	return res
}

func TestWriteReportSysbench(t *testing.T) {
	res := sampleResults(t)
	dir := t.TempDir()
	if err := WriteReport(dir, res); err != nil {
		t.Fatal(err)
	}
	md := readString(t, filepath.Join(dir, "summary.md"))
	for _, want := range []string{
		// Throughput: InnoDB half strata's TPS, MyRocks twice.
		"| oltp_point_select | 4 | 1000 | 500.0 | 2.00× slower | 2000 | 2.00× faster |",
		// p95: InnoDB 6 ms vs 2 ms, MyRocks 1 ms.
		"| oltp_point_select | 4 | 2.000 | 6.000 | 3.00× slower | 1.000 | 2.00× faster |",
		// CPU per transaction: 0.1 ms vs 0.2 ms vs 0.05 ms.
		"| oltp_point_select | 4 | 0.100 | 0.200 | 2.00× more | 0.050 | 2.00× less |",
		// Bytes written: 1 KiB vs 4 KiB vs 0.5 KiB.
		"| oltp_point_select | 4 | 1.000 | 4.000 | 4.00× more | 0.500 | 2.00× less |",
		// The recorded run's trimmed TPS (4 samples: nothing trimmed).
		"| oltp_read_write | 2 | 395.7 | — (1 failed) | n/a | — | n/a |",
		// Sizes.
		"| MariaDB InnoDB | 2.000 | 25.0 MiB | 0 B | 25.0 MiB | 12.0 MiB | 2.50× more | 3.00× more |",
		"| MariaDB MyRocks | 3.000 | 5.0 MiB | 0 B | 5.0 MiB | 3.0 MiB | 2.00× less | 1.33× less |",
		"**Quick run**", "Command: `strata bench sysbench --quick`",
		"FATAL: boom", "![p95 latency at 4 threads",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	html := readString(t, filepath.Join(dir, "report.html"))
	if n := strings.Count(html, "<svg"); n != 2+2+2 { // latency bars at 2 thread counts, 2 ratio charts, 2 scripts
		t.Errorf("report.html has %d charts, want 6", n)
	}
	for _, want := range []string{"<td class=\"num worse\">2.00× slower</td>", "<td class=\"num better\">2.00× faster</td>", "<code>strata bench sysbench --quick</code>"} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(html, "<script") || strings.Contains(html, "src=\"http") {
		t.Error("report.html is not self-contained")
	}
	for _, f := range []string{"charts/latency-p95-t4.svg", "charts/ratio-tps-innodb.svg", "charts/tps-point_select.svg", "steps.csv", "samples.csv", "aggregates.csv", "loads.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	var back Results
	if err := json.Unmarshal([]byte(readString(t, filepath.Join(dir, "results.json"))), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Steps) != len(res.Steps) || len(back.Steps[0].Output.Samples) != 10 || len(back.Aggs) != 5 {
		t.Errorf("results.json round trip: %d steps, %d aggregates", len(back.Steps), len(back.Aggs))
	}
	samples := readString(t, filepath.Join(dir, "samples.csv"))
	if n := strings.Count(samples, "\n"); n != 1+3*10+4 {
		t.Errorf("samples.csv has %d lines", n)
	}
}

func TestWriteReportSeedWithReps(t *testing.T) {
	res := &Results{Command: "strata bench seed", Options: &Options{Workload: "seed", Tables: 1, TableSize: 1000, Time: 10 * time.Second, Reps: 3, CacheBytes: 64 << 20},
		SoloIOPS: 4000, Started: time.Now()}
	for _, name := range []string{"none", "25%"} {
		n, _ := NoisePlan(name, res.SoloIOPS)
		res.Noise = append(res.Noise, n)
	}
	for _, e := range []string{EngineStrata, EngineInnoDB} {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
		for _, noise := range []string{"none", "25%"} {
			for rep, p95 := range []float64{4, 2, 3} { // median 3, min 2, max 4
				if e == EngineInnoDB {
					p95 *= 2
				}
				if noise == "25%" {
					p95 *= 10
				}
				s := step(e, "oltp_update_index", 2, noise, flatRun(10, 100, p95, 2), 0.1, 1000)
				s.Rep = rep + 1
				res.Steps = append(res.Steps, s)
			}
		}
	}
	dir := t.TempDir()
	if err := WriteReport(dir, res); err != nil {
		t.Fatal(err)
	}
	md := readString(t, filepath.Join(dir, "summary.md"))
	for _, want := range []string{
		"| oltp_update_index | none | 2 | 3.000 (2.000–4.000) | 6.000 (4.000–8.000) | 2.00× slower |",
		"| oltp_update_index | 25% | 2 | 30.00 (20.00–40.00) | 60.00 (40.00–80.00) | 2.00× slower |",
		"| 25% | 1 | 1000 (500 + 500) |",
		"One unthrottled job alone reached 4000 IOPS",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	for _, f := range []string{"charts/latency-p95-update_index.svg", "charts/ratio-p95-update_index.svg", "charts/tps-update_index-noise_25pct.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
