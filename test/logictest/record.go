// Package logictest runs sqllogictest files (the SQLite corpus format, here
// with MySQL 8.0 results) through the MySQL protocol against a real server,
// one fresh database per file, and checks after every file that a constant
// query still answers correctly (a wrong answer means an earlier statement
// corrupted state shared between queries).
//
// Format (one record per blank-line-separated block, `#` starts a comment):
//
//	statement ok | statement error          + SQL
//	query <types> [nosort|rowsort|valuesort] [label]
//	                                        + SQL + ---- + expected values
//	hash-threshold N | halt
//	skipif <engine> | onlyif <engine>       conditions on the next record
//
// Expected values are one per line, or "N values hashing to <md5>": the md5
// of every value followed by "\n", after sorting as the record says. Column
// types: I integer (fraction truncated toward zero), R real ("%.3f"), T text
// ("(empty)" for the empty string). NULL is "NULL". strata runs as engine
// "mysql".
package logictest

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Engine is the name skipif/onlyif conditions are matched against.
const Engine = "mysql"

// Kind of a record.
type Kind uint8

const (
	// Statement runs SQL and checks it succeeds (or fails).
	Statement Kind = iota
	// Query runs SQL and checks its result.
	Query
	// HashThreshold sets the number of values above which results are
	// compared by hash (informational here: expected hashes are compared
	// whenever the file gives one).
	HashThreshold
	// Halt stops the file.
	Halt
)

// SortMode of a query's result before comparison.
type SortMode uint8

const (
	// NoSort compares rows in the order returned.
	NoSort SortMode = iota
	// RowSort sorts rows (column strings compared in order).
	RowSort
	// ValueSort sorts all values individually.
	ValueSort
)

// Record is one statement or query of a file.
type Record struct {
	Kind Kind
	// Line is the 1-based line of the record's header ("statement ..." or
	// "query ..."); File:Line names the record in the expected-failures list.
	Line int
	// SQL is the statement text (lines joined with "\n").
	SQL string
	// ExpectError: `statement error`.
	ExpectError bool
	// Types has one letter (I, R, T) per result column.
	Types string
	Sort  SortMode
	Label string
	// Expected values, one per result value (rows flattened), when the file
	// lists them.
	Expected []string
	// HashCount and Hash: "HashCount values hashing to Hash", when the file
	// gives the result as a hash.
	HashCount int
	Hash      string
	// Threshold is the value of hash-threshold for a HashThreshold record.
	Threshold int
}

// Hashed reports whether the expected result is a hash.
func (r *Record) Hashed() bool { return r.Hash != "" }

// Parse reads a file's records, leaving out those that skipif/onlyif
// exclude for Engine. name is used in error messages.
func Parse(name string, rd io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var (
		out    []Record
		lineNo int
		skip   bool // the conditions so far exclude the next record
	)
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		lineNo++
		return strings.TrimRight(sc.Text(), "\r"), true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(stripComment(line))
		if len(fields) == 0 {
			continue
		}
		header := lineNo
		switch fields[0] {
		case "skipif":
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: skipif without an engine", name, lineNo)
			}
			if fields[1] == Engine {
				skip = true
			}
			continue
		case "onlyif":
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: onlyif without an engine", name, lineNo)
			}
			if fields[1] != Engine {
				skip = true
			}
			continue
		case "hash-threshold":
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: hash-threshold without a value", name, lineNo)
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: hash-threshold: %v", name, lineNo, err)
			}
			out = append(out, Record{Kind: HashThreshold, Line: header, Threshold: n})
			skip = false
			continue
		case "halt":
			if !skip {
				out = append(out, Record{Kind: Halt, Line: header})
			}
			skip = false
			continue
		case "statement":
			rec := Record{Kind: Statement, Line: header}
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: statement without ok/error", name, lineNo)
			}
			switch fields[1] {
			case "ok":
			case "error":
				rec.ExpectError = true
			default:
				return nil, fmt.Errorf("%s:%d: statement %s: want ok or error", name, lineNo, fields[1])
			}
			var sqlLines []string
			for {
				l, ok := next()
				if !ok || strings.TrimSpace(l) == "" {
					break
				}
				sqlLines = append(sqlLines, l)
			}
			rec.SQL = strings.Join(sqlLines, "\n")
			if !skip {
				out = append(out, rec)
			}
			skip = false
		case "query":
			rec := Record{Kind: Query, Line: header}
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: query without column types", name, lineNo)
			}
			rec.Types = fields[1]
			for _, f := range fields[2:] {
				switch f {
				case "nosort":
					rec.Sort = NoSort
				case "rowsort":
					rec.Sort = RowSort
				case "valuesort":
					rec.Sort = ValueSort
				default:
					rec.Label = f
				}
			}
			var sqlLines []string
			results := false
			for {
				l, ok := next()
				if !ok || strings.TrimSpace(l) == "" {
					break
				}
				if l == "----" {
					results = true
					break
				}
				sqlLines = append(sqlLines, l)
			}
			rec.SQL = strings.Join(sqlLines, "\n")
			if results {
				for {
					l, ok := next()
					if !ok || l == "" {
						break
					}
					if n, h, ok := parseHashLine(l); ok {
						rec.HashCount, rec.Hash = n, h
						continue
					}
					rec.Expected = append(rec.Expected, l)
				}
			}
			if !skip {
				out = append(out, rec)
			}
			skip = false
		default:
			return nil, fmt.Errorf("%s:%d: unknown record %q", name, lineNo, fields[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// stripComment removes a trailing "# comment" from a header line.
func stripComment(line string) string {
	if i := strings.Index(line, "#"); i >= 0 {
		return line[:i]
	}
	return line
}

// parseHashLine recognises "N values hashing to H".
func parseHashLine(l string) (int, string, bool) {
	f := strings.Fields(l)
	if len(f) != 5 || f[1] != "values" || f[2] != "hashing" || f[3] != "to" {
		return 0, "", false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, "", false
	}
	return n, f[4], true
}
