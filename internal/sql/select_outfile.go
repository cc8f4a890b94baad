package sql

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SELECT ... INTO OUTFILE 'file' [FIELDS ...] [LINES ...] and INTO
// DUMPFILE 'file' write the result to a new file on the server, as
// MySQL's Query_result_export and Query_result_dump do.
//
// Where: secure_file_priv (a read-only global, set by strata serve's
// --secure-file-priv) names the only directory files may be written to;
// "" allows any, NULL none (1290 either way when refused). A relative
// name is relative to the data directory (MySQL: the default database's
// directory, which strata does not have), so under a secure_file_priv
// directory only absolute names inside it are allowed. The directory is
// compared after symbolic links are resolved. An existing file is never
// overwritten (1086); a file that cannot be created is MySQL's error 1.
// The statement needs the FILE privilege (authorize.go).
//
// Format (OUTFILE): FIELDS TERMINATED BY (default tab), [OPTIONALLY]
// ENCLOSED BY (default none), ESCAPED BY (default backslash, none under
// NO_BACKSLASH_ESCAPES), LINES STARTING BY (default none) and TERMINATED
// BY (default newline), with
// MySQL's rules: NULL is the escape character and N (the word NULL
// without one), never enclosed; OPTIONALLY encloses only string-typed
// columns (text, binary, temporal, JSON, ENUM, SET); in string-typed
// values — and in every value when the enclosing character could occur in
// a number — the escape character precedes itself, the enclosing
// character (or, without one, the first character of the field
// terminator), the first character of the line terminator and NUL
// (written as escape + '0'). Only the first byte of the enclosing and
// escape strings counts, as in MySQL. Fixed-width output (empty
// terminator and enclosure) answers 1235, as does a CHARACTER SET other
// than utf8mb4 or binary (values are written as the result holds them,
// utf8mb4 text). DUMPFILE writes the one row's
// values back to back with no separators, NULL as one NUL byte (more than
// one row: 1172).
//
// The rows are written as the query produces them (a streamed SELECT's
// batches go to the file instead of the client, so an export of any size
// runs in bounded memory); on any error the file is removed.

// outfile is an INTO OUTFILE / DUMPFILE target, created (empty) before
// the query runs.
type outfile struct {
	path string
	f    *os.File
	dump bool
	exportFormat
	// warn records a warning of the statement.
	warn func(level string, code uint16, msg string)

	// Writing state (writeBatch).
	w         *bufio.Writer
	stringCol []bool // per column: a string type (escaped, OPTIONALLY enclosed)
	buf       []byte
	rows      uint64
}

// exportFormat is the FIELDS and LINES options of INTO OUTFILE.
type exportFormat struct {
	fieldTerm, enclosed, lineTerm, lineStart string
	escape                                   int // -1: none
	optEnclosed                              bool
}

// escapeChars and numericChars are MySQL's ESCAPE_CHARS and
// NUMERIC_CHARS: a field enclosure among the first is doubled rather than
// escaped; one among the second makes numbers escaped too.
const (
	escapeChars  = "ntrb0ZN"
	numericChars = ".0123456789e+-"
)

// openOutfile checks the target of INTO OUTFILE / DUMPFILE and creates
// it.
func (s *Session) openOutfile(into *sqlparser.SelectInto) (*outfile, error) {
	o := &outfile{dump: into.Type == sqlparser.IntoDumpfile, warn: s.warn}
	o.exportFormat = exportFormat{fieldTerm: "\t", lineTerm: "\n", escape: '\\'}
	if !o.dump {
		if err := o.parseOptions(into.ExportOption, s.sqlMode.noBackslashEscapes); err != nil {
			return nil, err
		}
	}
	switch cs := strings.ToLower(into.Charset.Name); cs {
	case "", "binary", "utf8mb4", "utf8", "utf8mb3":
		// Values are written as the result holds them (utf8mb4 text).
	default:
		return nil, sqlerr.Unsupported("SELECT ... INTO OUTFILE ... CHARACTER SET %s", cs)
	}
	name := sqlStringValue(into.FileName)
	path, err := s.securePath(name)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, sqlerr.New(sqlerr.FileExists, sqlerror.SSUnknownSQLState, "File '%s' already exists", path)
		}
		return nil, cantCreate(path, err)
	}
	o.path, o.f = path, f
	return o, nil
}

// securePath resolves a file name and checks it against
// secure_file_priv.
func (s *Session) securePath(name string) (string, error) {
	refused := sqlerr.New(sqlerr.SecureFilePriv, sqlerror.SSUnknownSQLState, "The MySQL server is running with the --secure-file-priv option so it cannot execute this statement")
	priv, _ := s.sysVar("secure_file_priv")
	if priv.IsNull() {
		return "", refused
	}
	path := name
	if !filepath.IsAbs(path) {
		dd, _ := s.sysVar("datadir")
		path = filepath.Join(dd.ToString(), path)
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return "", cantCreate(name, err)
	}
	dir := priv.ToString()
	if dir == "" {
		return path, nil
	}
	// Compare real directories: a symbolic link must not lead out.
	realDir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", refused
	}
	realPriv, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", refused
	}
	if realDir != realPriv && !strings.HasPrefix(realDir, realPriv+string(filepath.Separator)) {
		return "", refused
	}
	return path, nil
}

func cantCreate(path string, err error) error {
	return fileErr(sqlerr.CantCreateWriteFile, "Can't create/write to file '%s' (OS errno %d - %s)", path, err)
}

// parseOptions reads Vitess's text of the FIELDS and LINES options
// (" fields terminated by ',' optionally enclosed by '\"' lines ...",
// strings SQL-quoted).
func (e *exportFormat) parseOptions(text string, noBackslashEscapes bool) error {
	toks, err := optionTokens(text)
	if err != nil {
		return err
	}
	escaped := "\\"
	if noBackslashEscapes {
		// MySQL: no default escape character under NO_BACKSLASH_ESCAPES.
		escaped = ""
	}
	enclosed := ""
	lineTermGiven := false
	section := ""
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.word {
		case "fields", "columns", "lines":
			section = t.word
			if section == "columns" {
				section = "fields"
			}
			continue
		case "optionally":
			e.optEnclosed = true
			continue
		}
		// "<verb> by '<string>'"
		if i+2 >= len(toks) || toks[i+1].word != "by" || !toks[i+2].str {
			return sqlerr.Unsupported("INTO OUTFILE option %s", t.word)
		}
		v := toks[i+2].text
		i += 2
		switch {
		case section == "fields" && t.word == "terminated":
			e.fieldTerm = v
		case section == "fields" && t.word == "enclosed":
			enclosed = v
		case section == "fields" && t.word == "escaped":
			escaped = v
		case section == "lines" && t.word == "terminated":
			e.lineTerm, lineTermGiven = v, true
		case section == "lines" && t.word == "starting":
			e.lineStart = v
		default:
			return sqlerr.Unsupported("INTO OUTFILE option %s", t.word)
		}
	}
	if enclosed != "" {
		e.enclosed = enclosed[:1]
	}
	e.escape = -1
	if escaped != "" {
		e.escape = int(escaped[0])
	}
	if !lineTermGiven {
		e.lineTerm = "\n"
	}
	if e.lineTerm == "" {
		e.lineTerm = e.fieldTerm
	}
	if e.fieldTerm == "" && e.enclosed == "" {
		return sqlerr.Unsupported("INTO OUTFILE with fixed-width fields (empty FIELDS TERMINATED BY and ENCLOSED BY)")
	}
	if e.fieldTerm == "" {
		e.optEnclosed = false
	}
	return nil
}

type optionToken struct {
	word string // lower-case keyword, or "" for a string
	text string // the string's value
	str  bool
}

func optionTokens(text string) ([]optionToken, error) {
	var out []optionToken
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == ' ':
			i++
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, sqlerr.Unsupported("INTO OUTFILE options %s", text)
			}
			out = append(out, optionToken{text: sqlStringValue(text[i : j+1]), str: true})
			i = j + 1
		default:
			j := i
			for j < len(text) && text[j] != ' ' {
				j++
			}
			out = append(out, optionToken{word: strings.ToLower(text[i:j])})
			i = j
		}
	}
	return out, nil
}

// sqlStringValue decodes a string literal as Vitess prints it (quoted,
// backslash escapes).
func sqlStringValue(q string) string {
	if len(q) < 2 || (q[0] != '\'' && q[0] != '"') || q[len(q)-1] != q[0] {
		return q
	}
	q = q[1 : len(q)-1]
	if !strings.ContainsAny(q, "\\'\"") {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if (c == '\'' || c == '"') && i+1 < len(q) && q[i+1] == c {
			b.WriteByte(c)
			i++
			continue
		}
		if c != '\\' || i+1 == len(q) {
			b.WriteByte(c)
			continue
		}
		i++
		b.WriteByte(parse.UnescapeByte(q[i]))
	}
	return b.String()
}

// writeBatch writes rows of the result: it is the row sink's send
// function while the query runs (batches of a streamed SELECT, whose rows
// are reused once it returns) and then takes the rows returned at the
// end. The first batch's fields fix the column kinds.
func (o *outfile) writeBatch(res *sqltypes.Result) error {
	if o.w == nil {
		o.w = bufio.NewWriterSize(o.f, 64<<10)
		o.stringCol = make([]bool, len(res.Fields))
		for i, f := range res.Fields {
			o.stringCol[i] = !sqltypes.IsNumber(f.Type) && f.Type != sqltypes.Year && f.Type != sqltypes.Bit
		}
		if !o.dump && o.ambiguousTerm(o.stringCol) && o.warn != nil {
			o.warn("Warning", 1475, "First character of the FIELDS TERMINATED string is ambiguous; please use non-optional and non-empty FIELDS ENCLOSED BY")
		}
	}
	for _, r := range res.Rows {
		o.rows++
		if o.dump {
			if o.rows > 1 {
				return sqlerr.New(sqlerror.ERTooManyRows, "42000", "Result consisted of more than one row")
			}
			for _, v := range r {
				if v.IsNull() {
					// MySQL writes one NUL byte for NULL.
					_ = o.w.WriteByte(0)
					continue
				}
				_, _ = o.w.Write(v.Raw())
			}
			continue
		}
		o.buf = o.appendRow(o.buf[:0], r, o.stringCol)
		if _, err := o.w.Write(o.buf); err != nil {
			return cantCreate(o.path, err)
		}
	}
	return nil
}

// finish flushes and closes the file; the statement's OK result counts
// the rows written. On error the file is removed.
func (o *outfile) finish() (*sqltypes.Result, error) {
	var err error
	if o.w != nil {
		if ferr := o.w.Flush(); ferr != nil {
			err = cantCreate(o.path, ferr)
		}
	}
	if cerr := o.f.Close(); err == nil && cerr != nil {
		err = cantCreate(o.path, cerr)
	}
	if err != nil {
		_ = os.Remove(o.path)
		return nil, err
	}
	return &sqltypes.Result{RowsAffected: o.rows}, nil
}

// abort removes the file of a statement that failed.
func (o *outfile) abort() {
	_ = o.f.Close()
	_ = os.Remove(o.path)
}

// appendRow appends one line of INTO OUTFILE (Query_result_export's
// send_data).
func (e *exportFormat) appendRow(buf []byte, r []sqltypes.Value, stringCol []bool) []byte {
	const none = 1 << 10 // no character: compares unequal to every byte
	fieldTermChar, lineSepChar := none, none
	if e.fieldTerm != "" {
		fieldTermChar = int(e.fieldTerm[0])
	}
	if e.lineTerm != "" {
		lineSepChar = int(e.lineTerm[0])
	}
	fieldSepChar := fieldTermChar
	if e.enclosed != "" {
		fieldSepChar = int(e.enclosed[0])
	}
	ambiguousSep := fieldSepChar < none && strings.IndexByte(escapeChars, byte(fieldSepChar)) >= 0
	unsafeSep := fieldSepChar < none && strings.IndexByte(numericChars, byte(fieldSepChar)) >= 0
	ambiguousTerm := e.ambiguousTerm(stringCol)
	buf = append(buf, e.lineStart...)
	for i, v := range r {
		isString := i < len(stringCol) && stringCol[i]
		enclosed := e.enclosed != "" && (!e.optEnclosed || isString)
		if v.IsNull() {
			if e.escape >= 0 {
				buf = append(buf, byte(e.escape), 'N')
			} else {
				buf = append(buf, "NULL"...)
			}
		} else {
			if enclosed {
				buf = append(buf, e.enclosed...)
			}
			raw := v.Raw()
			if (isString || unsafeSep) && e.escape >= 0 {
				for _, c := range raw {
					ci := int(c)
					need := ci == e.escape || ci == lineSepChar || c == 0
					if enclosed {
						need = need || ci == fieldSepChar
					} else {
						need = need || ci == fieldTermChar
					}
					if need && (enclosed || !ambiguousTerm || ci != fieldTermChar) {
						if ci == fieldSepChar && ambiguousSep {
							buf = append(buf, byte(fieldSepChar))
						} else {
							buf = append(buf, byte(e.escape))
						}
						if c == 0 {
							c = '0'
						}
					}
					buf = append(buf, c)
				}
			} else {
				buf = append(buf, raw...)
			}
			if enclosed {
				buf = append(buf, e.enclosed...)
			}
		}
		if i < len(r)-1 {
			buf = append(buf, e.fieldTerm...)
		}
	}
	return append(buf, e.lineTerm...)
}

// ambiguousTerm is MySQL's is_ambiguous_field_term: the field
// terminator's first character is not escaped in values (and the
// statement warns 1475) when it is one of escapeChars with no enclosure,
// or a digit-like character while some column is not enclosed.
func (e *exportFormat) ambiguousTerm(stringCol []bool) bool {
	if e.fieldTerm == "" {
		return false
	}
	c := e.fieldTerm[0]
	if e.enclosed == "" && strings.IndexByte(escapeChars, c) >= 0 {
		return true
	}
	if (e.optEnclosed || e.enclosed == "") && strings.IndexByte(numericChars, c) >= 0 {
		for _, str := range stringCol {
			if !str {
				return true
			}
		}
	}
	return false
}

// String describes the format (for tests).
func (e *exportFormat) String() string {
	return fmt.Sprintf("term=%q enc=%q opt=%v esc=%d line=%q start=%q", e.fieldTerm, e.enclosed, e.optEnclosed, e.escape, e.lineTerm, e.lineStart)
}
