package bench

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// genViews generates size bytes of page views in memory.
func genViews(t *testing.T, seed uint64, size int64) (*pvGen, []byte, int64) {
	t.Helper()
	g := newPVGen(seed, size)
	var buf bytes.Buffer
	rows, n, err := g.writeViews(&buf, size)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("reported %d bytes, wrote %d", n, buf.Len())
	}
	if n < size || n > size+1024 {
		t.Fatalf("wrote %d bytes for --size %d", n, size)
	}
	return g, buf.Bytes(), rows
}

func TestPageViewsDeterministic(t *testing.T) {
	_, a, ra := genViews(t, 7, 300<<10)
	_, b, rb := genViews(t, 7, 300<<10)
	if ra != rb || !bytes.Equal(a, b) {
		t.Fatalf("same seed, different output: %d vs %d rows, sha %x vs %x", ra, rb, sha256.Sum256(a), sha256.Sum256(b))
	}
	_, c, _ := genViews(t, 8, 300<<10)
	if bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 gave the same file")
	}
	// A larger size is not a prefix-compatible stretch of the same log
	// (timestamps spread over the same six months), but it is as
	// deterministic.
	var p1, p2 bytes.Buffer
	if err := newPVGen(7, 1<<20).writePages(&p1); err != nil {
		t.Fatal(err)
	}
	if err := newPVGen(7, 1<<20).writePages(&p2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p1.Bytes(), p2.Bytes()) {
		t.Fatal("pages differ for the same seed")
	}
}

func TestPageViewsRows(t *testing.T) {
	g, data, rows := genViews(t, 1, 2<<20)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if int64(len(lines)) != rows {
		t.Fatalf("reported %d rows, file has %d lines", rows, len(lines))
	}
	pages := map[string]bool{}
	for _, p := range g.pages {
		if len(p.url) < 30 || len(p.url) > 191 {
			t.Fatalf("page url %q: %d bytes, want 30–191 (pages.page_url is VARCHAR(191))", p.url, len(p.url))
		}
		pages[p.url] = true
	}
	if len(pages) != pvPages {
		t.Fatalf("%d distinct page urls, want %d", len(pages), pvPages)
	}

	userViews := map[string]int{}
	pageViews := map[string]int{}
	status := map[string]int{}
	var prevTS time.Time
	var first, last time.Time
	emptyRef, searchRef, pageRef := 0, 0, 0
	for i, line := range lines {
		f := strings.Split(line, ",")
		if len(f) != len(pvColumns) {
			t.Fatalf("line %d: %d fields, want %d: %q", i+1, len(f), len(pvColumns), line)
		}
		if f[0] != strconv.Itoa(i+1) {
			t.Fatalf("line %d: pv_id %s (the file must be in pv_id order)", i+1, f[0])
		}
		ts, err := time.Parse(time.DateTime, f[1])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if i == 0 {
			first = ts
		}
		// Jitter of a few seconds, never a jump back of more than 30 s.
		if !prevTS.IsZero() && ts.Before(prevTS.Add(-30*time.Second)) {
			t.Fatalf("line %d: timestamp %s goes back from %s", i+1, ts, prevTS)
		}
		prevTS, last = ts, ts
		userViews[f[2]]++
		if len(f[3]) != 16 {
			t.Fatalf("line %d: session id %q", i+1, f[3])
		}
		if !pages[f[4]] {
			t.Fatalf("line %d: page %q is not in pages", i+1, f[4])
		}
		pageViews[f[4]]++
		switch {
		case f[5] == "":
			emptyRef++
		case strings.Contains(f[5], "search") || strings.Contains(f[5], "?q="):
			searchRef++
		case pages[f[5]]:
			pageRef++
		default:
			t.Fatalf("line %d: referrer %q", i+1, f[5])
		}
		status[f[12]]++
		for _, n := range []int{10, 11} {
			if _, err := strconv.ParseFloat(f[n], 64); err != nil {
				t.Fatalf("line %d: coordinate %q", i+1, f[n])
			}
		}
	}
	// Timestamps cover about six months.
	if span := last.Sub(first); span < 150*24*time.Hour || span > 200*24*time.Hour {
		t.Errorf("timestamps span %s, want about %s", span, pvSpan)
	}
	// Users are skewed: the busiest user has far more than the mean and
	// the busiest 1 % of users a large share of the views.
	counts := sortedCounts(userViews)
	mean := float64(rows) / float64(len(counts))
	if float64(counts[0]) < 20*mean {
		t.Errorf("busiest user has %d views, mean %.1f: not skewed", counts[0], mean)
	}
	if share := topShare(counts, 0.01, rows); share < 0.2 {
		t.Errorf("top 1%% of users have %.0f%% of the views, want ≥ 20%%", share*100)
	}
	pc := sortedCounts(pageViews)
	if share := topShare(pc, 0.01, rows); share < 0.3 || len(pc) < pvPages/3 {
		t.Errorf("pages: top 1%% have %.0f%% of the views over %d pages", share*100, len(pc))
	}
	// Referrers: about 45 % empty, 30 % search, 25 % another page.
	for _, c := range []struct {
		name      string
		n         int
		want, tol float64
	}{{"empty", emptyRef, 0.45, 0.03}, {"search", searchRef, 0.30, 0.03}, {"page", pageRef, 0.25, 0.03}} {
		if got := float64(c.n) / float64(rows); got < c.want-c.tol || got > c.want+c.tol {
			t.Errorf("%s referrers: %.3f of the views, want %.2f", c.name, got, c.want)
		}
	}
	if got := float64(status["200"]) / float64(rows); got < 0.9 || got > 0.94 {
		t.Errorf("status 200: %.3f of the views, want 0.92", got)
	}
	// The join query's user has views, fewer than the busiest user's.
	q := strconv.FormatUint(g.queryUser(), 10)
	if userViews[q] < 10 || userViews[q] >= counts[0] {
		t.Errorf("query user %s has %d views (busiest %d)", q, userViews[q], counts[0])
	}
}

func sortedCounts(m map[string]int) []int {
	var c []int
	for _, n := range m {
		c = append(c, n)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(c)))
	return c
}

func topShare(sorted []int, frac float64, total int64) float64 {
	n := max(1, int(float64(len(sorted))*frac))
	s := 0
	for _, c := range sorted[:n] {
		s += c
	}
	return float64(s) / float64(total)
}

func TestGeneratePageViewsFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := GeneratePageViews(dir, 3, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(f.Views)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != f.Bytes || f.Rows < 500 {
		t.Fatalf("page_views.csv: %d bytes on disk, %d reported, %d rows", fi.Size(), f.Bytes, f.Rows)
	}
	pages, err := os.ReadFile(filepath.Join(dir, "pages.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(pages, []byte("\n")); n != pvPages {
		t.Fatalf("pages.csv has %d lines, want %d", n, pvPages)
	}
}
