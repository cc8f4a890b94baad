package sqltest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the kind of a script record.
type Kind int

// Record kinds.
const (
	// KindStatement runs SQL and checks success, the affected-row count or
	// the error number.
	KindStatement Kind = iota + 1
	// KindQuery runs SQL and compares the rows (or the error number).
	KindQuery
	// KindConnection switches the current connection.
	KindConnection
	// KindSleep pauses the script.
	KindSleep
)

// String returns the keyword that introduces records of the kind.
func (k Kind) String() string {
	switch k {
	case KindStatement:
		return "statement"
	case KindQuery:
		return "query"
	case KindConnection:
		return "connection"
	case KindSleep:
		return "sleep"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Condition limits a record to (OnlyIf) or away from (!OnlyIf) a target.
type Condition struct {
	OnlyIf bool
	Target string
}

// EmptyRow is how a result row whose text is empty (one column holding the
// empty string) is spelled, since a blank line ends a result block.
const EmptyRow = "(empty)"

// Record is one command of a script.
type Record struct {
	Kind Kind
	// Line is the 1-based line of the record's header (statement/query/...).
	Line int
	// Conditions are the onlyif/skipif lines that precede the record.
	Conditions []Condition

	// SQL is the statement or query text (lines joined with "\n").
	SQL string
	// NoPrepare sends the SQL as plain text even in prepared mode.
	NoPrepare bool
	// ExpectError means the SQL must fail; ErrorCode is the MySQL error
	// number it must fail with (0 = any error).
	ExpectError bool
	ErrorCode   int
	// Count is the expected affected-row count of a statement (-1 = not
	// checked).
	Count int64

	// RowSort sorts the actual rows before comparing; ColNames puts the
	// column names, tab-separated, before the rows.
	RowSort  bool
	ColNames bool
	// Expected are the expected result lines of a query.
	Expected []string

	// Conn is the connection name of a KindConnection record.
	Conn string
	// Sleep is the pause of a KindSleep record.
	Sleep time.Duration

	// resultFrom and resultTo delimit (0-based, half-open) the lines holding
	// the expected result, used by Rewrite; hasSeparator says whether the
	// query had a "----" line.
	resultFrom, resultTo int
	hasSeparator         bool
}

// Applies reports whether the record runs on target.
func (r *Record) Applies(target string) bool {
	for _, c := range r.Conditions {
		if (c.Target == target) != c.OnlyIf {
			return false
		}
	}
	return true
}

// Script is a parsed .test file.
type Script struct {
	Name string
	// TextOnly is set by a first line "# mode: text": the script is not run
	// in prepared-statement mode.
	TextOnly bool
	Records  []Record
	lines    []string
}

// Parse parses a script. name is used in error messages.
func Parse(name string, src string) (*Script, error) {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	lines := strings.Split(src, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	s := &Script{Name: name, lines: lines}
	if len(lines) > 0 && strings.TrimSpace(strings.TrimPrefix(lines[0], "#")) == "mode: text" {
		s.TextOnly = true
	}
	var conds []Condition
	for i := 0; i < len(lines); {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			i++
			continue
		}
		fields := strings.Fields(line)
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, args...))
		}
		rec := Record{Line: i + 1, Count: -1}
		switch fields[0] {
		case "onlyif", "skipif":
			if len(fields) != 2 {
				return nil, errf("%s needs one target name", fields[0])
			}
			conds = append(conds, Condition{OnlyIf: fields[0] == "onlyif", Target: fields[1]})
			i++
			continue
		case "connection":
			if len(fields) != 2 {
				return nil, errf("connection needs one name")
			}
			rec.Kind, rec.Conn = KindConnection, fields[1]
			i++
		case "sleep":
			if len(fields) != 2 {
				return nil, errf("sleep needs a duration in milliseconds")
			}
			ms, err := strconv.Atoi(fields[1])
			if err != nil || ms < 0 {
				return nil, errf("bad sleep duration %q", fields[1])
			}
			rec.Kind, rec.Sleep = KindSleep, time.Duration(ms)*time.Millisecond
			i++
		case "statement", "query":
			if err := parseHeader(&rec, fields); err != nil {
				return nil, errf("%v", err)
			}
			i++
			var sqlLines []string
			for i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.TrimSpace(lines[i]) != "----" {
				sqlLines = append(sqlLines, lines[i])
				i++
			}
			if len(sqlLines) == 0 {
				return nil, fmt.Errorf("%s:%d: %s without SQL", name, rec.Line, rec.Kind)
			}
			rec.SQL = strings.Join(sqlLines, "\n")
			sep := i < len(lines) && strings.TrimSpace(lines[i]) == "----"
			if sep && rec.Kind != KindQuery {
				return nil, fmt.Errorf("%s:%d: statement has a result block", name, i+1)
			}
			if sep && rec.ExpectError {
				return nil, fmt.Errorf("%s:%d: query error has a result block", name, i+1)
			}
			rec.resultFrom, rec.resultTo = i, i
			if sep {
				rec.hasSeparator = true
				i++
				rec.resultFrom = i
				for i < len(lines) && lines[i] != "" {
					l := lines[i]
					if l == EmptyRow {
						l = ""
					}
					rec.Expected = append(rec.Expected, l)
					i++
				}
				rec.resultTo = i
			}
		default:
			return nil, errf("unknown command %q", fields[0])
		}
		rec.Conditions, conds = conds, nil
		s.Records = append(s.Records, rec)
	}
	if len(conds) > 0 {
		return nil, fmt.Errorf("%s: onlyif/skipif at end of file", name)
	}
	return s, nil
}

// parseHeader reads the options of a statement or query header line.
func parseHeader(rec *Record, fields []string) error {
	if fields[0] == "statement" {
		rec.Kind = KindStatement
	} else {
		rec.Kind = KindQuery
	}
	sawMode := false
	for j := 1; j < len(fields); j++ {
		f := fields[j]
		switch {
		case f == "noprepare":
			rec.NoPrepare = true
		case f == "rowsort" && rec.Kind == KindQuery:
			rec.RowSort = true
		case f == "colnames" && rec.Kind == KindQuery:
			rec.ColNames = true
		case f == "ok" && rec.Kind == KindStatement && !sawMode:
			sawMode = true
		case f == "count" && rec.Kind == KindStatement && !sawMode:
			sawMode = true
			if j+1 >= len(fields) {
				return fmt.Errorf("count needs a number")
			}
			n, err := strconv.ParseInt(fields[j+1], 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("bad count %q", fields[j+1])
			}
			rec.Count = n
			j++
		case f == "error" && !sawMode:
			sawMode = true
			rec.ExpectError = true
			if j+1 < len(fields) {
				if n, err := strconv.Atoi(fields[j+1]); err == nil {
					if n <= 0 {
						return fmt.Errorf("bad error code %q", fields[j+1])
					}
					rec.ErrorCode = n
					j++
				}
			}
		default:
			return fmt.Errorf("unknown %s option %q", rec.Kind, f)
		}
	}
	if rec.Kind == KindStatement && !sawMode {
		return fmt.Errorf("statement needs ok, count N or error [CODE]")
	}
	return nil
}

// Rewrite returns the script's source with the expected results of the
// given records replaced: actual maps a record index (into Records) to the
// result lines a query produced, or to a one-element slice holding the
// affected-row count of a "statement count" record.
func (s *Script) Rewrite(actual map[int][]string) string {
	var b strings.Builder
	next := 0 // next source line to copy
	for idx := range s.Records {
		got, ok := actual[idx]
		if !ok {
			continue
		}
		r := &s.Records[idx]
		switch r.Kind {
		case KindStatement:
			if r.Count < 0 || len(got) != 1 {
				continue
			}
			h := r.Line - 1
			copyLines(&b, s.lines[next:h])
			b.WriteString(rewriteCount(s.lines[h], got[0]))
			b.WriteByte('\n')
			next = h + 1
		case KindQuery:
			if r.ExpectError {
				continue
			}
			copyLines(&b, s.lines[next:r.resultFrom])
			if !r.hasSeparator {
				b.WriteString("----\n")
			}
			for _, l := range got {
				if l == "" {
					l = EmptyRow
				}
				b.WriteString(l)
				b.WriteByte('\n')
			}
			next = r.resultTo
		}
	}
	copyLines(&b, s.lines[next:])
	return b.String()
}

func copyLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// rewriteCount replaces the number after "count" in a statement header.
func rewriteCount(header, n string) string {
	fields := strings.Fields(header)
	for j := 0; j+1 < len(fields); j++ {
		if fields[j] == "count" {
			fields[j+1] = n
		}
	}
	return strings.Join(fields, " ")
}
