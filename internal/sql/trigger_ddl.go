package sql

import (
	"context"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CREATE TRIGGER and DROP TRIGGER. A trigger is stored in its table's
// definition (catalog.Table.Triggers, in action order), so it changes
// with the table in one dictionary batch; names are unique per schema.

// execCreateTrigger runs CREATE TRIGGER.
func (s *Session) execCreateTrigger(ctx context.Context, sql string) (*sqltypes.Result, error) {
	ct, err := parse.ParseCreateTrigger(sql)
	if err != nil {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + firstWords(sql, 4) + "' at line 1")
	}
	db := ct.Schema
	if db == "" {
		db = ct.TableSchema
	}
	if db == "" {
		db = s.DB
	}
	if db == "" {
		return nil, sqlerr.NoDB()
	}
	if len([]rune(ct.Name)) > 64 {
		return nil, sqlerr.New(sqlerror.ERTooLongIdent, sqlerror.SSClientError, "Identifier name '%s' is too long", ct.Name)
	}
	if ct.TableSchema != "" && !strings.EqualFold(ct.TableSchema, db) {
		return nil, sqlerr.New(sqlerr.TrgInWrongSchema, sqlerror.SSUnknownSQLState, "Trigger in wrong schema")
	}
	if err := s.commit(); err != nil {
		return nil, err
	}
	if isSystemSchema(db) {
		return nil, sqlerr.Unsupported("triggers on system tables")
	}
	if err := s.authorizeNeeds(privilege.OnTable(privilege.Trigger, db, ct.Table)); err != nil {
		return nil, err
	}
	if s.tempTable(db, ct.Table) != nil {
		return nil, sqlerr.New(sqlerr.TrgOnViewOrTempTable, sqlerror.SSUnknownSQLState, "Trigger's '%s' is view or temporary table", ct.Table)
	}
	if s.eng.Cat.View(db, ct.Table) != nil {
		return nil, sqlerr.New(sqlerr.WrongObject, "HY000", "'%s.%s' is not BASE TABLE", db, ct.Table)
	}
	t := s.eng.Cat.Table(db, ct.Table)
	if t == nil {
		return nil, sqlerr.NoTable(db, ct.Table)
	}
	if ct.Definer != "" && ct.Definer != "CURRENT_USER" && !s.isRoot() &&
		(ct.Definer != s.User || ct.DefinerHost != s.accountHost()) {
		return nil, sqlerr.New(sqlerror.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the SUPER or SET_USER_ID privilege(s) for this operation")
	}
	tr := catalog.Trigger{
		Name: ct.Name, Timing: ct.Timing, Event: ct.Event, Body: ct.Body,
		Definer: s.definer(ct), Created: time.Now().UnixMicro(),
	}
	if v, ok := s.sysVar("sql_mode"); ok {
		tr.SQLMode = v.ToString()
	}
	if v, ok := s.sysVar("character_set_client"); ok {
		tr.CharsetClient = v.ToString()
	}
	if v, ok := s.sysVar("collation_connection"); ok {
		tr.CollationConnection = v.ToString()
	}
	if _, err := s.eng.compileTrigger(t, &tr); err != nil {
		return nil, err
	}
	release, err := schemachange.LockTables(ctx, s.eng.Cat, s.mdlTimeout, schemachange.TableName{DB: db, Name: t.Name})
	if err != nil {
		return nil, err
	}
	defer release()
	exists := false
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		cur := s.eng.Cat.Table(db, t.Name)
		if cur == nil {
			return sqlerr.NoTable(db, t.Name)
		}
		if s.eng.Cat.TriggerTable(db, tr.Name) != nil {
			if ct.IfNotExists {
				exists = true
				return nil
			}
			return sqlerr.New(sqlerr.TrgAlreadyExists, sqlerror.SSUnknownSQLState, "Trigger already exists")
		}
		nt := cur.Clone()
		pos := len(nt.Triggers)
		if ct.Order != "" {
			i := nt.TriggerIndex(ct.OrderName)
			if i < 0 || nt.Triggers[i].Timing != tr.Timing || nt.Triggers[i].Event != tr.Event {
				return sqlerr.New(sqlerr.ReferencedTrgMissing, sqlerror.SSUnknownSQLState, "Referenced trigger '%s' for the given action time and event type does not exist.", ct.OrderName)
			}
			pos = i
			if ct.Order == "FOLLOWS" {
				pos = i + 1
			}
		}
		nt.Triggers = append(nt.Triggers[:pos], append([]catalog.Trigger{tr}, nt.Triggers[pos:]...)...)
		return d.PutTable(nt)
	})
	if err != nil {
		return nil, err
	}
	if exists {
		s.warn("Note", uint16(sqlerr.TrgAlreadyExists), "Trigger already exists")
	}
	return &sqltypes.Result{}, nil
}

// definer returns the account CREATE TRIGGER names as its definer, as
// user@host: the DEFINER clause's, or the session's account.
func (s *Session) definer(ct parse.CreateTrigger) string {
	if ct.Definer != "" && ct.Definer != "CURRENT_USER" {
		return ct.Definer + "@" + ct.DefinerHost
	}
	host := s.Host
	if u := s.account(); u != nil {
		host = u.Host
	}
	return s.User + "@" + host
}

// quoteDefiner formats user@host as `user`@`host`.
func quoteDefiner(d string) string {
	i := strings.LastIndexByte(d, '@')
	if i < 0 {
		return coltype.QuoteIdent(d)
	}
	return coltype.QuoteIdent(d[:i]) + "@" + coltype.QuoteIdent(d[i+1:])
}

// execDropTrigger runs DROP TRIGGER [IF EXISTS] [db.]name.
func (s *Session) execDropTrigger(ctx context.Context, r parse.Routine) (*sqltypes.Result, error) {
	db, err := s.schemaOrCurrent(r.Schema)
	if err != nil {
		return nil, err
	}
	if err := s.commit(); err != nil {
		return nil, err
	}
	missing := func() (*sqltypes.Result, error) {
		if r.IfExists {
			s.warn("Note", uint16(sqlerr.TrgDoesNotExist), "Trigger does not exist")
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerr.TrgDoesNotExist, sqlerror.SSUnknownSQLState, "Trigger does not exist")
	}
	t := s.eng.Cat.TriggerTable(db, r.Name)
	if t == nil {
		return missing()
	}
	if err := s.authorizeNeeds(privilege.OnTable(privilege.Trigger, db, t.Name)); err != nil {
		return nil, err
	}
	release, err := schemachange.LockTables(ctx, s.eng.Cat, s.mdlTimeout, schemachange.TableName{DB: db, Name: t.Name})
	if err != nil {
		return nil, err
	}
	defer release()
	gone := false
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		cur := s.eng.Cat.TriggerTable(db, r.Name)
		if cur == nil {
			gone = true
			return nil
		}
		nt := cur.Clone()
		i := nt.TriggerIndex(r.Name)
		nt.Triggers = append(nt.Triggers[:i], nt.Triggers[i+1:]...)
		return d.PutTable(nt)
	})
	if err != nil {
		return nil, err
	}
	if gone {
		return missing()
	}
	return &sqltypes.Result{}, nil
}
