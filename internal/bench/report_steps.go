package bench

import (
	"fmt"
	"strconv"
)

// This file renders the report sections of the steps that follow the grid
// of a sysbench run: the connections step and the write-amplification step.

// connsBlocks is the "Many connections" section: each engine's
// oltp_read_only at --conns connections against its own best QPS over the
// grid's thread counts.
func connsBlocks(r *Results) []block {
	t := &table{Header: []string{"engine", "connections", "QPS", "TPS", "p95 (ms)", "p99 (ms)", "own peak QPS (threads)", "÷ own peak", "failed"}}
	for _, e := range r.engineList() {
		a := r.kindAgg(e, KindConns)
		if a == nil {
			continue
		}
		qps, ok := aggSpread(a, "qps")
		peak, at := r.peak(e, connsScript)
		ratio, peakText := "n/a", notMeasured
		if peak > 0 {
			peakText = fmt.Sprintf("%s (%d)", fmtNum(peak), at)
			if ok {
				ratio = fmt.Sprintf("%.2f×", qps.Median/peak)
			}
		}
		failed := ""
		if a.Failed > 0 {
			failed = fmt.Sprintf("%d of %d", a.Failed, a.Reps)
		}
		t.Rows = append(t.Rows, []string{EngineLabel(e), strconv.Itoa(a.Threads), fmtSpread(a.QPS, 1), fmtSpread(a.TPS, 1),
			fmtSpread(a.LatP95, 1), fmtSpread(a.LatP99, 1), peakText, ratio, failed})
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return []block{{Heading: "Many connections", Level: 2, Text: "oltp_read_only with one sysbench thread (one connection) per client, after the grid. “÷ own peak” divides the QPS by the engine's own best oltp_read_only QPS over the grid's thread counts: near 1 means throughput holds up as connections grow; far below 1 means it collapses.", Table: t}}
}

// writeAmpBlocks is the "Write amplification" section: oltp_update_index
// after a restart with a small cache, with the data size against the cache.
func writeAmpBlocks(r *Results) []block {
	engines := r.engineList()
	if len(engines) == 0 {
		return nil
	}
	ref := engines[0]
	refWB, refOK := aggSpread(r.kindAgg(ref, KindWriteAmp), "wb")
	t := &table{Header: []string{"engine", "cache (as run)", "table files before the step", "data ÷ cache", "rows before the step", "TPS", "bytes written per txn", "vs " + EngineLabel(ref), "CPU per txn (ms)", "error"}}
	for _, e := range engines {
		a := r.kindAgg(e, KindWriteAmp)
		st, sized := r.writeAmpStep(e)
		if a == nil && !sized {
			continue
		}
		cache, data, times, rows := "—", "—", "—", "—"
		if sized && st.Rows > 0 {
			rows = fmtCount(int(st.Rows))
		}
		if sized {
			cache, data = fmtBytes(float64(st.CacheBytes)), fmtBytes(float64(st.TableBytes))
			x := st.DataPerCache()
			times = fmt.Sprintf("%.1f×", x)
			if x < minDataPerCache {
				times += fmt.Sprintf(" (below %d×)", minDataPerCache)
			}
		}
		row := []string{EngineLabel(e), cache, data, times, rows}
		if a == nil {
			row = append(row, "—", "—", "", "—", r.firstError(e, KindWriteAmp))
			t.Rows = append(t.Rows, row)
			continue
		}
		vs := ""
		if wb, ok := aggSpread(a, "wb"); ok && refOK && e != ref {
			vs = Ratio(refWB.Median, wb.Median, false, "more", "less")
		}
		row = append(row, fmtSpread(a.TPS, 1), fmtSpread(a.WriteBytesPerTxn, 1.0/1024)+" KiB", vs, fmtSpread(a.CPUPerTxn, 1000), a.FirstError)
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return []block{{Heading: "Write amplification (data larger than the cache)", Level: 2,
		Text:  fmt.Sprintf("After the grid and the connections step each engine was stopped and started again on the same data directory with a small cache budget (strata: --memory 4× the budget, whose block cache is at least 16 MiB, memtables on top; InnoDB: buffer pool; MyRocks: block cache — the cache column is what the engine reports or, for strata, what its sizing rule gives), then ran oltp_update_index at %d threads with keys drawn uniformly over the whole tables (sysbench --rand-type=uniform: the default distribution sends 75 %% of the accesses to 1 %% of the rows, a hot set that fits any cache and that oltp_delete removed first, turning updates into no-ops). Bytes written per transaction are the server's /proc/PID/io write_bytes over the step ÷ transactions; the data (table files, measured right before the step, after oltp_insert and oltp_delete changed the tables) should be at least %d× the cache.", writeAmpThreads, minDataPerCache),
		Table: t}}
}

// firstError is the first error of engine's steps of kind.
func (r *Results) firstError(engine, kind string) string {
	for _, s := range r.Steps {
		if s.Engine == engine && s.Kind == kind && s.Error != "" {
			return clipError(s.Error)
		}
	}
	return ""
}
