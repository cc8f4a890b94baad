package loaddata

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// render reads every row of in and renders it as lines of fields joined
// by |, NULL as \N, an enclosed field in <>, a short row marked "short",
// a truncated one "cut".
// With prefetch the rows come through a Prefetch (in batches the test's
// small inputs fit in one of; see TestPrefetchBatches for many).
func render(t testing.TB, f Format, in string, n int, skip uint64, r io.Reader, prefetch ...bool) string {
	if r == nil {
		r = strings.NewReader(in)
	}
	rd := NewReader(r, f)
	var b strings.Builder
	if skip > 0 {
		if _, err := rd.Skip(skip, n); err != nil {
			t.Fatalf("skip: %v", err)
		}
	}
	next := func() ([]Field, bool, error) { return rd.Next(n) }
	if len(prefetch) > 0 && prefetch[0] {
		p := NewPrefetch(rd, n)
		defer p.Close()
		next = p.Next
	}
	for {
		fs, cut, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		for i, fl := range fs {
			if i > 0 {
				b.WriteByte('|')
			}
			switch {
			case fl.Null:
				b.WriteString(`\N`)
			case fl.Enclosed:
				b.WriteString("<" + string(fl.Value) + ">")
			default:
				b.WriteString(string(fl.Value))
			}
		}
		if len(fs) < n {
			b.WriteString(" short")
		}
		if cut {
			b.WriteString(" cut")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func csv() Format {
	return Format{FieldTerm: ",", Enclosed: '"', Escape: '\\', LineTerm: "\n"}
}

func TestReader(t *testing.T) {
	crlf := csv()
	crlf.LineTerm = "\r\n"
	noEsc := csv()
	noEsc.Escape = -1
	dq := csv()
	dq.Escape = '"'
	multi := Format{FieldTerm: "||", Enclosed: -1, Escape: '\\', LineTerm: "<EOL>\n"}
	start := DefaultFormat
	start.LineStart = "xxx"
	same := Format{FieldTerm: ",", Enclosed: -1, Escape: '\\', LineTerm: ","}
	for _, tc := range []struct {
		name string
		f    Format
		in   string
		n    int
		skip uint64
		want string
	}{
		{"tabs", DefaultFormat, "1\t2\n3\t4\n", 2, 0, "1|2\n3|4\n"},
		{"no final newline", DefaultFormat, "1\t2\n3\t4", 2, 0, "1|2\n3|4\n"},
		{"too few", DefaultFormat, "1\n\n", 2, 0, "1 short\n short\n"},
		{"too many", DefaultFormat, "1\t2\t3\n4\t5\t\n6\t7\t8", 2, 0, "1|2 cut\n4|5\n6|7\n"},
		{"escapes", DefaultFormat, "a\\tb\\nc\\0\\Z\\\\\t\\N\n\\N\\N\tx\\N\n", 2, 0, "a\tb\nc\x00\x1a\\|\\N\nNN|xN\n"},
		{"escaped terminators", DefaultFormat, "a\\\tb\tc\\\nd\n", 2, 0, "a\tb|c\nd\n"},
		{"escape at eof", DefaultFormat, "a\\", 1, 0, "a\\\n"},
		{"NULL word without enclosure", DefaultFormat, "NULL\t\\N\n", 2, 0, "NULL|\\N\n"},
		{"csv", csv(), "1,\"a,b\",NULL,\"NULL\"\n2,\"x\"\"y\",\"line\nbreak\",\n", 4, 0, "1|<a,b>|\\N|<NULL>\n2|<x\"y>|<line\nbreak>|\n"},
		{"csv quote inside unenclosed", csv(), "a\"b,c\n", 2, 0, "a\"b|c\n"},
		{"csv unclosed", csv(), "1,\"abc\n", 2, 0, "1|\"abc\n\n"},
		{"csv quote not before terminator", csv(), "\"a\"b\",c\n", 2, 0, "<a\"b>|c\n"},
		{"crlf", crlf, "1,2\r\n3,4\r\n", 2, 0, "1|2\n3|4\n"},
		{"crlf lone cr", crlf, "1,a\rb\r\n", 2, 0, "1|a\rb\n"},
		{"no escape", noEsc, "a\\n,b\\\n", 2, 0, "a\\n|b\\\n"},
		{"escape is quote", dq, "\"a\"\"b\",\"c\"\n", 2, 0, "<a\"b>|<c>\n"},
		{"multi-char terminators", multi, "a||b|c<EOL>\nd<EOL||e<EOL>\n", 2, 0, "a|b|c\nd<EOL|e\n"},
		{"ignore lines", DefaultFormat, "h1\th2\n1\t2\n", 2, 1, "1|2\n"},
		{"ignore lines escaped newline", DefaultFormat, "h\\\nstill header\n1\t2\n", 2, 1, "1|2\n"},
		{"ignore lines: enclosures not considered", csv(), "\"h\nh\",x\n1,2\n", 2, 1, "h\"|x\n1|2\n"},
		{"ignore more than there are", DefaultFormat, "a\n", 1, 5, ""},
		{"starting by", start, "xxxa\tb\nno prefix\nzzzxxxc\td\n", 2, 0, "a|b\nc|d\n"},
		{"starting by none", start, "abc\n", 2, 0, ""},
		{"same terminators", same, "1,2,3,4,5", 2, 0, "1|2\n3|4\n5 short\n"},
		{"zero fields", DefaultFormat, "a\nb\n", 0, 0, " cut\n cut\n"},
		{"empty", DefaultFormat, "", 2, 0, ""},
	} {
		got := render(t, tc.f, tc.in, tc.n, tc.skip, nil)
		if got != tc.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
		// Byte by byte from the stream: the same rows.
		got = render(t, tc.f, tc.in, tc.n, tc.skip, iotest.OneByteReader(strings.NewReader(tc.in)))
		if got != tc.want {
			t.Errorf("%s (one byte reads): got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
		got = render(t, tc.f, tc.in, tc.n, tc.skip, nil, true)
		if got != tc.want {
			t.Errorf("%s (prefetched): got\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

func TestReaderRowCountAndBytes(t *testing.T) {
	rd := NewReader(strings.NewReader("h\n1\n2\n"), DefaultFormat)
	if _, err := rd.Skip(1, 1); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		if _, _, err := rd.Next(1); err != nil {
			t.Fatal(err)
		}
		if rd.Row() != int64(i) {
			t.Errorf("row %d: Row() = %d", i, rd.Row())
		}
	}
	if _, _, err := rd.Next(1); err != io.EOF {
		t.Errorf("end: %v", err)
	}
	if rd.BytesRead() != 6 {
		t.Errorf("BytesRead = %d", rd.BytesRead())
	}
}

func TestReaderMaxRow(t *testing.T) {
	rd := NewReader(strings.NewReader(strings.Repeat("x", 100)+"\n"), DefaultFormat)
	rd.MaxRowBytes = 10
	if _, _, err := rd.Next(1); err != ErrRowTooLong {
		t.Errorf("got %v", err)
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestReaderStreamError(t *testing.T) {
	rd := NewReader(io.MultiReader(strings.NewReader("1\t2\n3"), failReader{}), DefaultFormat)
	if _, _, err := rd.Next(2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rd.Next(2); err != io.ErrUnexpectedEOF {
		t.Errorf("got %v", err)
	}
}

// FuzzReader: no input and no format panics, every row has at most the
// fields asked for, and reading in one-byte pieces gives the same rows.
func FuzzReader(f *testing.F) {
	for _, s := range []string{"1\t2\n", "\"a\"\"b\",c\r\n", "\\N\t\\", "xxx\"", "a||b<EOL>", ""} {
		f.Add(s, ",", "\n", "", byte('"'), byte('\\'), uint8(2), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in, ft, lt, ls string, encl, esc byte, n, skip uint8) {
		fm := Format{FieldTerm: ft, LineTerm: lt, LineStart: ls, Enclosed: int(encl), Escape: int(esc)}
		if encl == 0 {
			fm.Enclosed = -1
		}
		if esc == 0 {
			fm.Escape = -1
		}
		if ft == "" && fm.Enclosed < 0 {
			return // fixed-width rows: refused before reading
		}
		want := int(n % 5)
		a := render(t, fm, in, want, uint64(skip%3), nil)
		b := render(t, fm, in, want, uint64(skip%3), iotest.OneByteReader(strings.NewReader(in)))
		if a != b {
			t.Fatalf("whole %q vs one-byte %q", a, b)
		}
		if c := render(t, fm, in, want, uint64(skip%3), nil, true); a != c {
			t.Fatalf("whole %q vs prefetched %q", a, c)
		}
	})
}

// TestPrefetchBatches: rows spread over many batches (and rows larger
// than a batch) come out as the reader gives them, with their numbers;
// the reader's error ends them; Close mid-stream stops the goroutine.
func TestPrefetchBatches(t *testing.T) {
	var in strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&in, "%d\t%s\t\\N\n", i, strings.Repeat("x", i%97))
		if i == 2500 {
			fmt.Fprintf(&in, "big\t%s\n", strings.Repeat("y", 3*batchBytes))
		}
	}
	want := render(t, DefaultFormat, in.String(), 3, 0, nil)
	if got := render(t, DefaultFormat, in.String(), 3, 0, nil, true); got != want {
		t.Fatalf("prefetched rows differ (%d vs %d bytes)", len(got), len(want))
	}
	p := NewPrefetch(NewReader(strings.NewReader(in.String()), DefaultFormat), 3)
	for i := 1; i <= 3000; i++ {
		if _, _, err := p.Next(); err != nil || p.Row() != int64(i) {
			t.Fatalf("row %d: number %d, %v", i, p.Row(), err)
		}
	}
	p.Close()
	p.Close()
	bad := NewPrefetch(NewReader(iotest.TimeoutReader(strings.NewReader("1\t2\n3\t4\n")), DefaultFormat), 2)
	defer bad.Close()
	for {
		_, _, err := bad.Next()
		if err == io.EOF {
			t.Fatal("the stream's error was lost")
		}
		if err != nil {
			if err != iotest.ErrTimeout {
				t.Fatalf("got %v", err)
			}
			break
		}
	}
}

// BenchmarkReader reads page-view-like rows: no allocation per row or
// field once the buffers have grown.
func BenchmarkReader(b *testing.B) {
	row := "123456\t2026-11-24 10:11:12\t4242\thttps://example.com/section1/page-1.html?ref=abc\t\"quoted, text\"\tUS\n"
	data := []byte(strings.Repeat(row, 1000))
	f := DefaultFormat
	f.Enclosed = '"'
	b.SetBytes(int64(len(row)))
	b.ReportAllocs()
	rd := NewReader(&repeatReader{data: data}, f)
	for i := 0; i < b.N; i++ {
		if _, _, err := rd.Next(6); err != nil {
			b.Fatal(err)
		}
	}
}

// repeatReader returns data over and over.
type repeatReader struct {
	data []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.data[r.off:])
	r.off = (r.off + n) % len(r.data)
	return n, nil
}

// TestPrefetchWork: several workers process the batches; the caller meets
// every row in file order with its own batch's result.
func TestPrefetchWork(t *testing.T) {
	var in strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&in, "%d\t%s\n", i, strings.Repeat("x", i%50))
	}
	fn := func(b *Batch, prev any) any {
		out, _ := prev.([]string)
		out = out[:0]
		for i := range b.Len() {
			fields, _, num := b.Row(i)
			out = append(out, fmt.Sprintf("%d:%s", num, fields[0].Value))
		}
		return out
	}
	p := NewPrefetchWork(NewReader(strings.NewReader(in.String()), DefaultFormat), 2, 3, fn)
	defer p.Close()
	for i := range 20000 {
		fields, _, err := p.Next()
		if err != nil {
			t.Fatal(err)
		}
		res, k := p.Result()
		if got, want := res.([]string)[k], fmt.Sprintf("%d:%d", i+1, i); got != want || string(fields[0].Value) != fmt.Sprint(i) {
			t.Fatalf("row %d: result %q, field %q", i, got, fields[0].Value)
		}
	}
	if _, _, err := p.Next(); err != io.EOF {
		t.Fatalf("after the last row: %v", err)
	}
	// Closing mid-stream with workers stops them all.
	q := NewPrefetchWork(NewReader(strings.NewReader(in.String()), DefaultFormat), 2, 2, fn)
	if _, _, err := q.Next(); err != nil {
		t.Fatal(err)
	}
	q.Close()
}
