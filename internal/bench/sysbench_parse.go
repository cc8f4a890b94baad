package bench

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Sample is one of sysbench's per-second intermediate reports
// (--report-interval=1).
type Sample struct {
	T        float64 `json:"t"`         // seconds since the run started
	Threads  int     `json:"threads"`   // client threads running
	TPS      float64 `json:"tps"`       // transactions per second
	QPS      float64 `json:"qps"`       // queries per second
	Reads    float64 `json:"reads"`     // read queries per second
	Writes   float64 `json:"writes"`    // write queries per second
	Other    float64 `json:"other"`     // other queries (BEGIN/COMMIT) per second
	LatPct   float64 `json:"lat_pct"`   // latency percentile of the second, ms
	ErrPS    float64 `json:"err_ps"`    // ignored errors per second
	ReconnPS float64 `json:"reconn_ps"` // reconnects per second
}

// Summary is sysbench's final report of a run.
type Summary struct {
	Reads         int64   `json:"reads"`
	Writes        int64   `json:"writes"`
	Other         int64   `json:"other"`
	Queries       int64   `json:"queries"`
	Transactions  int64   `json:"transactions"`
	TPS           float64 `json:"tps"`
	QPS           float64 `json:"qps"`
	IgnoredErrors int64   `json:"ignored_errors"`
	Reconnects    int64   `json:"reconnects"`
	TotalTime     float64 `json:"total_time_s"`
	Events        int64   `json:"events"`
	LatMin        float64 `json:"lat_min_ms"`
	LatAvg        float64 `json:"lat_avg_ms"`
	LatMax        float64 `json:"lat_max_ms"`
	LatPct        float64 `json:"lat_pct_ms"`
	LatSum        float64 `json:"lat_sum_ms"`
}

// SysbenchOutput is everything parsed from one `sysbench ... run`.
type SysbenchOutput struct {
	Version    string    `json:"version"`
	Percentile int       `json:"percentile"` // of Sample.LatPct and Summary.LatPct
	Samples    []Sample  `json:"samples"`
	Summary    Summary   `json:"summary"`
	HistValues []float64 `json:"hist_values_ms,omitempty"` // --histogram buckets
	HistCounts []int64   `json:"hist_counts,omitempty"`
	Fatal      []string  `json:"fatal,omitempty"` // FATAL/ALERT lines
	Complete   bool      `json:"complete"`        // the final summary was seen
}

// sampleRE matches an intermediate report of sysbench 1.0.x, e.g.
// "[ 1s ] thds: 2 tps: 385.57 qps: 7755.42 (r/w/o: 5437.98/1543.29/774.14)
// lat (ms,95%): 8.90 err/s: 1.00 reconn/s: 0.00".
var sampleRE = regexp.MustCompile(`^\[\s*([0-9.]+)s\s*\]\s+thds:\s*(\d+)\s+tps:\s*([0-9.]+)\s+qps:\s*([0-9.]+)\s+\(r/w/o:\s*([0-9.]+)/([0-9.]+)/([0-9.]+)\)\s+lat\s+\(ms,(\d+)%\):\s*([0-9.]+)\s+err/s:?\s*([0-9.]+)\s+reconn/s:\s*([0-9.]+)`)

// histRE matches a histogram row: "       1.579 |**     2".
var histRE = regexp.MustCompile(`^\s*([0-9.]+)\s+\|\**\s+(\d+)\s*$`)

// ParseSysbench parses the standard output of sysbench 1.0.x `run` with
// --report-interval, optionally --histogram. It fails only on malformed
// numbers; a run cut short yields Complete == false.
func ParseSysbench(r io.Reader) (*SysbenchOutput, error) {
	out := &SysbenchOutput{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	section := ""
	for sc.Scan() {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "sysbench ") && out.Version == "":
			if f := strings.Fields(trim); len(f) > 1 {
				out.Version = f[1]
			}
			continue
		case strings.HasPrefix(trim, "FATAL:") || strings.HasPrefix(trim, "ALERT:"):
			out.Fatal = append(out.Fatal, trim)
			continue
		case strings.HasPrefix(trim, "["):
			m := sampleRE.FindStringSubmatch(trim)
			if m == nil {
				continue
			}
			s, err := sampleFrom(m)
			if err != nil {
				return nil, fmt.Errorf("sysbench sample %q: %w", trim, err)
			}
			out.Percentile = atoiOr(m[8], out.Percentile)
			out.Samples = append(out.Samples, s)
			continue
		case strings.HasPrefix(trim, "Latency histogram"):
			section = "hist"
			continue
		case trim == "SQL statistics:":
			section = "sql"
			out.Complete = true
			continue
		case trim == "General statistics:":
			section = "general"
			continue
		case strings.HasPrefix(trim, "Latency (ms):"):
			section = "latency"
			continue
		case strings.HasPrefix(trim, "Threads fairness:"):
			section = "fairness"
			continue
		}
		if section == "hist" {
			if m := histRE.FindStringSubmatch(line); m != nil {
				v, err1 := strconv.ParseFloat(m[1], 64)
				c, err2 := strconv.ParseInt(m[2], 10, 64)
				if err1 != nil || err2 != nil {
					return nil, fmt.Errorf("sysbench histogram row %q: bad number", line)
				}
				out.HistValues = append(out.HistValues, v)
				out.HistCounts = append(out.HistCounts, c)
			}
			continue
		}
		key, rest, ok := strings.Cut(trim, ":")
		if !ok {
			continue
		}
		if err := summaryField(&out.Summary, &out.Percentile, section, key, strings.TrimSpace(rest)); err != nil {
			return nil, fmt.Errorf("sysbench summary line %q: %w", trim, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read sysbench output: %w", err)
	}
	return out, nil
}

func sampleFrom(m []string) (Sample, error) {
	var f [11]float64
	for i := 1; i <= 11; i++ {
		v, err := strconv.ParseFloat(m[i], 64)
		if err != nil {
			return Sample{}, err
		}
		f[i-1] = v
	}
	return Sample{T: f[0], Threads: int(f[1]), TPS: f[2], QPS: f[3], Reads: f[4], Writes: f[5],
		Other: f[6], LatPct: f[8], ErrPS: f[9], ReconnPS: f[10]}, nil
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// summaryField stores one "key: value" line of the final report.
func summaryField(s *Summary, pct *int, section, key, val string) error {
	first := val
	if f := strings.Fields(val); len(f) > 0 {
		first = f[0]
	}
	perSec := func() (float64, error) { // "1585   (395.47 per sec.)"
		_, after, ok := strings.Cut(val, "(")
		if !ok {
			return 0, nil
		}
		f := strings.Fields(after)
		if len(f) == 0 {
			return 0, nil
		}
		return strconv.ParseFloat(f[0], 64)
	}
	i64 := func(dst *int64) error {
		n, err := strconv.ParseInt(first, 10, 64)
		*dst = n
		return err
	}
	f64 := func(dst *float64) error {
		n, err := strconv.ParseFloat(strings.TrimSuffix(first, "s"), 64)
		*dst = n
		return err
	}
	switch section {
	case "sql":
		switch key {
		case "read":
			return i64(&s.Reads)
		case "write":
			return i64(&s.Writes)
		case "other":
			return i64(&s.Other)
		case "transactions":
			if err := i64(&s.Transactions); err != nil {
				return err
			}
			v, err := perSec()
			s.TPS = v
			return err
		case "queries":
			if err := i64(&s.Queries); err != nil {
				return err
			}
			v, err := perSec()
			s.QPS = v
			return err
		case "ignored errors":
			return i64(&s.IgnoredErrors)
		case "reconnects":
			return i64(&s.Reconnects)
		}
	case "general":
		switch key {
		case "total time":
			return f64(&s.TotalTime)
		case "total number of events":
			return i64(&s.Events)
		}
	case "latency":
		switch {
		case key == "min":
			return f64(&s.LatMin)
		case key == "avg":
			return f64(&s.LatAvg)
		case key == "max":
			return f64(&s.LatMax)
		case key == "sum":
			return f64(&s.LatSum)
		case strings.HasSuffix(key, "percentile"): // "95th percentile"
			digits := strings.TrimRightFunc(strings.Fields(key)[0], func(r rune) bool { return r < '0' || r > '9' })
			*pct = atoiOr(digits, *pct)
			return f64(&s.LatPct)
		}
	}
	return nil
}
