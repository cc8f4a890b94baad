package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/txn"
)

// execSet runs SET for system and user variables.
func (s *Session) execSet(ctx context.Context, st *sqlparser.Set) (*sqltypes.Result, error) {
	for _, se := range st.Exprs {
		if err := s.setOne(ctx, se); err != nil {
			return nil, err
		}
	}
	return &sqltypes.Result{}, nil
}

func (s *Session) setOne(ctx context.Context, se *sqlparser.SetExpr) error {
	name := strings.ToLower(se.Var.Name.String())
	// Evaluate the value.
	var v sqltypes.Value
	isDefault := false
	switch e := se.Expr.(type) {
	case *sqlparser.Default:
		isDefault = true
	default:
		if cn, ok := e.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
			// SET sql_mode = TRADITIONAL, SET autocommit = ON
			v = sqltypes.NewVarChar(cn.Name.String())
			break
		}
		if b, ok := e.(sqlparser.BoolVal); ok {
			if b {
				v = sqltypes.NewInt64(1)
			} else {
				v = sqltypes.NewInt64(0)
			}
			break
		}
		var names []string
		c := s.newCompiler(nil, &eval.Scope{}, &names, nil)
		x, err := c.Compile(se.Expr)
		if err != nil {
			return err
		}
		// A subquery reads tables: it runs in the statement's transaction,
		// as a SELECT would.
		var tx *txn.Txn
		if eval.HasSubquery(se.Expr) {
			tx = s.txnForStatement(ctx)
			tx.BeginStatement()
		}
		ex := s.newExecCtx(ctx, tx, s.bindSessionVars(names, nil))
		v, err = ex.Eval(x, nil)
		if tx != nil {
			err = s.endStatement(err)
		}
		if err != nil {
			return err
		}
	}
	switch se.Var.Scope {
	case sqlparser.VariableScope:
		if isDefault {
			v = sqltypes.NULL
		}
		s.userVars[name] = cloneValue(v)
		return nil
	}
	if name == "timestamp" {
		return s.setTimestamp(se, v, isDefault)
	}
	switch name {
	case "names":
		cs := strings.ToLower(v.ToString())
		if isDefault || cs == "default" {
			cs = "utf8mb4"
		}
		if err := checkCharsetName("character_set_client", cs); err != nil {
			return err
		}
		cs = canonicalCharset(cs)
		for _, n := range []string{"character_set_client", "character_set_connection", "character_set_results"} {
			s.setVar(n, sqltypes.NewVarChar(cs))
		}
		coll := "utf8mb4_general_ci"
		if cs != "utf8mb4" {
			env := collations.MySQL8()
			coll = env.LookupName(env.DefaultCollationForCharset(cs))
		}
		s.setVar("collation_connection", sqltypes.NewVarChar(coll))
		s.loadConnCharsets()
		return nil
	case "charset", "character set":
		cs := strings.ToLower(v.ToString())
		if isDefault || cs == "default" {
			cs = "utf8mb4"
		}
		if err := checkCharsetName("character_set_client", cs); err != nil {
			return err
		}
		cs = canonicalCharset(cs)
		s.setVar("character_set_client", sqltypes.NewVarChar(cs))
		s.setVar("character_set_results", sqltypes.NewVarChar(cs))
		// MySQL: the connection set becomes the database's.
		if db, ok := s.sysVar("character_set_database"); ok {
			s.setVar("character_set_connection", db)
			if c, ok := s.sysVar("collation_database"); ok {
				s.setVar("collation_connection", c)
			}
		}
		s.loadConnCharsets()
		return nil
	}
	if strings.HasPrefix(name, "character_set_") && !isDefault && !v.IsNull() {
		if err := checkCharsetName(name, v.ToString()); err != nil {
			return err
		}
	}
	if name == "tx_isolation" {
		name = "transaction_isolation"
	}
	if name == "tx_read_only" {
		name = "transaction_read_only"
	}
	d, ok := sysvar.Lookup(name)
	if !ok {
		return sqlerr.UnknownSysVar(name)
	}
	global := se.Var.Scope == sqlparser.GlobalScope || se.Var.Scope == sqlparser.PersistSysScope || se.Var.Scope == sqlparser.PersistOnlySysScope
	if d.ReadOnly {
		return sqlerr.New(sqlerror.ERIncorrectGlobalLocalVar, sqlerror.SSUnknownSQLState, "Variable '%s' is a read only variable", name)
	}
	if !global && d.Scope == sysvar.Global {
		return sqlerr.New(sqlerror.ERGlobalVariable, sqlerror.SSUnknownSQLState, "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", name)
	}
	if global && d.Scope == sysvar.Session {
		return sqlerr.New(sqlerror.ERLocalVariable, sqlerror.SSUnknownSQLState, "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", name)
	}
	if !global && restrictedSessionVars[name] {
		if err := s.authorizeNeeds(privilege.RuleFor(privilege.KindSetRestricted).Need("", "")); err != nil {
			return err
		}
	}
	if name == "gtid_next" && !isDefault {
		g := strings.TrimSpace(v.ToString())
		switch strings.ToUpper(g) {
		case "AUTOMATIC", "ANONYMOUS":
			v = sqltypes.NewVarChar(strings.ToUpper(g))
		default:
			if s.eng.Binlog != nil {
				// strata's binary log numbers its own transactions:
				// committing one under a given GTID is not supported.
				return sqlerr.New(sqlerror.ERNotSupportedYet, sqlerror.SSUnknownSQLState, "This version of MySQL doesn't yet support 'SET GTID_NEXT to a GTID with the binary log on'")
			}
		}
	}
	if isDefault {
		if global {
			v = d.Default
		} else {
			v, _ = s.eng.Globals.Get(name)
		}
	} else {
		nv, err := sysvar.Normalize(d, v)
		if err != nil {
			return err
		}
		v = nv
	}
	if global {
		s.eng.Globals.Set(name, v)
		if name == "transaction_isolation" {
			s.eng.Globals.Set("tx_isolation", v)
		}
		return nil
	}
	if se.Var.Scope == sqlparser.NextTxScope {
		// SET TRANSACTION ... (no SESSION/GLOBAL): the next transaction only.
		switch name {
		case "transaction_isolation":
			iso := txn.RepeatableRead
			if s := v.ToString(); s == "READ-COMMITTED" || s == "READ-UNCOMMITTED" {
				iso = txn.ReadCommitted
			}
			s.nextIso = &iso
		case "transaction_read_only":
			ro := v.ToString() == "1"
			s.nextReadOnly = &ro
		}
		return nil
	}
	prevAutocommit := s.autocommit
	s.setVar(name, v)
	if name == "transaction_isolation" {
		s.setVar("tx_isolation", v)
	}
	if name == "transaction_read_only" {
		s.setVar("tx_read_only", v)
	}
	s.loadVarCaches()
	if name == "autocommit" {
		if s.autocommit && !prevAutocommit {
			// Turning autocommit on commits the open transaction.
			return s.commit()
		}
		if !s.autocommit && s.tx == nil {
			s.explicit = false
		}
	}
	return nil
}

// restrictedSessionVars are the session variables MySQL 8.0 lets only
// SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN set (MySQL
// also admits REPLICATION_APPLIER for some, a privilege strata lacks),
// and MariaDB's replication variables, which MariaDB lets only SUPER set.
var restrictedSessionVars = map[string]bool{
	"pseudo_slave_mode": true, "pseudo_replica_mode": true, "pseudo_thread_id": true,
	"original_commit_timestamp": true, "original_server_version": true,
	"immediate_server_version": true, "gtid_next": true,
	"skip_parallel_replication": true, "gtid_domain_id": true, "gtid_seq_no": true,
}
