package sql

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CLONE LOCAL DATA DIRECTORY [=] 'dir' — MySQL 8's local clone — writes an
// online, consistent copy of the store into the new directory dir (absolute;
// its parent must exist), which a server can be started on
// (internal/backup: a Pebble checkpoint copied out). As a strata extension,
// files of the newest earlier backup in dir's parent are reused instead of
// copied (strata backup --to makes one such directory per backup). Vitess's
// parser has no CLONE, so the statement is recognised here; CLONE INSTANCE
// (a remote donor) answers 1235.

var (
	reClone      = regexp.MustCompile(`(?is)^\s*CLONE\s+LOCAL\s+DATA\s+DIRECTORY\s*(?:=\s*)?'((?:[^'\\]|\\.|'')*)'\s*;?\s*$`)
	reCloneOther = regexp.MustCompile(`(?is)^\s*CLONE\s`)
)

// execClone runs CLONE; handled is false for any other statement.
func (s *Session) execClone(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if t := strings.TrimSpace(sql); len(t) < 5 || !strings.EqualFold(t[:5], "clone") {
		return nil, false, nil
	}
	m := reClone.FindStringSubmatch(sql)
	if m == nil {
		if reCloneOther.MatchString(sql) {
			return nil, true, sqlerr.Unsupported("CLONE other than CLONE LOCAL DATA DIRECTORY")
		}
		return nil, false, nil
	}
	s.beginStatementWarnings(nil)
	if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindClone).Need("", "")); err != nil {
		return nil, true, err
	}
	dir := unquoteSQLString(m[1])
	if !filepath.IsAbs(dir) {
		return nil, true, sqlerr.New(sqlerr.WrongValue, sqlerror.SSUnknownSQLState, "Incorrect path value: '%s'", dir)
	}
	if err := ctx.Err(); err != nil {
		return nil, true, sqlerr.From(err)
	}
	_, err := backup.Take(s.eng.DB.KV(), dir, s.eng.BackupOptions)
	switch {
	case errors.Is(err, backup.ErrExists):
		return nil, true, sqlerr.New(sqlerr.DBCreateExists, sqlerror.SSUnknownSQLState, "Can't create database '%s'; database exists", dir)
	case err != nil:
		return nil, true, sqlerr.New(sqlerr.CantCreateDB, sqlerror.SSUnknownSQLState, "Can't create database '%s' (%v)", dir, err)
	}
	return &sqltypes.Result{}, true, nil
}

// unquoteSQLString undoes the escapes of a single-quoted SQL string's
// contents: ” and backslash sequences (\' \" \\ \n \t \0; any other
// backslash drops the backslash, as MySQL does).
func unquoteSQLString(s string) string {
	if !strings.ContainsAny(s, `'\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
