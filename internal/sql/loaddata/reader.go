// Package loaddata reads the text files of LOAD DATA: a streaming row
// source that turns a byte stream (a server file, or the packets of a LOAD
// DATA LOCAL transfer) into rows of fields, with MySQL's field and line
// rules (FIELDS TERMINATED BY, [OPTIONALLY] ENCLOSED BY, ESCAPED BY, LINES
// STARTING BY and TERMINATED BY, IGNORE n LINES).
//
// The rules are those of MySQL 8.0's READ_INFO (sql_load.cc), byte for
// byte:
//
//   - A field that starts with the enclosing character is enclosed: it
//     ends at the enclosing character followed by the field or line
//     terminator (or the end of the file); inside it, line terminators
//     are data and a doubled enclosing character stands for one. An
//     enclosed field that never closes keeps its opening character.
//   - The escape character makes the next byte literal, except that \0
//     \b \n \r \t \Z stand for NUL, backspace, newline, carriage return,
//     tab and Ctrl-Z; a field that is exactly \N is NULL. When the escape
//     and enclosing characters are the same, only a doubled one is an
//     escape (CSV's "").
//   - An unenclosed field that is the word NULL is NULL when ENCLOSED BY
//     is set.
//   - After the fields a row needs, the rest of the line is skipped; the
//     row is reported truncated (MySQL's warning 1262) when anything but
//     the line terminator was there.
//   - With LINES STARTING BY, a row starts after the next occurrence of
//     the prefix (text before it, on any line, is skipped).
//
// The reader never holds more than its read buffer and the current row:
// Next returns fields that alias the reader's row buffer, valid until the
// next call, so a load of any size parses without allocating per field.
// What the rows become (columns, conversions, writes) is the caller's.
package loaddata

import (
	"errors"
	"io"
	"sync/atomic"

	"github.com/strata-db/strata/internal/sql/parse"
)

// Format is the FIELDS and LINES options of a LOAD DATA statement.
type Format struct {
	// FieldTerm separates fields ("" for none).
	FieldTerm string
	// Enclosed is the enclosing character, -1 for none.
	Enclosed int
	// Escape is the escape character, -1 for none.
	Escape int
	// LineStart is the LINES STARTING BY prefix ("" for none).
	LineStart string
	// LineTerm ends a line. When it is empty or equal to FieldTerm, rows
	// are not cut at lines: each row takes the next fields it needs.
	LineTerm string
}

// DefaultFormat is LOAD DATA's default: tab-separated fields, no
// enclosure, backslash escapes, newline-terminated lines.
var DefaultFormat = Format{FieldTerm: "\t", Enclosed: -1, Escape: '\\', LineTerm: "\n"}

// Field is one field of a row. Value aliases the reader's row buffer.
type Field struct {
	Value []byte
	// Null: the field was \N, or the unenclosed word NULL with ENCLOSED BY
	// set.
	Null bool
	// Enclosed: the field was enclosed.
	Enclosed bool
}

// ErrRowTooLong is a row longer than Reader.MaxRowBytes.
var ErrRowTooLong = errors.New("loaddata: row exceeds the maximum row size")

const eof = -1

// Reader reads rows from a stream.
type Reader struct {
	r   io.Reader
	f   Format
	err error // the stream's error (io.EOF at its end)

	buf      []byte // read buffer
	pos, end int
	push     []int // pushed-back bytes, last first (MySQL's PUSH)

	// fieldTerm and lineTerm are the terminators' first bytes (-1: none).
	fieldTerm, lineTerm int
	lineTermS           string
	// special marks the bytes a field's bytes are read one at a time
	// for: the escape and enclosure characters and the terminators'
	// first bytes. A run of other bytes is copied at once (plain).
	special [256]bool

	row       []byte  // the current row's field bytes
	bounds    []int   // end of each field in row
	fields    []Field // the current row
	foundEOL  bool    // the last field ended its line
	atEOF     bool    // the stream ended while reading a row
	foundNull bool

	// MaxRowBytes bounds one row's field bytes (0: no bound).
	MaxRowBytes int

	rows  int64
	bytes atomic.Int64
}

// NewReader returns a reader of r in format f.
func NewReader(r io.Reader, f Format) *Reader {
	rd := &Reader{r: r, f: f, buf: make([]byte, 64<<10), fieldTerm: -1, lineTerm: -1}
	if f.FieldTerm != "" {
		rd.fieldTerm = int(f.FieldTerm[0])
	}
	rd.lineTermS = f.LineTerm
	if f.LineTerm == f.FieldTerm {
		rd.lineTermS = ""
	}
	if rd.lineTermS != "" {
		rd.lineTerm = int(rd.lineTermS[0])
	}
	for _, c := range []int{rd.fieldTerm, rd.lineTerm, f.Escape, f.Enclosed} {
		if c >= 0 && c <= 0xff {
			rd.special[c] = true
		}
	}
	return rd
}

// plain copies the run of bytes at the read position that are none of
// the special ones into the current field (what the byte-at-a-time loop
// of readField would do with them), within MaxRowBytes.
func (rd *Reader) plain() {
	if len(rd.push) > 0 {
		return
	}
	b := rd.buf[rd.pos:rd.end]
	if rd.MaxRowBytes > 0 {
		b = b[:min(len(b), max(0, rd.MaxRowBytes-len(rd.row)))]
	}
	n := 0
	for n < len(b) && !rd.special[b[n]] {
		n++
	}
	rd.row = append(rd.row, b[:n]...)
	rd.pos += n
}

// BytesRead is the number of bytes taken from the stream so far; it may be
// read from another goroutine (progress reports).
func (rd *Reader) BytesRead() int64 { return rd.bytes.Load() }

// Row is the number of rows Next has returned (the 1-based number of the
// current row, as MySQL's messages count rows: lines skipped by Skip are
// not counted).
func (rd *Reader) Row() int64 { return rd.rows }

// get returns the next byte, or eof.
func (rd *Reader) get() int {
	if n := len(rd.push); n > 0 {
		c := rd.push[n-1]
		rd.push = rd.push[:n-1]
		return c
	}
	if rd.pos < rd.end {
		c := rd.buf[rd.pos]
		rd.pos++
		return int(c)
	}
	return rd.fill()
}

// fill refills the read buffer and returns its first byte.
func (rd *Reader) fill() int {
	for rd.err == nil {
		n, err := rd.r.Read(rd.buf)
		if n > 0 {
			rd.bytes.Add(int64(n))
		}
		if err != nil {
			rd.err = err
		}
		if n > 0 {
			rd.pos, rd.end = 1, n
			return int(rd.buf[0])
		}
	}
	return eof
}

func (rd *Reader) unget(c int) { rd.push = append(rd.push, c) }

// Err returns the stream's error, nil at a clean end.
func (rd *Reader) Err() error {
	if rd.err == io.EOF {
		return nil
	}
	return rd.err
}

// terminator reports whether the rest of term (whose first byte was just
// read) follows; if not, the bytes read are pushed back.
func (rd *Reader) terminator(term string) bool {
	for i := 1; i < len(term); i++ {
		c := rd.get()
		if c != int(term[i]) {
			rd.unget(c)
			for i--; i > 0; i-- {
				rd.unget(int(term[i]))
			}
			return false
		}
	}
	return true
}

// Skip skips n lines (IGNORE n LINES) as MySQL does: n lines, an escaped
// terminator not counting and enclosures not considered (a header line
// holding an enclosed line terminator is two lines); without line
// terminators, n rows as Next reads them. It reports false when the stream
// ended first.
func (rd *Reader) Skip(n uint64, fieldsPerRow int) (bool, error) {
	for ; n > 0; n-- {
		if rd.lineTerm < 0 {
			if _, _, err := rd.next(max(fieldsPerRow, 1)); err != nil {
				if err == io.EOF {
					return false, rd.Err()
				}
				return false, err
			}
			continue
		}
		if _, end := rd.nextLine(); end {
			return false, rd.Err()
		}
	}
	return true, nil
}

// nextLine skips the rest of the current line (MySQL's next_line):
// cut reports whether anything but the terminator was there, end whether
// the stream ended first.
func (rd *Reader) nextLine() (cut, end bool) {
	if rd.foundEOL || rd.atEOF {
		rd.foundEOL = false
		return false, rd.atEOF
	}
	if rd.lineTerm < 0 {
		return false, false
	}
	for {
		c := rd.get()
		if c == eof {
			rd.atEOF = true
			return cut, true
		}
		if c == rd.f.Escape {
			cut = true
			if rd.get() == eof {
				rd.atEOF = true
				return cut, true
			}
			continue
		}
		if c == rd.lineTerm && rd.terminator(rd.lineTermS) {
			return cut, false
		}
		cut = true
	}
}

// findStart skips to just after the next LINES STARTING BY prefix; false
// at the end of the stream.
func (rd *Reader) findStart() bool {
	p := rd.f.LineStart
	for {
		c := rd.get()
		for c != int(p[0]) {
			if c == eof {
				return false
			}
			c = rd.get()
		}
		if rd.terminator(p) {
			return true
		}
	}
}

// Next reads the next row of up to n fields. It returns the fields read
// (fewer than n when the line ended first: MySQL's warning 1261) and
// whether the line held more than n fields (warning 1262); io.EOF when
// there are no more rows. The fields are valid until the next call.
func (rd *Reader) Next(n int) ([]Field, bool, error) {
	fs, cut, err := rd.next(n)
	if err == nil {
		rd.rows++
	}
	return fs, cut, err
}

func (rd *Reader) next(n int) ([]Field, bool, error) {
	if n == 0 && rd.lineTerm < 0 {
		// No lines to skip: a row of no fields takes one, to move on.
		fs, cut, err := rd.next(1)
		return fs[:0], cut, err
	}
	rd.row, rd.bounds, rd.fields = rd.row[:0], rd.bounds[:0], rd.fields[:0]
	if rd.atEOF {
		return nil, false, rd.eofErr()
	}
	if rd.f.LineStart != "" && !rd.findStart() {
		rd.atEOF = true
		return nil, false, rd.eofErr()
	}
	if n == 0 {
		c := rd.get()
		if c == eof {
			rd.atEOF = true
			return nil, false, rd.eofErr()
		}
		rd.unget(c)
		cut, end := rd.nextLine()
		return rd.fields, cut && !end, rd.Err()
	}
	for len(rd.fields) < n {
		start := len(rd.row)
		ok, enclosed, err := rd.readField()
		if err != nil {
			return nil, false, err
		}
		if !ok {
			break
		}
		v := rd.row[start:]
		if enclosed {
			v = v[1:]
		}
		null := (len(v) == 1 && rd.foundNull) || (!enclosed && rd.f.Enclosed >= 0 && string(v) == "NULL")
		rd.fields = append(rd.fields, Field{Value: v[:len(v):len(v)], Null: null, Enclosed: enclosed})
		if rd.foundEOL || rd.atEOF {
			break
		}
	}
	if len(rd.fields) == 0 {
		if err := rd.Err(); err != nil {
			return nil, false, err
		}
		return nil, false, io.EOF
	}
	if len(rd.fields) < n {
		rd.foundEOL = false
		return rd.fields, false, nil
	}
	// MySQL's next_line: a line the stream ends in is not reported cut.
	cut, end := rd.nextLine()
	cut = cut && !end
	if err := rd.Err(); err != nil {
		return nil, false, err
	}
	return rd.fields, cut, nil
}

func (rd *Reader) eofErr() error {
	if err := rd.Err(); err != nil {
		return err
	}
	return io.EOF
}

// add appends a byte to the current field.
func (rd *Reader) add(c int) error {
	if rd.MaxRowBytes > 0 && len(rd.row) >= rd.MaxRowBytes {
		return ErrRowTooLong
	}
	rd.row = append(rd.row, byte(c))
	return nil
}

// unescape is MySQL's READ_INFO::unescape.
func (rd *Reader) unescape(c int) int {
	if c == 'N' {
		rd.foundNull = true
		return c
	}
	if c < 0 || c > 0xff {
		return c
	}
	return int(parse.UnescapeByte(byte(c)))
}

// readField reads one field into rd.row (MySQL's READ_INFO::read_field).
// ok is false when the stream ended before the field began. The bytes of
// an enclosed field start with its opening character.
func (rd *Reader) readField() (ok, enclosed bool, err error) {
	rd.foundNull = false
	c := rd.get()
	if c == eof {
		rd.atEOF = true
		return false, false, rd.Err()
	}
	quote := -2 // no enclosure: matches no byte
	if c == rd.f.Enclosed && c >= 0 {
		quote = c
		if err := rd.add(c); err != nil {
			return false, false, err
		}
	} else {
		rd.unget(c)
	}
	for {
		rd.plain()
		c = rd.get()
		if c == eof {
			rd.atEOF = true
			return true, false, rd.Err()
		}
		if c == rd.f.Escape && c >= 0 {
			next := rd.get()
			if next == eof {
				rd.atEOF = true
				return true, false, rd.add(c)
			}
			if rd.f.Escape != rd.f.Enclosed || next == rd.f.Escape {
				if err := rd.add(rd.unescape(next)); err != nil {
					return false, false, err
				}
				continue
			}
			rd.unget(next)
		}
		if c == rd.lineTerm && quote == -2 && rd.terminator(rd.lineTermS) {
			rd.foundEOL = true
			return true, false, nil
		}
		if c == quote {
			next := rd.get()
			if next == quote {
				if err := rd.add(c); err != nil {
					return false, false, err
				}
				continue
			}
			if next == eof {
				rd.atEOF = true
				return true, true, nil
			}
			if next == rd.lineTerm && rd.terminator(rd.lineTermS) {
				rd.foundEOL = true
				return true, true, nil
			}
			if next == rd.fieldTerm && rd.terminator(rd.f.FieldTerm) {
				return true, true, nil
			}
			rd.unget(next)
		} else if c == rd.fieldTerm && quote == -2 && rd.terminator(rd.f.FieldTerm) {
			return true, false, nil
		}
		if err := rd.add(c); err != nil {
			return false, false, err
		}
	}
}
