package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds the project's performance goals — strata's figures
// divided by each peer's, measured in the same run — and computes the
// Goals table of a report from the results. A figure that was not measured
// is reported as such, never estimated.

// bound is a goal's limit on a ratio: at least (≥) or at most (≤) Value.
type bound struct {
	AtMost bool
	Value  float64 // 0: no goal against this peer
}

func atLeast(v float64) bound { return bound{Value: v} }
func atMost(v float64) bound  { return bound{AtMost: true, Value: v} }

func (b bound) set() bool { return b.Value > 0 }

// met reports whether ratio satisfies the bound.
func (b bound) met(ratio float64) bool {
	if b.AtMost {
		return ratio <= b.Value
	}
	return ratio >= b.Value
}

// judge is the status of ratio against the bound.
func (b bound) judge(ratio float64) goalStatus {
	if b.met(ratio) {
		return statusMet
	}
	return statusNotMet
}

func (b bound) String() string {
	if !b.set() {
		return "—"
	}
	if b.AtMost {
		return fmt.Sprintf("≤ %.1f×", b.Value)
	}
	return fmt.Sprintf("≥ %.1f×", b.Value)
}

// goalKind says how a goal's figures are measured.
type goalKind int

const (
	// goalThroughput: QPS or TPS of a grid cell (script, threads).
	goalThroughput goalKind = iota
	// goalWriteAmp: bytes written per transaction of the write-amplification
	// step, valid when every engine's data was ≥ minDataPerCache × its cache.
	goalWriteAmp
	// goalSize: table files after the load (sysbench prepare).
	goalSize
	// goalConns: oltp_read_only QPS at --conns connections ÷ the engine's
	// own best oltp_read_only QPS over the thread grid (no peer ratio).
	goalConns
	// goalSeedGrowth: p95 latency growth from noise "none" to "x4" in the
	// seed study, per script and client count.
	goalSeedGrowth
)

// goal is one row (or, for the seed growth, one family of rows) of the
// Goals table. The bounds apply to strata ÷ peer (goalConns: to strata's
// own ratio, in the InnoDB bound).
type goal struct {
	kind     goalKind
	workload string // "sysbench" or "seed"
	script   string
	threads  int
	metric   string // goalThroughput: "qps" or "tps"
	innodb   bound
	myrocks  bound
}

// bound is the goal's bound against peer.
func (g goal) bound(peer string) bound {
	if peer == EngineMyRocks {
		return g.myrocks
	}
	return g.innodb
}

// minDataPerCache is how many times the cache the data must be for the
// write-amplification goal.
const minDataPerCache = 4

// goals is the project's goal table.
var goals = []goal{
	{kind: goalThroughput, workload: "sysbench", script: "oltp_point_select", threads: 2, metric: "qps", innodb: atLeast(1.0), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_point_select", threads: 16, metric: "qps", innodb: atLeast(1.0), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_read_only", threads: 4, metric: "qps", innodb: atLeast(0.9), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_read_write", threads: 4, metric: "tps", innodb: atLeast(1.2), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_write_only", threads: 4, metric: "tps", innodb: atLeast(1.5), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_update_index", threads: 4, metric: "tps", innodb: atLeast(1.5), myrocks: atLeast(1.2)},
	{kind: goalThroughput, workload: "sysbench", script: "oltp_insert", threads: 4, metric: "tps", innodb: atLeast(1.5), myrocks: atLeast(1.2)},
	{kind: goalWriteAmp, workload: "sysbench", script: writeAmpScript, threads: writeAmpThreads, innodb: atMost(0.3), myrocks: atMost(1.0)},
	{kind: goalSize, workload: "sysbench", innodb: atMost(0.5), myrocks: atMost(1.0)},
	{kind: goalConns, workload: "sysbench", script: connsScript, threads: 1024, innodb: atLeast(0.8)},
	{kind: goalSeedGrowth, workload: "seed", innodb: atMost(0.3), myrocks: atMost(1.0)},
}

// goalPeers are the peers of the Goals table, in column order.
var goalPeers = []string{EngineInnoDB, EngineMyRocks}

// goalStatus is the verdict of one goal against one peer.
type goalStatus int

const (
	statusMissing goalStatus = iota // a figure was not measured
	statusMet
	statusNotMet
	statusInvalid // measured outside the goal's conditions
	statusNA      // no ratio can be formed (a peer's growth ≤ 0), or no goal
)

func (s goalStatus) String() string {
	switch s {
	case statusMet:
		return "yes"
	case statusNotMet:
		return "no"
	case statusInvalid:
		return "not valid"
	case statusNA:
		return "n/a"
	}
	return "not measured"
}

// goalCell is one peer's part of a goal row.
type goalCell struct {
	Figure string // the peer's figure
	Ratio  string // strata ÷ peer
	Target string
	Status goalStatus
	Note   string // why the status is what it is, when not obvious
}

// GoalRow is one row of the Goals table.
type GoalRow struct {
	Goal   string
	Strata string
	Peers  []goalCell // in goalPeers order
}

// notMeasured is the text of a figure the run does not have.
const notMeasured = "not measured"

// figure is one engine's measured value for a goal.
type figure struct {
	v    float64
	text string
	ok   bool
}

func missing(why string) figure {
	if why == "" {
		why = notMeasured
	}
	return figure{text: why}
}

// Goals computes the Goals table of r: the sysbench goals for a sysbench
// run, the seed goals for a seed run.
func (r *Results) Goals() []GoalRow {
	workload := "sysbench"
	if r.isSeed() {
		workload = "seed"
	}
	var rows []GoalRow
	for _, g := range goals {
		if g.workload != workload {
			continue
		}
		switch g.kind {
		case goalSeedGrowth:
			rows = append(rows, r.seedGrowthRows(g)...)
		case goalConns:
			rows = append(rows, r.connsRow(g))
		default:
			rows = append(rows, r.ratioRow(g))
		}
	}
	return rows
}

// ratioRow computes a goal whose ratio is strata's figure ÷ the peer's.
func (r *Results) ratioRow(g goal) GoalRow {
	row := GoalRow{Goal: r.goalName(g)}
	fig := func(e string) figure { return r.goalFigure(g, e) }
	s := fig(EngineStrata)
	row.Strata = s.text
	for _, peer := range goalPeers {
		b := g.bound(peer)
		p := fig(peer)
		c := goalCell{Figure: p.text, Ratio: "—", Target: b.String()}
		switch {
		case !b.set():
			c.Status = statusNA
		case !s.ok || !p.ok:
			c.Status = statusMissing
		case p.v <= 0:
			c.Status, c.Note = statusNA, EngineLabel(peer)+"'s figure is 0"
		default:
			ratio := s.v / p.v
			c.Ratio = fmt.Sprintf("%.2f×", ratio)
			c.Status = b.judge(ratio)
			if g.kind == goalWriteAmp {
				if why := r.writeAmpInvalid(EngineStrata, peer); why != "" {
					c.Status, c.Note = statusInvalid, why
				}
			}
		}
		row.Peers = append(row.Peers, c)
	}
	return row
}

// goalName is the first cell of a goal's row.
func (r *Results) goalName(g goal) string {
	switch g.kind {
	case goalThroughput:
		return fmt.Sprintf("%s %s, %d threads", g.script, strings.ToUpper(g.metric), g.threads)
	case goalWriteAmp:
		return fmt.Sprintf("bytes written per transaction, %s at %d threads, data ≥ %d× the cache", g.script, g.threads, minDataPerCache)
	case goalSize:
		rows := 0
		if r.Options != nil {
			rows = r.Options.Tables * r.Options.TableSize
		}
		name := "on-disk size after prepare of 1M rows (table files; whole data dir in brackets)"
		if rows != 1_000_000 {
			name = fmt.Sprintf("on-disk size after prepare of %s rows (goal: 1M; table files; whole data dir in brackets)", fmtCount(rows))
		}
		return name
	}
	return g.script
}

// goalFigure is engine's figure for a ratio goal.
func (r *Results) goalFigure(g goal, engine string) figure {
	switch g.kind {
	case goalThroughput:
		a := index(r.Aggs)[CellKey{Engine: engine, Script: g.script, Threads: g.threads}]
		sp, ok := aggSpread(a, g.metric)
		if !ok {
			return missing(failedText(a))
		}
		return figure{v: sp.Median, text: fmtNum(sp.Median) + " " + strings.ToUpper(g.metric), ok: true}
	case goalWriteAmp:
		a := r.kindAgg(engine, KindWriteAmp)
		sp, ok := aggSpread(a, "wb")
		if !ok {
			return missing(failedText(a))
		}
		text := fmtBytes(sp.Median) + "/txn"
		if st, ok := r.writeAmpStep(engine); ok {
			text += fmt.Sprintf(" (data %s = %.1f× the %s cache", fmtBytes(float64(st.TableBytes)), st.DataPerCache(), fmtBytes(float64(st.CacheBytes)))
			if st.Rows > 0 {
				text += fmt.Sprintf(", %s rows", fmtCount(int(st.Rows)))
			}
			text += ")"
		}
		return figure{v: sp.Median, text: text, ok: true}
	case goalSize:
		for _, l := range r.Loads {
			if l.Engine != engine {
				continue
			}
			if l.Error != "" {
				return missing("load failed")
			}
			if l.TableBytes <= 0 {
				return missing(fmt.Sprintf("no table files yet (%s data dir; data still in memtables and WAL)", fmtBytes(float64(l.DataDirBytes))))
			}
			return figure{v: float64(l.TableBytes), text: fmt.Sprintf("%s (%s)", fmtBytes(float64(l.TableBytes)), fmtBytes(float64(l.DataDirBytes))), ok: true}
		}
	}
	return missing("")
}

// aggSpread is a's figure for metric ("qps", "tps", "wb", "p95"), if a has
// one from a repetition that did not fail.
func aggSpread(a *Aggregate, metric string) (Spread, bool) {
	if a == nil || a.Failed >= a.Reps {
		return Spread{}, false
	}
	var sp Spread
	switch metric {
	case "qps":
		sp = a.QPS
	case "tps":
		sp = a.TPS
	case "wb":
		sp = a.WriteBytesPerTxn
	case "p95":
		sp = a.LatP95
	}
	return sp, sp.N > 0
}

// failedText says why an aggregate has no figure.
func failedText(a *Aggregate) string {
	if a != nil && a.Failed > 0 {
		return "failed (see Errors)"
	}
	return notMeasured
}

// kindAgg is engine's aggregate of the step of kind (conns or write-amp).
func (r *Results) kindAgg(engine, kind string) *Aggregate {
	for i := range r.Aggs {
		if a := &r.Aggs[i]; a.Engine == engine && a.Kind == kind {
			return a
		}
	}
	return nil
}

// writeAmpStep is engine's first write-amplification step with sizes.
func (r *Results) writeAmpStep(engine string) (Step, bool) {
	for _, s := range r.Steps {
		if s.Engine == engine && s.Kind == KindWriteAmp && s.CacheBytes > 0 && s.TableBytes > 0 {
			return s, true
		}
	}
	return Step{}, false
}

// writeAmpInvalid says why the write-amplification comparison of the
// engines does not meet the goal's condition (data ≥ 4× the cache), or "".
func (r *Results) writeAmpInvalid(engines ...string) string {
	var bad []string
	for _, e := range engines {
		st, ok := r.writeAmpStep(e)
		if !ok {
			bad = append(bad, EngineLabel(e)+": data size not recorded")
			continue
		}
		if x := st.DataPerCache(); x < minDataPerCache {
			bad = append(bad, fmt.Sprintf("%s data only %.1f× its cache", EngineLabel(e), x))
		}
	}
	return strings.Join(bad, "; ")
}

// connsRow computes the connections goal: each engine's QPS at --conns
// connections against its own best oltp_read_only QPS of the grid.
func (r *Results) connsRow(g goal) GoalRow {
	conns := g.threads
	if a := r.kindAgg(EngineStrata, KindConns); a != nil {
		conns = a.Threads
	} else if r.Options != nil && r.Options.Conns > 0 {
		conns = r.Options.Conns
	}
	name := fmt.Sprintf("%s at %d connections ÷ the engine's own peak %s QPS (no collapse)", g.script, conns, g.script)
	if conns != g.threads {
		name = fmt.Sprintf("%s at %d connections (goal: %d) ÷ the engine's own peak %s QPS (no collapse)", g.script, conns, g.threads, g.script)
	}
	row := GoalRow{Goal: name}
	self := func(e string) (float64, string, bool) {
		a := r.kindAgg(e, KindConns)
		qps, ok := aggSpread(a, "qps")
		if !ok {
			return 0, failedText(a), false
		}
		p95, _ := aggSpread(a, "p95")
		peak, at := r.peak(e, g.script)
		text := fmt.Sprintf("%s QPS, p95 %s ms", fmtNum(qps.Median), fmtNum(p95.Median))
		if peak <= 0 {
			return 0, text + "; peak not measured", false
		}
		ratio := qps.Median / peak
		return ratio, fmt.Sprintf("%s; %.2f× its peak (%s QPS at %d threads)", text, ratio, fmtNum(peak), at), true
	}
	ratio, text, ok := self(EngineStrata)
	row.Strata = text
	for _, peer := range goalPeers {
		b := g.bound(peer)
		_, ptext, _ := self(peer)
		c := goalCell{Figure: ptext, Ratio: "—", Target: "—", Status: statusNA}
		if b.set() {
			c.Target = b.String() + " strata's own peak"
			c.Status = statusMissing
			if ok {
				c.Ratio = fmt.Sprintf("%.2f× (strata's own)", ratio)
				c.Status = b.judge(ratio)
			}
		}
		row.Peers = append(row.Peers, c)
	}
	return row
}

// peak is engine's best median QPS of script over the grid's thread
// counts, and the thread count it was reached at.
func (r *Results) peak(engine, script string) (float64, int) {
	best, at := 0.0, 0
	for i := range r.Aggs {
		a := &r.Aggs[i]
		if a.Engine != engine || a.Script != script || a.Kind != KindGrid || a.Noise != "" {
			continue
		}
		if sp, ok := aggSpread(a, "qps"); ok && sp.Median > best {
			best, at = sp.Median, a.Threads
		}
	}
	return best, at
}

// growth is one engine's p95 latency at noise none and x4.
type growth struct {
	none, x4 float64
	ok       bool
}

func (g growth) delta() float64 { return g.x4 - g.none }

func (g growth) String() string {
	if !g.ok {
		return notMeasured
	}
	s := fmt.Sprintf("%+.3g ms (%s → %s ms", g.delta(), fmtNum(g.none), fmtNum(g.x4))
	if g.none > 0 {
		s += fmt.Sprintf(", %.2f×", g.x4/g.none)
	}
	return s + ")"
}

// seedGrowthRows computes the seed goal per script and client count:
// strata's p95 growth from no noise to x4 noise ÷ each peer's growth.
func (r *Results) seedGrowthRows(g goal) []GoalRow {
	idx := index(r.Aggs)
	grow := func(e, script string, clients int, kind string) growth {
		n, ok1 := aggSpread(idx[CellKey{Engine: e, Script: script, Threads: clients, Noise: "none", Kind: kind}], "p95")
		x, ok2 := aggSpread(idx[CellKey{Engine: e, Script: script, Threads: clients, Noise: "x4", Kind: kind}], "p95")
		return growth{none: n.Median, x4: x.Median, ok: ok1 && ok2}
	}
	// family is one load's rows: its scripts (Redmine: operations) and
	// client counts, the step kind and how a row is named.
	type family struct {
		scripts []string
		clients []int
		kind    string
		name    func(script string, clients int) string
	}
	families := []family{
		{r.scriptsOf(), r.threadsOf(), KindGrid, func(sc string, cl int) string {
			return fmt.Sprintf("p95 growth, no noise → x4 disk noise: %s, %d client(s)", sc, cl)
		}},
		{r.redmineOpsOf(), r.redmineClientsOf(), KindRedmine, func(op string, cl int) string {
			return fmt.Sprintf("Redmine %s p95 growth, no noise → x4 disk noise, %d process(es)", op, cl)
		}},
	}
	var rows []GoalRow
	for _, f := range families {
		for _, sc := range f.scripts {
			for _, cl := range f.clients {
				rows = append(rows, growthRow(g, f.name(sc, cl), func(e string) growth { return grow(e, sc, cl, f.kind) }))
			}
		}
	}
	if len(rows) == 0 {
		row := GoalRow{Goal: "p95 latency growth from no noise to x4 disk noise", Strata: notMeasured}
		for _, peer := range goalPeers {
			b := g.bound(peer)
			row.Peers = append(row.Peers, goalCell{Figure: notMeasured, Ratio: "—", Target: b.String() + " the peer's growth"})
		}
		return []GoalRow{row}
	}
	return rows
}

// growthRow is one seed growth row: strata's p95 growth ÷ each peer's,
// with grow giving an engine's growth.
func growthRow(g goal, name string, grow func(engine string) growth) GoalRow {
	s := grow(EngineStrata)
	row := GoalRow{Goal: name, Strata: s.String()}
	for _, peer := range goalPeers {
		b := g.bound(peer)
		p := grow(peer)
		c := goalCell{Figure: p.String(), Ratio: "—", Target: b.String() + " the peer's growth"}
		switch {
		case !s.ok || !p.ok:
			c.Status = statusMissing
		case p.delta() <= 0:
			c.Status = statusNA
			c.Ratio = fmt.Sprintf("%s's p95 did not grow (%+.3g ms)", EngineLabel(peer), p.delta())
		default:
			ratio := s.delta() / p.delta()
			c.Ratio = fmt.Sprintf("%.2f×", ratio)
			c.Status = b.judge(ratio)
		}
		row.Peers = append(row.Peers, c)
	}
	return row
}

// goalsTable renders the Goals rows.
func goalsTable(rows []GoalRow) *table {
	t := &table{Header: []string{"goal", "strata"}, Left: true}
	for _, p := range goalPeers {
		l := EngineLabel(p)
		t.Header = append(t.Header, l, "strata ÷ "+l, "target", "met?")
	}
	for _, r := range rows {
		row := []string{r.Goal, r.Strata}
		for _, c := range r.Peers {
			met := c.Status.String()
			if c.Note != "" {
				met += " (" + c.Note + ")"
			}
			row = append(row, c.Figure, c.Ratio, c.Target, met)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// goalsBlocks is the Goals section of the report.
func goalsBlocks(r *Results) []block {
	rows := r.Goals()
	if len(rows) == 0 {
		return nil
	}
	text := "The project's goals: strata's figure ÷ each peer's, from this run. Throughput rows use the grid cell named in the row; “not measured” means this run has no such figure (e.g. a thread count or noise level outside its grid)."
	if r.isSeed() {
		text = "The project's goal for the seed study: the growth of strata's p95 latency from no disk noise to x4 noise, ÷ each peer's growth (growth = p95(x4) − p95(none), with p95(x4) ÷ p95(none) in brackets), for every sysbench script and every Redmine operation at each client count. A peer whose p95 did not grow gives no ratio."
	} else {
		text += fmt.Sprintf(" Bytes written per transaction come from the write-amplification step (restart on the same data with a small cache; valid only when every engine's table files are ≥ %d× its cache); on-disk size is the table files after `prepare`, before any step.", minDataPerCache)
	}
	return []block{{Heading: "Goals", Level: 2, Text: text, Table: goalsTable(rows)}}
}

// fmtCount renders a row count: "1M", "10k", or the plain number.
func fmtCount(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
