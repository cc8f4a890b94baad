package sql

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// The statements of mysqlbinlog's output that Vitess's parser lacks:
//
//   - a statement of comments only ("/*!*/", what the mysql client sends of
//     mysqlbinlog's "/*!\C utf8mb4 *//*!*/;"): MySQL's parser answers OK
//     when the empty text held a comment (SQLCOM_EMPTY_QUERY), 1065 only
//     when it held nothing;
//   - BINLOG 'base64': the binary log events mysqlbinlog prints row changes
//     as (a FORMAT_DESCRIPTION event first, then TABLE_MAP and rows
//     events), after MySQL's privilege check (SUPER or BINLOG_ADMIN, 1227).
//     Engine.BinlogStatements (internal/replica) applies them in this
//     session and its transaction; without it the statement answers 1235.

var (
	reBinlogStmt  = regexp.MustCompile(`(?is)^\s*BINLOG\s+(?:'|")`)
	reBinlogArg   = regexp.MustCompile(`(?s)^\s*BINLOG\s+('([^']*)'|"([^"]*)")(?:\s|;|/\*.*?\*/)*$`)
	base64Ignored = strings.NewReplacer(" ", "", "\n", "", "\r", "", "\t", "")
)

// BinlogStatementApplier applies the events of BINLOG statements
// (internal/replica's StatementApplier). state is the session's own (the
// format description and table maps of earlier BINLOG statements); exec
// runs a statement in the session.
type BinlogStatementApplier interface {
	Apply(ctx context.Context, state *any, events []byte, exec func(string) (*sqltypes.Result, error)) error
}

// binlogApplierSettings are the session settings the generated statements
// run under (the replica applier's): values are stored as the source
// stored them, TIMESTAMPs arrive in UTC, foreign keys were checked by the
// source.
var binlogApplierSettings = [...][2]string{
	{"sql_mode", "STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION"},
	{"time_zone", "+00:00"},
	{"foreign_key_checks", "0"},
}

// execBinlogStatement handles BINLOG '…' and comment-only statements.
func (s *Session) execBinlogStatement(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if onlyComments(sql) {
		s.beginStatementWarnings(nil)
		return &sqltypes.Result{}, true, nil
	}
	if !reBinlogStmt.MatchString(sql) {
		return nil, false, nil
	}
	s.beginStatementWarnings(nil)
	if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindBinlog).Need("", "")); err != nil {
		return nil, true, err
	}
	m := reBinlogArg.FindStringSubmatch(sql)
	if s.eng.BinlogStatements == nil || m == nil {
		// BINLOG @variable lists (MySQL's form for very large events)
		// included.
		return nil, true, sqlerr.New(sqlerror.ERNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'BINLOG statements (binary log events)'")
	}
	events, err := decodeBase64Chunks(base64Ignored.Replace(m[2] + m[3]))
	if err != nil {
		return nil, true, sqlerr.New(sqlerror.ErrorCode(1575), sqlerror.SSUnknownSQLState, "Decoding of base64 string failed")
	}
	if len(events) == 0 {
		return &sqltypes.Result{}, true, nil
	}
	return s.applyBinlogEvents(ctx, events)
}

// applyBinlogEvents runs a BINLOG statement's events in the session, under
// the applier's settings (restored afterwards) and with found-rows counts
// (an update event's row must be found even when nothing changes).
func (s *Session) applyBinlogEvents(ctx context.Context, events []byte) (*sqltypes.Result, bool, error) {
	var set, restore strings.Builder
	for i, kv := range binlogApplierSettings {
		if i > 0 {
			set.WriteString(", ")
			restore.WriteString(", ")
		}
		old, _ := s.sysVar(kv[0])
		fmt.Fprintf(&set, "%s = %s", kv[0], quoteSetting(kv[1]))
		fmt.Fprintf(&restore, "%s = %s", kv[0], quoteSetting(old.ToString()))
	}
	if _, err := s.queryOnce(ctx, "SET SESSION "+set.String()); err != nil {
		return nil, true, err
	}
	found := s.clientFoundRows
	s.clientFoundRows = true
	err := s.eng.BinlogStatements.Apply(ctx, &s.binlogStmt, events, func(stmt string) (*sqltypes.Result, error) {
		return s.queryOnce(ctx, stmt)
	})
	s.clientFoundRows = found
	if _, rerr := s.queryOnce(ctx, "SET SESSION "+restore.String()); err == nil && rerr != nil {
		err = rerr
	}
	s.beginStatementWarnings(nil)
	if err != nil {
		var code interface{ ErrorCode() int }
		if errors.As(err, &code) {
			return nil, true, sqlerr.New(sqlerror.ErrorCode(code.ErrorCode()), sqlerror.SSUnknownSQLState, "%s", err.Error())
		}
		return nil, true, err
	}
	return &sqltypes.Result{}, true, nil
}

// decodeBase64Chunks decodes base64 text that may be several encodings one
// after the other, each ending in its own padding (mysqlbinlog encodes
// each event on its own, as MySQL's BINLOG statement reads it).
func decodeBase64Chunks(text string) ([]byte, error) {
	var out []byte
	for text != "" {
		end := len(text)
		if i := strings.IndexByte(text, '='); i >= 0 {
			end = i
			for end < len(text) && text[end] == '=' {
				end++
			}
		}
		b, err := base64.StdEncoding.DecodeString(text[:end])
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
		text = text[end:]
	}
	return out, nil
}

// quoteSetting quotes a session variable's value for SET.
func quoteSetting(v string) string {
	if v != "" && strings.Trim(v, "0123456789") == "" {
		return v
	}
	return mysqlQuote(v)
}

// onlyComments reports whether sql is comments (and semicolons) only, with
// at least one comment; an executable comment (/*!…*/) counts as a
// comment only when it holds nothing but its version number.
func onlyComments(sql string) bool {
	rest := sql
	seen := false
	for {
		rest = strings.TrimLeft(rest, " \t\r\n;")
		switch {
		case rest == "":
			return seen
		case strings.HasPrefix(rest, "/*+"):
			return false
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				return false
			}
			body := rest[2 : 2+end]
			if strings.HasPrefix(body, "!") {
				body = strings.TrimLeft(body[1:], "0123456789")
				if strings.TrimSpace(body) != "" {
					return false
				}
			}
			rest = rest[2+end+2:]
			seen = true
		case strings.HasPrefix(rest, "#"), strings.HasPrefix(rest, "-- "), strings.HasPrefix(rest, "--\n"), strings.HasPrefix(rest, "--\t"):
			nl := strings.IndexByte(rest, '\n')
			if nl < 0 {
				return true
			}
			rest = rest[nl+1:]
			seen = true
		default:
			return false
		}
	}
}
