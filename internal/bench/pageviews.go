package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
)

// The pageviews workload (issue 13, item 6): the seed's bulk-load
// workflow on each engine — create page_views with only its primary key,
// LOAD DATA the generated CSV, ADD INDEX the secondary indexes one by one,
// COUNT(*), and the join + ORDER BY pv_timestamp DESC LIMIT 10 query cold
// (after a restart, with the OS page cache dropped where the container
// allows it) and warm.

// pvDatabase holds the pageviews tables on every engine.
const pvDatabase = "pv"

// pvSchema creates the tables with only their keys. pages is the small
// dimension table of the join (url unique: the join looks pages up by url;
// VARCHAR(191) keeps the utf8mb4 key within 767 bytes — a longer unique
// key becomes a hash "long unique" on MariaDB, which MyRocks rejects).
var pvSchema = []string{
	`CREATE TABLE page_views (
  pv_id BIGINT UNSIGNED NOT NULL,
  pv_timestamp DATETIME NOT NULL,
  user_id INT UNSIGNED NOT NULL,
  session_id CHAR(16) NOT NULL,
  page_url VARCHAR(255) NOT NULL,
  referrer VARCHAR(255) NOT NULL,
  user_agent VARCHAR(32) NOT NULL,
  country CHAR(2) NOT NULL,
  region VARCHAR(32) NOT NULL,
  city VARCHAR(48) NOT NULL,
  latitude DECIMAL(8,5) NOT NULL,
  longitude DECIMAL(8,5) NOT NULL,
  http_status SMALLINT UNSIGNED NOT NULL,
  response_bytes INT UNSIGNED NOT NULL,
  load_time_ms INT UNSIGNED NOT NULL,
  PRIMARY KEY (pv_id)
)`,
	`CREATE TABLE pages (
  page_id INT UNSIGNED NOT NULL,
  page_url VARCHAR(191) NOT NULL,
  title VARCHAR(200) NOT NULL,
  section VARCHAR(32) NOT NULL,
  words INT UNSIGNED NOT NULL,
  PRIMARY KEY (page_id),
  UNIQUE KEY page_url (page_url)
)`,
}

// pvIndex is one secondary index the workload adds after the load.
type pvIndex struct {
	Name, Columns, Why string
}

// pvIndexes are the seed's secondary indexes, added one ALTER at a time as
// the trial did: time-range reports, a user's history (the join query's
// access path) and per-page reports on a url prefix.
var pvIndexes = []pvIndex{
	{"idx_ts", "pv_timestamp", "time-range reports (WHERE pv_timestamp BETWEEN …)"},
	{"idx_user_ts", "user_id, pv_timestamp", "a user's recent views: the join query's access path"},
	{"idx_page", "page_url(64)", "per-page reports; a prefix index as on a long url column"},
}

// pvJoinQuery is the seed's join + ORDER BY pv_timestamp DESC LIMIT 10
// for one user. Timestamps have one-second resolution, so two engines may
// break a tie at the LIMIT boundary differently: comparePageViews checks
// the ordered timestamps exactly and the rows within ties.
func pvJoinQuery(user uint64) string {
	return fmt.Sprintf(`SELECT pv.pv_id, pv.pv_timestamp, pv.page_url, p.title, p.section, pv.city, pv.http_status
FROM page_views pv JOIN pages p ON p.page_url = pv.page_url
WHERE pv.user_id = %d
ORDER BY pv.pv_timestamp DESC LIMIT 10`, user)
}

// pvTieQuery is pvJoinQuery with pv_id DESC breaking timestamp ties (a
// total order). pv_id is the primary key, the implicit suffix of
// idx_user_ts, so an engine that knows that (InnoDB's extended keys) still
// reads the index backwards; one that does not sorts all the user's rows.
// It runs warm only, for information.
func pvTieQuery(user uint64) string {
	return strings.Replace(pvJoinQuery(user), "DESC LIMIT", "DESC, pv.pv_id DESC LIMIT", 1)
}

// pvCountQuery is the seed's COUNT(*).
const pvCountQuery = "SELECT COUNT(*) FROM page_views"

// pvCountRuns is how many times COUNT(*) runs (median reported).
const pvCountRuns = 3

// PageViewsData describes the generated data of a pageviews run.
type PageViewsData struct {
	Rows         int64     `json:"rows"`
	Bytes        int64     `json:"bytes"`
	Pages        int       `json:"pages"`
	GenSeconds   float64   `json:"gen_seconds"`
	QueryUser    uint64    `json:"query_user"`
	Query        string    `json:"query"`
	Indexes      []pvIndex `json:"indexes"`
	DropCaches   string    `json:"drop_caches"` // how the cold query was made cold
	ReferenceRun string    `json:"reference_engine,omitempty"`
}

// PVIndexTime is one ADD INDEX on one engine.
type PVIndexTime struct {
	Name       string  `json:"name"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	WriteBytes int64   `json:"write_bytes"`
	Error      string  `json:"error,omitempty"`
}

// PageViewsRun is the pageviews workload's result on one engine.
type PageViewsRun struct {
	Engine string `json:"engine"`
	// LoadHow is the statement sequence that loaded page_views.
	LoadHow        string  `json:"load_how"`
	LoadSeconds    float64 `json:"load_seconds"`
	LoadCPUSeconds float64 `json:"load_cpu_seconds"`
	LoadWriteBytes int64   `json:"load_write_bytes"`
	// SettleSeconds is the wait for the server to become idle after the
	// load (the sizes are measured after it).
	SettleSeconds    float64       `json:"settle_seconds"`
	SizeAfterLoad    int64         `json:"table_bytes_after_load"`
	DataDirAfterLoad int64         `json:"datadir_bytes_after_load"`
	Indexes          []PVIndexTime `json:"indexes"`
	SizeAfterIndexes int64         `json:"table_bytes_after_indexes"`
	DataDirAfterIdx  int64         `json:"datadir_bytes_after_indexes"`
	Count            int64         `json:"count"`
	CountSeconds     float64       `json:"count_seconds"`       // median of pvCountRuns
	CountFirst       float64       `json:"count_first_seconds"` // the first run, right after the indexes
	ColdSeconds      float64       `json:"cold_seconds"`
	ColdNote         string        `json:"cold_note,omitempty"`
	WarmSeconds      float64       `json:"warm_seconds"` // median
	WarmRuns         []float64     `json:"warm_runs"`
	// AnalyzeSeconds is ANALYZE TABLE of both tables after the indexes.
	AnalyzeSeconds float64 `json:"analyze_seconds"`
	// Plan is the join query's EXPLAIN (table:type:key:extra per row).
	Plan string `json:"plan,omitempty"`
	// TieSeconds is pvTieQuery's warm median.
	TieSeconds float64       `json:"tie_break_warm_seconds"`
	Top        *query.Result `json:"top10,omitempty"`
	// Match compares COUNT(*) and the top 10 with the reference engine's:
	// matchSame or matchDiffers (Diff says what).
	Match string `json:"match,omitempty"`
	Diff  string `json:"diff,omitempty"`
	Error string `json:"error,omitempty"`
}

// IndexSeconds is the total ADD INDEX time (0 when one failed).
func (p *PageViewsRun) IndexSeconds() float64 {
	t := 0.0
	for _, ix := range p.Indexes {
		if ix.Error != "" {
			return 0
		}
		t += ix.Seconds
	}
	if len(p.Indexes) < len(pvIndexes) {
		return 0
	}
	return t
}

// runPageViews generates the data once and runs the workflow on every
// engine.
func (r *runner) runPageViews() error {
	o := r.o
	if err := r.setup(); err != nil {
		return err
	}
	defer r.prog.close()
	// Plans for the ETA, from a 2-core VM: the generator writes ~400 MiB/s,
	// an engine takes 50–70 s per GiB for the whole workflow.
	genPlan := time.Second + time.Duration(o.PVSize/(400<<20))*time.Second
	perEngine := 10*time.Second + time.Duration(o.PVSize/(15<<20))*time.Second
	r.prog.plan(1, genPlan)
	r.prog.plan(len(o.Engines), perEngine)

	r.prog.begin(fmt.Sprintf("generate %s of page views", fmtBytes(float64(o.PVSize))), genPlan)
	dataDir := filepath.Join(r.work, "data") // also MariaDB's secure_file_priv (pvConfig)
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		r.prog.end()
		return fmt.Errorf("data directory: %w", err)
	}
	files, err := GeneratePageViews(dataDir, o.Seed, o.PVSize)
	r.prog.end()
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	r.prog.logf("strata bench: generated %d page views (%s) in %.1f s; query user %d", files.Rows, fmtBytes(float64(files.Bytes)), files.Seconds, files.QueryUser)
	data := &PageViewsData{Rows: files.Rows, Bytes: files.Bytes, Pages: pvPages, GenSeconds: files.Seconds,
		QueryUser: files.QueryUser, Query: pvJoinQuery(files.QueryUser), Indexes: pvIndexes, DropCaches: probeDropCaches()}
	r.res.PageViews = data

	var errs []error
	for _, e := range o.Engines {
		run := PageViewsRun{Engine: e}
		err := r.pageViewsEngine(&run, files, perEngine)
		if err != nil {
			run.Error = err.Error()
		}
		r.res.PageViewsRuns = append(r.res.PageViewsRuns, run)
		if err != nil {
			if r.ctx.Err() != nil {
				return fmt.Errorf("interrupted: %w", err)
			}
			r.prog.logf("strata bench: %s: %v", e, err)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %v", EngineLabel(e), err))
			errs = append(errs, fmt.Errorf("%s: %w", e, err))
		}
	}
	data.ReferenceRun = comparePageViews(r.res.PageViewsRuns)
	return errors.Join(errs...)
}

// pvConfig is the engine configuration of the workload.
func (r *runner) pvConfig(reuse bool) EngineConfig {
	cfg := r.engineConfig(r.o.CacheBytes)
	cfg.Database = pvDatabase
	cfg.Reuse = reuse
	cfg.SecureFilePriv = filepath.Join(r.work, "data")
	return cfg
}

// pageViewsEngine runs the workflow on one engine, filling run.
func (r *runner) pageViewsEngine(run *PageViewsRun, files PVFiles, plan time.Duration) (err error) {
	engine := run.Engine
	r.prog.begin(fmt.Sprintf("%s: load, index, count, query %d page views", engine, files.Rows), plan)
	defer r.prog.end()
	s, _, err := r.startEngine(engine, r.pvConfig(false))
	if err != nil {
		return err
	}
	cur := s
	var db *sql.DB
	defer func() {
		if db != nil {
			db.Close()
		}
		if serr := r.stopServer(cur); serr != nil && err == nil {
			err = serr
		}
	}()
	if err := s.Exec(r.ctx, "CREATE DATABASE "+pvDatabase); err != nil {
		return err
	}
	if db, err = sql.Open("mysql", s.LongDSN(pvDatabase)+"&allowAllFiles=true"); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	db.SetMaxOpenConns(4)
	if err := query.ExecAll(r.ctx, db, pvSchema); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	if _, err := r.pvLoadFile(db, files.Pages, "pages", []string{"page_id", "page_url", "title", "section", "words"}, false); err != nil {
		return fmt.Errorf("load pages: %w", err)
	}

	// The load.
	var how string
	l := r.measureLoad(s, func() error {
		var err error
		how, err = r.pvLoadFile(db, files.Views, "page_views", pvColumns, engine == EngineMyRocks)
		return err
	})
	run.LoadHow, run.LoadSeconds, run.LoadCPUSeconds, run.LoadWriteBytes = how, l.Seconds, l.CPUSeconds, l.WriteBytes
	if l.Error != "" {
		r.res.Loads = append(r.res.Loads, l)
		return fmt.Errorf("load: %s", l.Error)
	}
	run.SettleSeconds = r.settle(s).Seconds()
	run.SizeAfterLoad, _ = DiskUsage(s.DataDir, s.tableFiles)
	run.DataDirAfterLoad, _ = DiskUsage(s.DataDir, nil)
	l.SettleSeconds = run.SettleSeconds
	l.TableBytes, l.DataDirBytes = run.SizeAfterLoad, run.DataDirAfterLoad
	li := len(r.res.Loads)
	r.res.Loads = append(r.res.Loads, l)

	// The secondary indexes, one ALTER each.
	for _, ix := range pvIndexes {
		stmt := fmt.Sprintf("ALTER TABLE page_views ADD INDEX %s (%s)", ix.Name, ix.Columns)
		m := r.measureLoad(s, func() error {
			_, err := db.ExecContext(r.ctx, stmt)
			return err
		})
		run.Indexes = append(run.Indexes, PVIndexTime{Name: ix.Name, Seconds: m.Seconds, CPUSeconds: m.CPUSeconds, WriteBytes: m.WriteBytes, Error: m.Error})
		if m.Error != "" {
			return fmt.Errorf("%s: %s", stmt, m.Error)
		}
	}
	// Statistics for the optimizer, as tpch and tpcc do after their load:
	// in a run without it InnoDB joined pages first and took 41 s for the
	// join query (idx_page lookups of every view of every page).
	t0 := time.Now()
	if err := query.ExecAll(r.ctx, db, []string{"ANALYZE TABLE page_views", "ANALYZE TABLE pages"}); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	run.AnalyzeSeconds = time.Since(t0).Seconds()
	r.settle(s)
	run.SizeAfterIndexes, _ = DiskUsage(s.DataDir, s.tableFiles)
	run.DataDirAfterIdx, _ = DiskUsage(s.DataDir, nil)
	r.res.Loads[li].TableBytesAfter, r.res.Loads[li].DataDirBytesAfter = run.SizeAfterIndexes, run.DataDirAfterIdx

	// COUNT(*).
	var counts []float64
	for i := 0; i < pvCountRuns; i++ {
		out, err := query.Run(r.ctx, db, pvCountQuery, r.o.QueryTimeout)
		if err != nil {
			return err
		}
		if out.Status != query.OK {
			return fmt.Errorf("COUNT(*): %s: %s", out.Status, out.Error)
		}
		if i == 0 {
			run.CountFirst = out.Seconds
			if len(out.Result.Rows) == 1 && len(out.Result.Rows[0]) == 1 {
				run.Count, _ = strconv.ParseInt(out.Result.Rows[0][0], 10, 64)
			}
		}
		counts = append(counts, out.Seconds)
	}
	run.CountSeconds = SpreadOf(counts).Median

	// The join query: cold after a restart (page cache dropped where
	// allowed), then warm.
	db.Close()
	db = nil
	if err := cur.Stop(2 * time.Minute); err != nil {
		r.prog.logf("strata bench: %v (restarting anyway: the engine recovers)", err)
	}
	if note := dropCaches(); note != "" {
		run.ColdNote = note
	}
	cur, err = StartEngine(r.ctx, engine, s.Dir, r.pvConfig(true), r.in)
	if err != nil {
		cur = s // stopped already; stopServer removes the directory
		return fmt.Errorf("restart: %w", err)
	}
	r.track(cur)
	if db, err = sql.Open("mysql", cur.LongDSN(pvDatabase)); err != nil {
		return fmt.Errorf("open: %w", err)
	}
	q := pvJoinQuery(files.QueryUser)
	for i := 0; i <= r.o.Reps; i++ {
		out, err := query.Run(r.ctx, db, q, r.o.QueryTimeout)
		if err != nil {
			return err
		}
		if out.Status != query.OK {
			return fmt.Errorf("join query: %s: %s", out.Status, out.Error)
		}
		if i == 0 {
			run.ColdSeconds, run.Top = out.Seconds, out.Result
			continue
		}
		run.WarmRuns = append(run.WarmRuns, out.Seconds)
	}
	run.WarmSeconds = SpreadOf(run.WarmRuns).Median
	var tie []float64
	for i := 0; i < r.o.Reps; i++ {
		out, err := query.Run(r.ctx, db, pvTieQuery(files.QueryUser), r.o.QueryTimeout)
		if err != nil {
			return err
		}
		if out.Status != query.OK {
			return fmt.Errorf("tie-break query: %s: %s", out.Status, out.Error)
		}
		tie = append(tie, out.Seconds)
	}
	run.TieSeconds = SpreadOf(tie).Median
	if plan, err := explain(r.ctx, db, q); err != nil {
		run.Plan = "EXPLAIN failed: " + err.Error()
	} else {
		run.Plan = plan
	}
	if cur.Exited() {
		return fmt.Errorf("server exited; log tail:\n%s", cur.LogTail())
	}
	return nil
}

// pvLoadFile loads path into table with LOAD DATA as the engine's users
// would: a server file (LOAD DATA INFILE) placed where the server's
// secure_file_priv allows, or LOAD DATA LOCAL INFILE when the server reads
// no files; on MyRocks inside SET SESSION rocksdb_bulk_load=1 … =0 when
// bulk (the file is in primary-key order, so
// rocksdb_bulk_load_allow_unsorted is not needed). It returns the
// statements it ran (with the file name shortened).
func (r *runner) pvLoadFile(db *sql.DB, path, table string, cols []string, bulk bool) (string, error) {
	ctx := r.ctx
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("connection: %w", err)
	}
	defer conn.Close()
	var priv sql.NullString
	if err := conn.QueryRowContext(ctx, "SELECT @@secure_file_priv").Scan(&priv); err != nil {
		return "", fmt.Errorf("SELECT @@secure_file_priv: %w", err)
	}
	local, name := "", path
	switch {
	case !priv.Valid:
		local = "LOCAL " // the server reads no files: send it
	case priv.String != "" && filepath.Clean(priv.String) != filepath.Dir(path):
		name = filepath.Join(priv.String, filepath.Base(path))
		if err := linkOrCopy(path, name); err != nil {
			return "", err
		}
		defer os.Remove(name)
	}
	load := fmt.Sprintf("LOAD DATA %sINFILE '%s' INTO TABLE %s FIELDS TERMINATED BY ',' LINES TERMINATED BY '\\n' (%s)",
		local, strings.ReplaceAll(name, "'", "''"), table, strings.Join(cols, ", "))
	stmts := []string{load}
	if bulk {
		stmts = []string{"SET SESSION rocksdb_bulk_load = 1", load, "SET SESSION rocksdb_bulk_load = 0"}
	}
	var how []string
	for _, st := range stmts {
		if _, err := conn.ExecContext(ctx, st); err != nil {
			return strings.Join(how, "; "), fmt.Errorf("%s: %w", clipError(st), err)
		}
		how = append(how, strings.Replace(st, name, filepath.Base(path), 1))
	}
	return strings.Join(how, "; "), nil
}

// linkOrCopy makes the file src available as dst (a hard link, else a
// copy).
func linkOrCopy(src, dst string) error {
	_ = os.Remove(dst)
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("close %s: %w", dst, err)
	}
	return nil
}

// dropCachesPath is the kernel's page-cache drop switch.
const dropCachesPath = "/proc/sys/vm/drop_caches"

// dropCaches syncs and drops the OS page cache; it returns "" when that
// worked, else what happened instead.
func dropCaches() string {
	syscall.Sync()
	if err := os.WriteFile(dropCachesPath, []byte("3\n"), 0o200); err != nil {
		return "OS page cache not dropped (" + err.Error() + "): cold = after a server restart only"
	}
	return ""
}

// probeDropCaches says how the cold query is made cold on this machine.
func probeDropCaches() string {
	f, err := os.OpenFile(dropCachesPath, os.O_WRONLY, 0)
	if err != nil {
		return "server restart only (cannot drop the OS page cache: " + err.Error() + ")"
	}
	f.Close()
	return "server restart + OS page cache dropped (sync; echo 3 > " + dropCachesPath + ")"
}

// comparePageViews compares every engine's COUNT(*) and top-10 rows with
// the reference engine's (InnoDB, else MyRocks, else the first) and
// returns the reference.
func comparePageViews(runs []PageViewsRun) string {
	ref := -1
	for _, want := range []string{EngineInnoDB, EngineMyRocks, EngineStrata} {
		for i := range runs {
			if runs[i].Engine == want && runs[i].Error == "" && runs[i].Top != nil && ref < 0 {
				ref = i
			}
		}
	}
	if ref < 0 {
		return ""
	}
	want := &runs[ref]
	for i := range runs {
		got := &runs[i]
		if i == ref || got.Top == nil {
			continue
		}
		got.Match = matchSame
		if got.Count != want.Count {
			got.Match, got.Diff = matchDiffers, fmt.Sprintf("COUNT(*) %d, %s has %d", got.Count, EngineLabel(want.Engine), want.Count)
			continue
		}
		// Rows with equal timestamps may come in any order; the ordered
		// timestamps must be equal. When only the rows differ, a tie at
		// the LIMIT boundary was broken differently (not an error).
		if ok, diff := query.Compare(want.Top, got.Top, []int{1}); !ok {
			if column(want.Top, 1) == column(got.Top, 1) {
				got.Diff = "top 10: same timestamps, a tie at the LIMIT broken differently: " + diff
			} else {
				got.Match, got.Diff = matchDiffers, "top 10: "+diff
			}
		}
	}
	return want.Engine
}

// column joins column i of res's rows (for an order-sensitive comparison).
func column(res *query.Result, i int) string {
	var b strings.Builder
	for _, row := range res.Rows {
		if i < len(row) {
			b.WriteString(row[i])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// explain returns q's EXPLAIN as "table key (extra)" per row, joined by
// " → ", reading the columns by name (MariaDB and strata differ in
// columns).
func explain(ctx context.Context, db *sql.DB, q string) (string, error) {
	rows, err := db.QueryContext(ctx, "EXPLAIN "+q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var parts []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		get := func(name string) string {
			for i, c := range cols {
				if strings.EqualFold(c, name) && vals[i].Valid {
					return vals[i].String
				}
			}
			return ""
		}
		p := get("table") + " " + get("type") + " " + get("key")
		if x := get("Extra"); x != "" {
			p += " (" + x + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " → "), rows.Err()
}
