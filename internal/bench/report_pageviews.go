package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// The pageviews report: the issue-13 targets (strata ÷ each peer), the
// per-engine figures with ratios, and how each engine was loaded.

// pvRun returns engine's pageviews run, or nil.
func (r *Results) pvRun(engine string) *PageViewsRun {
	for i := range r.PageViewsRuns {
		if r.PageViewsRuns[i].Engine == engine {
			return &r.PageViewsRuns[i]
		}
	}
	return nil
}

// pvMetric is one figure of a pageviews run.
type pvMetric struct {
	name  string
	bytes bool // a size (else seconds)
	// get returns the figure and whether it was measured.
	get func(p *PageViewsRun) (float64, bool)
}

func pvSeconds(f func(p *PageViewsRun) float64) func(p *PageViewsRun) (float64, bool) {
	return func(p *PageViewsRun) (float64, bool) {
		v := f(p)
		return v, v > 0
	}
}

var (
	pvLoadMetric  = pvMetric{name: "LOAD DATA page_views (s)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.LoadSeconds })}
	pvIndexMetric = pvMetric{name: "ADD INDEX, all three (s)", get: pvSeconds((*PageViewsRun).IndexSeconds)}
	pvCountMetric = pvMetric{name: "COUNT(*) (s, median of 3)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.CountSeconds })}
	pvSizeMetric  = pvMetric{name: "table files after indexes", bytes: true, get: func(p *PageViewsRun) (float64, bool) {
		return float64(p.SizeAfterIndexes), p.SizeAfterIndexes > 0
	}}
	pvColdMetric = pvMetric{name: "join query cold (s)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.ColdSeconds })}
)

// pvMetrics are the rows of the results table.
func pvMetrics() []pvMetric {
	ms := []pvMetric{
		{name: "rows (COUNT(*))", get: func(p *PageViewsRun) (float64, bool) { return float64(p.Count), p.Count > 0 }},
		pvLoadMetric,
		{name: "LOAD DATA server CPU (s)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.LoadCPUSeconds })},
		{name: "LOAD DATA bytes written", bytes: true, get: func(p *PageViewsRun) (float64, bool) { return float64(p.LoadWriteBytes), p.LoadWriteBytes > 0 }},
		{name: "table files after load", bytes: true, get: func(p *PageViewsRun) (float64, bool) { return float64(p.SizeAfterLoad), p.SizeAfterLoad > 0 }},
	}
	for i, ix := range pvIndexes {
		ms = append(ms, pvMetric{name: fmt.Sprintf("ADD INDEX %s (%s) (s)", ix.Name, ix.Columns), get: func(p *PageViewsRun) (float64, bool) {
			if i >= len(p.Indexes) || p.Indexes[i].Error != "" {
				return 0, false
			}
			return p.Indexes[i].Seconds, true
		}})
	}
	ms = append(ms, pvIndexMetric, pvSizeMetric,
		pvMetric{name: "data directory after indexes", bytes: true, get: func(p *PageViewsRun) (float64, bool) { return float64(p.DataDirAfterIdx), p.DataDirAfterIdx > 0 }},
		pvMetric{name: "COUNT(*) first run (s)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.CountFirst })},
		pvCountMetric, pvColdMetric,
		pvMetric{name: "join query warm (s, median)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.WarmSeconds })},
		pvMetric{name: "join query with pv_id DESC tie-break, warm (s, median)", get: pvSeconds(func(p *PageViewsRun) float64 { return p.TieSeconds })},
	)
	return ms
}

// text renders a figure of m.
func (m pvMetric) text(v float64) string {
	switch {
	case m.bytes:
		return fmtBytes(v)
	case strings.HasPrefix(m.name, "rows"):
		return strconv.FormatInt(int64(v), 10)
	}
	return fmtNum(v)
}

// pvGoal is one of issue 13's targets for the pageviews workflow.
type pvGoal struct {
	m       pvMetric
	innodb  bound
	myrocks bound
	// absolute: strata's own figure must be ≤ this (the ratios are shown
	// for information).
	absolute float64
}

var pvGoals = []pvGoal{
	{m: pvLoadMetric, innodb: atMost(0.33), myrocks: atMost(0.33)},
	{m: pvIndexMetric, innodb: atMost(0.33), myrocks: atMost(1.0)},
	{m: pvCountMetric, innodb: atMost(1.0)},
	{m: pvSizeMetric, innodb: atMost(0.5)},
	{m: pvColdMetric, absolute: 1.0},
}

// PageViewsGoals computes the Goals rows of a pageviews run.
func (r *Results) PageViewsGoals() []GoalRow {
	var rows []GoalRow
	for _, g := range pvGoals {
		row := GoalRow{Goal: g.m.name, Strata: notMeasured}
		sv, sok := 0.0, false
		if s := r.pvRun(EngineStrata); s != nil {
			if sv, sok = g.m.get(s); sok {
				row.Strata = g.m.text(sv)
			}
		}
		for _, peer := range goalPeers {
			c := goalCell{Figure: notMeasured, Ratio: "—"}
			pv, pok := 0.0, false
			if p := r.pvRun(peer); p != nil {
				if pv, pok = g.m.get(p); pok {
					c.Figure = g.m.text(pv)
				}
			}
			if sok && pok && pv > 0 {
				c.Ratio = fmt.Sprintf("%.2f×", sv/pv)
			}
			b := g.innodb
			if peer == EngineMyRocks {
				b = g.myrocks
			}
			switch {
			case g.absolute > 0:
				c.Target = fmt.Sprintf("strata ≤ %g s", g.absolute)
				c.Status = statusMissing
				if sok {
					c.Status = atMost(g.absolute).judge(sv)
				}
			case !b.set():
				c.Target, c.Status = "—", statusNA
			case !sok || !pok || pv <= 0:
				c.Target, c.Status = pvTarget(b), statusMissing
			default:
				c.Target, c.Status = pvTarget(b), b.judge(sv/pv)
			}
			row.Peers = append(row.Peers, c)
		}
		rows = append(rows, row)
	}
	return rows
}

// pvTarget renders a bound with two decimals (the 0.33×, which
// bound.String would round to 0.3×).
func pvTarget(b bound) string { return fmt.Sprintf("≤ %.2f×", b.Value) }

// pageViewsTable is the per-engine figures with strata ÷ peer ratios.
func (r *Results) pageViewsTable(engines []string) *table {
	t := &table{Header: []string{"figure"}}
	for _, e := range engines {
		t.Header = append(t.Header, EngineLabel(e))
	}
	hasStrata := r.pvRun(EngineStrata) != nil
	var peers []string
	for _, e := range engines {
		if e != EngineStrata && hasStrata {
			peers = append(peers, e)
			t.Header = append(t.Header, "strata ÷ "+EngineLabel(e))
		}
	}
	for _, m := range pvMetrics() {
		row := []string{m.name}
		for _, e := range engines {
			cell := "—"
			if p := r.pvRun(e); p != nil {
				if v, ok := m.get(p); ok {
					cell = m.text(v)
				}
			}
			row = append(row, cell)
		}
		for _, e := range peers {
			cell := "n/a"
			sv, sok := m.get(r.pvRun(EngineStrata))
			if p := r.pvRun(e); p != nil && sok {
				if pv, ok := m.get(p); ok && pv > 0 {
					cell = fmt.Sprintf("%.2f×", sv/pv)
				}
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	match := []string{"COUNT(*) and top 10 vs " + EngineLabel(r.pvReference())}
	for _, e := range engines {
		cell := "—"
		if p := r.pvRun(e); p != nil {
			switch {
			case e == r.pvReference():
				cell = "reference"
			case p.Match == matchDiffers:
				cell = "**differs**"
			case p.Match != "":
				cell = p.Match
			}
		}
		match = append(match, cell)
	}
	for range peers {
		match = append(match, "")
	}
	t.Rows = append(t.Rows, match)
	return t
}

// pvReference is the engine the others' results were compared with.
func (r *Results) pvReference() string {
	if r.PageViews == nil {
		return ""
	}
	return r.PageViews.ReferenceRun
}

// pageViewsDoc assembles the pageviews report.
func pageViewsDoc(r *Results) []block {
	engines := r.engineList()
	d := introBlocks(r, "strata bench: pageviews (bulk load, ADD INDEX, COUNT(*), cold and warm join)",
		"“strata ÷ X” divides strata's figure by X's (below 1: strata faster or smaller).")
	if pv := r.PageViews; pv != nil {
		p := fmt.Sprintf("Data: a generated page_views.csv of %s, %d rows (seed %d, generated in %s s), and a pages table of %d rows. page_views is created with only its primary key (pv_id; the file is in pv_id order), loaded with LOAD DATA, then three secondary indexes are added one ALTER TABLE each. The join query (user %d): `%s`. Cold: %s; warm: median of %d runs after the cold one.",
			fmtBytes(float64(pv.Bytes)), pv.Rows, r.optSeed(), fmtNum(pv.GenSeconds), pv.Pages, pv.QueryUser,
			strings.Join(strings.Fields(pv.Query), " "), pv.DropCaches, r.optReps())
		if r.Options != nil && r.Options.Quick {
			p = "**Quick run** (a few MB; figures are indicative only). " + p
		}
		d = append(d, block{Text: p})
		var ix []string
		for _, x := range pv.Indexes {
			ix = append(ix, fmt.Sprintf("`%s (%s)`: %s", x.Name, x.Columns, x.Why))
		}
		d = append(d, block{Heading: "Secondary indexes", Level: 3, Bullets: ix})
	}
	d = append(d, block{Heading: "Goals", Level: 2, Text: "Issue 13's targets, strata's figure ÷ each peer's from this run; the cold first query has an absolute target (strata ≤ 1 s).", Table: goalsTable(r.PageViewsGoals())})
	d = append(d, block{Heading: "Results", Level: 2, Text: "Times are wall seconds seen by the client; CPU and bytes written are the server process's /proc counters. Sizes are allocated bytes (du) of the table files (InnoDB pv/*.ibd, MyRocks #rocksdb/*.sst, strata *.sst/*.blob), measured after the server went idle (settle).", Table: r.pageViewsTable(engines)})
	var how []string
	for _, p := range r.PageViewsRuns {
		line := fmt.Sprintf("%s: `%s`", EngineLabel(p.Engine), p.LoadHow)
		if p.Plan != "" {
			line += fmt.Sprintf("; ANALYZE TABLE after the indexes %s s; join plan: `%s`", fmtNum(p.AnalyzeSeconds), p.Plan)
		}
		if p.ColdNote != "" {
			line += "; " + p.ColdNote
		}
		if p.Diff != "" {
			line += "; differs: " + p.Diff
		}
		if p.Error != "" {
			line += "; **error**: " + clipError(p.Error)
		}
		how = append(how, line)
	}
	if len(how) > 0 {
		d = append(d, block{Heading: "How each engine was loaded, and its join plan", Level: 2, Bullets: how})
	}
	d = append(d, setupBlocks(r)...)
	return d
}

func (r *Results) optSeed() uint64 {
	if r.Options == nil {
		return 0
	}
	return r.Options.Seed
}

func (r *Results) optReps() int {
	if r.Options == nil {
		return 0
	}
	return r.Options.Reps
}

// pageViewsCSV is pageviews.csv: one row per engine.
func pageViewsCSV(res *Results) [][]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	head := []string{"engine", "rows", "load_seconds", "load_cpu_seconds", "load_write_bytes", "table_bytes_after_load"}
	for _, ix := range pvIndexes {
		head = append(head, "add_index_"+ix.Name+"_seconds")
	}
	head = append(head, "table_bytes_after_indexes", "datadir_bytes_after_indexes", "count_seconds", "count_first_seconds", "cold_seconds", "warm_seconds", "match", "error")
	out := [][]string{head}
	for _, p := range res.PageViewsRuns {
		row := []string{p.Engine, i(p.Count), f(p.LoadSeconds), f(p.LoadCPUSeconds), i(p.LoadWriteBytes), i(p.SizeAfterLoad)}
		for k := range pvIndexes {
			v := ""
			if k < len(p.Indexes) {
				v = f(p.Indexes[k].Seconds)
			}
			row = append(row, v)
		}
		row = append(row, i(p.SizeAfterIndexes), i(p.DataDirAfterIdx), f(p.CountSeconds), f(p.CountFirst), f(p.ColdSeconds), f(p.WarmSeconds), p.Match, p.Error)
		out = append(out, row)
	}
	return out
}
