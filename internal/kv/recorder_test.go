package kv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
)

func TestRecorderBoundedAndHottestFirst(t *testing.T) {
	r := NewRecorder(8)
	// 100 distinct keys, then k1 three times and k2 twice: the ring keeps
	// only the last 8 samples.
	for i := range 100 {
		r.NotePoint(key(i))
	}
	for range 3 {
		r.NotePoint([]byte("k1"))
	}
	r.NotePoint([]byte("k2"))
	r.NotePoint([]byte("k2"))
	hot := r.Hot(nil)
	if len(hot) > 8 {
		t.Fatalf("%d reads from an 8-slot recorder", len(hot))
	}
	if got := string(hot[0].Lower); got != "k1" || hot[0].Hits != 3 {
		t.Fatalf("hottest = %q×%d, want k1×3", got, hot[0].Hits)
	}
	if got := string(hot[1].Lower); got != "k2" || hot[1].Hits != 2 {
		t.Fatalf("second = %q×%d, want k2×2", got, hot[1].Hits)
	}
	// The rest are the most recent distinct keys, newest first.
	want := []string{"key-000099", "key-000098", "key-000097"}
	for i, w := range want {
		if got := string(hot[2+i].Lower); got != w {
			t.Fatalf("hot[%d] = %q, want %q", 2+i, got, w)
		}
	}
	if r.Notes() != 105 {
		t.Fatalf("notes = %d, want 105", r.Notes())
	}
}

func TestRecorderScansAndTruncation(t *testing.T) {
	r := NewRecorder(16)
	r.NoteScan([]byte("a"), []byte("b"), false, 10)
	r.NoteScan([]byte("a"), []byte("b"), false, 30) // same scan: merged, largest rows
	r.NoteScan(nil, []byte("z"), true, 0)
	long := bytes.Repeat([]byte{'x'}, 300)
	r.NotePoint(long)
	hi := append(bytes.Repeat([]byte{'y'}, 100), 0xff, 0xff, 7)
	r.NoteScan(long, hi, true, 5)
	hot := r.Hot(nil)
	byKind := map[string]HotRead{}
	for _, h := range hot {
		byKind[fmt.Sprintf("%d/%d", h.Kind, len(h.Lower))] = h
	}
	if h := hot[0]; h.Kind != ReadForward || string(h.Lower) != "a" || string(h.Upper) != "b" || h.Rows != 30 || h.Hits != 2 {
		t.Fatalf("merged scan = %+v", h)
	}
	rev, ok := byKind[fmt.Sprintf("%d/0", ReadReverse)]
	if !ok || rev.Lower != nil || string(rev.Upper) != "z" || rev.Rows != 1 {
		t.Fatalf("unbounded reverse scan = %+v (ok %v)", rev, ok)
	}
	// A truncated point key becomes a one-row scan from its prefix.
	p, ok := byKind[fmt.Sprintf("%d/%d", ReadForward, sampleKeyBytes)]
	if !ok || !bytes.Equal(p.Lower, long[:sampleKeyBytes]) || p.Upper != nil || p.Rows != 1 {
		t.Fatalf("truncated point = %+v (ok %v)", p, ok)
	}
	// Long bounds share the slot; the truncated upper bound is widened past
	// every key with its prefix, never narrowed.
	s, ok := byKind[fmt.Sprintf("%d/%d", ReadReverse, sampleKeyBytes/2)]
	if !ok {
		t.Fatalf("no truncated scan in %+v", hot)
	}
	if bytes.Compare(s.Upper, hi) <= 0 || !bytes.HasPrefix(hi, s.Upper[:len(s.Upper)-1]) {
		t.Fatalf("truncated upper %x does not cover %x", s.Upper, hi)
	}
}

func TestRecorderSeed(t *testing.T) {
	r := NewRecorder(1)
	var seed []HotRead
	for i := range 2 * keepFactor {
		seed = append(seed, HotRead{Kind: ReadPoint, Lower: key(i), Rows: 1, Hits: 9})
	}
	r.NotePoint(key(1))
	var got []string
	for _, h := range r.Hot(seed) {
		got = append(got, string(h.Lower))
	}
	// New samples first, carried ones fill the room left (keepFactor ×
	// the ring's slots), without repeats.
	want := []string{"key-000001", "key-000000", "key-000002", "key-000003"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hot = %q, want %q", got, want)
	}
}

// TestRecorderNoAllocs: a sample costs no allocation.
func TestRecorderNoAllocs(t *testing.T) {
	r := NewRecorder(64)
	k := []byte("some-key")
	if n := testing.AllocsPerRun(100, func() {
		r.NotePoint(k)
		r.NoteScan(k, k, true, 10)
	}); n != 0 {
		t.Fatalf("%v allocations per sample", n)
	}
}

func TestHotReadsFileRoundTrip(t *testing.T) {
	reads := []HotRead{
		{Kind: ReadPoint, Lower: []byte("k"), Rows: 1, Hits: 7},
		{Kind: ReadForward, Lower: []byte{}, Upper: []byte("zz"), Rows: 1000, Hits: 1},
		{Kind: ReadReverse, Upper: []byte{0, 0, 0, 9}, Rows: 10, Hits: 2},
	}
	fs := vfs.NewMem()
	if err := fs.MkdirAll("d", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteHotReads(fs, "d", reads); err != nil {
		t.Fatal(err)
	}
	got, err := ReadHotReads(fs, "d")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, reads) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, reads)
	}
	if _, err := fs.Stat("d/" + WarmupFile + ".tmp"); err == nil {
		t.Fatal("temporary file left behind")
	}
	// Every truncation and every flipped byte is detected.
	b := EncodeHotReads(reads)
	for i := range b {
		if _, err := DecodeHotReads(b[:i]); !errors.Is(err, errWarmupCorrupt) {
			t.Fatalf("truncated at %d: err %v", i, err)
		}
		c := bytes.Clone(b)
		c[i] ^= 0x20
		if _, err := DecodeHotReads(c); !errors.Is(err, errWarmupCorrupt) {
			t.Fatalf("byte %d flipped: err %v", i, err)
		}
	}
	if _, err := ReadHotReads(fs, "missing"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestRecordReadsOpenClose: a DB that records reads saves them at Close;
// the next save carries the earlier list; a damaged file is logged and
// ignored, never a failed Open or warmup.
func TestRecordReadsOpenClose(t *testing.T) {
	fs := vfs.NewMem()
	logger, logs := testLogger(t)
	opts := Options{Dir: "db", FS: fs, MemoryBudget: testBudget, Logger: logger, RecordReads: true, SaveReadsEvery: -1}
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	db.NotePoint([]byte("hot"))
	db.NoteScan([]byte("a"), []byte("b"), true, 3)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	reads, err := ReadHotReads(fs, "db")
	if err != nil || len(reads) != 2 {
		t.Fatalf("after close: %+v, %v", reads, err)
	}
	db, err = Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing sampled: Close leaves the file alone.
	if err := fs.Remove("db/" + WarmupFile); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat("db/" + WarmupFile); err == nil {
		t.Fatal("Close rewrote the warmup file with nothing new sampled")
	}
	// A new sample is saved with the earlier list carried after it.
	if err := WriteHotReads(fs, "db", reads); err != nil {
		t.Fatal(err)
	}
	db, err = Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	db.NotePoint([]byte("new"))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadHotReads(fs, "db"); err != nil || len(got) != 3 || string(got[0].Lower) != "new" {
		t.Fatalf("after a second run: %+v, %v", got, err)
	}

	f, err := fs.Create("db/"+WarmupFile, vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte("strata-warmup\x01garbage"))
	_ = f.Close()
	db, err = Open(opts)
	if err != nil {
		t.Fatalf("open with a damaged warmup file: %v", err)
	}
	if _, err := db.Warmup(t.Context(), WarmupOptions{}); err != nil {
		t.Fatalf("warmup with a damaged file: %v", err)
	}
	if !strings.Contains(logs.String(), "ignoring the recorded reads") {
		t.Fatalf("damaged file not logged:\n%s", logs)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSaveReadsAccumulates: each save carries the previous list, so the
// file gathers the working set over more reads than the ring holds.
func TestSaveReadsAccumulates(t *testing.T) {
	fs := vfs.NewMem()
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: "db", FS: fs, MemoryBudget: testBudget, Logger: logger, RecordReads: true, SaveReadsEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	slots := recorderSlots(db.blockCache)
	for round := range keepFactor {
		for i := range slots {
			db.NotePoint(key(round*slots + i))
		}
		if err := db.SaveReads(); err != nil {
			t.Fatal(err)
		}
	}
	reads, err := ReadHotReads(fs, "db")
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != keepFactor*slots {
		t.Fatalf("%d reads saved after %d rounds of %d, want all", len(reads), keepFactor, slots)
	}
	// The newest round leads.
	if got, want := string(reads[0].Lower), string(key(keepFactor*slots-1)); got != want {
		t.Fatalf("first saved read %q, want %q", got, want)
	}
	db.NotePoint([]byte("one more"))
	if err := db.SaveReads(); err != nil {
		t.Fatal(err)
	}
	if reads, _ := ReadHotReads(fs, "db"); len(reads) != keepFactor*slots || string(reads[0].Lower) != "one more" {
		t.Fatalf("bounded list: %d reads, first %q", len(reads), reads[0].Lower)
	}
}

// TestWriteHotReadsFaults: a failed write, sync or rename of the warmup
// file leaves the previous file whole and no temporary file behind; after
// a power loss the last completed write is there.
func TestWriteHotReadsFaults(t *testing.T) {
	old := []HotRead{{Kind: ReadPoint, Lower: []byte("old"), Rows: 1, Hits: 1}}
	next := []HotRead{{Kind: ReadPoint, Lower: []byte("new"), Rows: 1, Hits: 1}}
	for _, kind := range []errorfs.OpKind{errorfs.OpCreate, errorfs.OpFileWrite, errorfs.OpFileSync, errorfs.OpRename} {
		mem := vfs.NewMem()
		toggle := &errorfs.Toggle{Injector: errorfs.InjectorFunc(func(op errorfs.Op) error {
			if op.Kind == kind {
				return errorfs.ErrInjected
			}
			return nil
		})}
		fs := errorfs.Wrap(mem, toggle)
		if err := fs.MkdirAll("d", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteHotReads(fs, "d", old); err != nil {
			t.Fatal(err)
		}
		toggle.On()
		if err := WriteHotReads(fs, "d", next); !errors.Is(err, errorfs.ErrInjected) {
			t.Fatalf("op %d: err %v", kind, err)
		}
		toggle.Off()
		if got, err := ReadHotReads(fs, "d"); err != nil || string(got[0].Lower) != "old" {
			t.Fatalf("op %d: previous file %+v, %v", kind, got, err)
		}
		if _, err := mem.Stat("d/" + WarmupFile + ".tmp"); err == nil {
			t.Fatalf("op %d: temporary file left behind", kind)
		}
	}

	crash := vfs.NewCrashableMem()
	if err := crash.MkdirAll("d", 0o755); err != nil {
		t.Fatal(err)
	}
	// The directory entry itself must be durable for the test to mean
	// anything: sync its parent.
	if d, err := crash.OpenDir(""); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	if err := WriteHotReads(crash, "d", old); err != nil {
		t.Fatal(err)
	}
	if err := WriteHotReads(crash, "d", next); err != nil {
		t.Fatal(err)
	}
	clone := crash.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0})
	if got, err := ReadHotReads(clone, "d"); err != nil || string(got[0].Lower) != "new" {
		t.Fatalf("after power loss: %+v, %v", got, err)
	}
}
