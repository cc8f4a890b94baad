package sql

import (
	"context"
	"strings"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CREATE, ALTER and DROP of stored procedures and functions. A routine is
// one dictionary entry (catalog.Routine); CREATE compiles the body first,
// so a body with an error is refused with that error and nothing is
// stored. Each statement commits the open transaction first, as MySQL's
// DDL does.

// routineNeed is the database-level privilege a routine statement needs.
func routineNeed(p privilege.Priv, db string) privilege.Need {
	return privilege.Need{Level: privilege.Database, Privs: p, DB: db, Deny: privilege.DenyDB}
}

// execCreateRoutine runs CREATE PROCEDURE and CREATE FUNCTION.
func (s *Session) execCreateRoutine(ctx context.Context, sql string) (*sqltypes.Result, error) {
	cr, err := parse.ParseCreateRoutine(sql)
	if err != nil {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + firstWords(sql, 4) + "' at line 1")
	}
	db, err := s.schemaOrCurrent(cr.Schema)
	if err != nil {
		return nil, err
	}
	if len([]rune(cr.Name)) > 64 {
		return nil, sqlerr.New(1059, "42000", "Identifier name '%s' is too long", cr.Name)
	}
	if err := s.commit(); err != nil {
		return nil, err
	}
	if isSystemSchema(db) {
		return nil, sqlerr.Unsupported("stored routines in system schemas")
	}
	if s.eng.Cat.Database(db) == nil {
		return nil, sqlerr.New(1049, "42000", "Unknown database '%s'", db)
	}
	if err := s.authorizeNeeds(routineNeed(privilege.CreateRoutine, db)); err != nil {
		return nil, err
	}
	if cr.Definer != "" && cr.Definer != "CURRENT_USER" && !s.isRoot() &&
		(cr.Definer != s.User || cr.DefinerHost != s.accountHost()) {
		return nil, sqlerr.New(1227, "42000", "Access denied; you need (at least one of) the SUPER or SET_USER_ID privilege(s) for this operation")
	}
	now := time.Now().UnixMicro()
	r := &catalog.Routine{
		DB: db, Name: cr.Name, Type: cr.Kind, ParamList: cr.ParamList, Returns: cr.Returns, Body: cr.Body,
		DataAccess: "CONTAINS SQL", Created: now, Modified: now,
		Definer: s.definer(parse.CreateTrigger{Definer: cr.Definer, DefinerHost: cr.DefinerHost}),
	}
	for _, prm := range cr.Params {
		r.Params = append(r.Params, catalog.RoutineParam{Mode: prm.Mode, Name: prm.Name, Type: prm.Type})
	}
	applyCharacteristics(r, cr.Chars)
	if v, ok := s.sysVar("sql_mode"); ok {
		r.SQLMode = v.ToString()
	}
	if v, ok := s.sysVar("character_set_client"); ok {
		r.CharsetClient = v.ToString()
	}
	if v, ok := s.sysVar("collation_connection"); ok {
		r.CollationConnection = v.ToString()
	}
	r.DBCollation = coltype.CollationName(s.dbCollation(db))
	prog, err := s.eng.compileRoutine(r)
	if err != nil {
		return nil, err
	}
	for i := range r.Params {
		r.Params[i].Col = prog.slots[prog.params[i].slot]
	}
	r.ReturnCol = prog.ret
	exists := false
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		if s.eng.Cat.Routine(db, r.Type, r.Name) != nil {
			if cr.IfNotExists {
				exists = true
				return nil
			}
			return sqlerr.New(sqlerr.SPAlreadyExists, "42000", "%s %s already exists", r.Type, r.Name)
		}
		return d.PutRoutine(r)
	})
	if err != nil {
		return nil, err
	}
	if exists {
		s.warn("Note", uint16(sqlerr.SPAlreadyExists), r.Type+" "+r.Name+" already exists")
	}
	return &sqltypes.Result{}, nil
}

// applyCharacteristics sets the characteristics a statement wrote.
func applyCharacteristics(r *catalog.Routine, ch parse.Characteristics) {
	if ch.Comment != nil {
		r.Comment = *ch.Comment
	}
	if ch.Deterministic != nil {
		r.Deterministic = *ch.Deterministic
	}
	if ch.DataAccess != "" {
		r.DataAccess = ch.DataAccess
	}
	if ch.Security != "" {
		r.SecurityInvoker = ch.Security == "INVOKER"
	}
}

// execAlterRoutine runs ALTER PROCEDURE and ALTER FUNCTION (their
// characteristics).
func (s *Session) execAlterRoutine(ctx context.Context, sql string) (*sqltypes.Result, error) {
	kind, db, name, ch, err := parse.ParseAlterRoutine(sql)
	if err != nil {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + firstWords(sql, 4) + "' at line 1")
	}
	if err := s.commit(); err != nil {
		return nil, err
	}
	cur, err := s.lookupRoutine(kind, db, name)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeNeeds(routineNeed(privilege.AlterRoutine, cur.DB)); err != nil {
		return nil, err
	}
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		cur := s.eng.Cat.Routine(cur.DB, kind, name)
		if cur == nil {
			return sqlerr.New(sqlerr.SPDoesNotExist, "42000", "%s %s.%s does not exist", kind, db, name)
		}
		r := *cur
		applyCharacteristics(&r, ch)
		r.Modified = time.Now().UnixMicro()
		return d.PutRoutine(&r)
	})
	if err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// execDropRoutine runs DROP PROCEDURE and DROP FUNCTION [IF EXISTS].
func (s *Session) execDropRoutine(ctx context.Context, rt parse.Routine) (*sqltypes.Result, error) {
	db, err := s.schemaOrCurrent(rt.Schema)
	if err != nil {
		return nil, err
	}
	if err := s.commit(); err != nil {
		return nil, err
	}
	missing := func() (*sqltypes.Result, error) {
		msg := rt.Kind + " " + db + "." + rt.Name + " does not exist"
		if rt.IfExists {
			s.warn("Note", uint16(sqlerr.SPDoesNotExist), msg)
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerr.SPDoesNotExist, "42000", "%s", msg)
	}
	if s.eng.Cat.Routine(db, rt.Kind, rt.Name) == nil {
		return missing()
	}
	if err := s.authorizeNeeds(routineNeed(privilege.AlterRoutine, db)); err != nil {
		return nil, err
	}
	if s.routines.active != nil {
		if r := s.eng.Cat.Routine(db, rt.Kind, rt.Name); r != nil && s.routines.active[r] > 0 {
			return nil, sqlerr.New(sqlerr.SPNoDropSP, "HY000", "Can't drop or alter a %s from within another stored routine", rt.Kind)
		}
	}
	gone := false
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		r := s.eng.Cat.Routine(db, rt.Kind, rt.Name)
		if r == nil {
			gone = true
			return nil
		}
		return d.DropRoutine(db, rt.Kind, r.Name)
	})
	if err != nil {
		return nil, err
	}
	if gone {
		return missing()
	}
	return &sqltypes.Result{}, nil
}

// routineCreateText is SHOW CREATE's statement of a routine.
func routineCreateText(r *catalog.Routine) string {
	var b strings.Builder
	b.WriteString("CREATE DEFINER=")
	b.WriteString(quoteDefiner(r.Definer))
	b.WriteString(" " + r.Type + " ")
	b.WriteString(coltype.QuoteIdent(r.Name))
	b.WriteString("(" + r.ParamList + ")")
	if r.Type == "FUNCTION" {
		b.WriteString(" RETURNS " + r.Returns)
	}
	b.WriteString(routineCharacteristicsText(r))
	b.WriteString("\n" + r.Body)
	return b.String()
}

// routineCharacteristicsText lists the characteristics that differ from
// the defaults, one per line, as MySQL's SHOW CREATE does.
func routineCharacteristicsText(r *catalog.Routine) string {
	var b strings.Builder
	if r.Deterministic {
		b.WriteString("\n    DETERMINISTIC")
	}
	if r.DataAccess != "" && r.DataAccess != "CONTAINS SQL" {
		b.WriteString("\n    " + r.DataAccess)
	}
	if r.SecurityInvoker {
		b.WriteString("\n    SQL SECURITY INVOKER")
	}
	if r.Comment != "" {
		b.WriteString("\n    COMMENT '" + strings.ReplaceAll(strings.ReplaceAll(r.Comment, `\`, `\\`), "'", "''") + "'")
	}
	return b.String()
}
