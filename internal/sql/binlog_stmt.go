package sql

import (
	"context"
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
//   - BINLOG 'base64': strata does not execute binary log events, so the
//     statement is refused with 1235 (after MySQL's privilege check: SUPER
//     or BINLOG_ADMIN, 1227) rather than parsed as a syntax error.

var reBinlogStmt = regexp.MustCompile(`(?is)^\s*BINLOG\s+(?:'|")`)

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
	return nil, true, sqlerr.New(sqlerror.ERNotSupportedYet, "42000", "This version of MySQL doesn't yet support 'BINLOG statements (binary log events)'")
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
