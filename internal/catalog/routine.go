package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Routine is a stored procedure or function (CREATE PROCEDURE, CREATE
// FUNCTION), a schema object of its database.
//
// Routines live in the dictionary under kind 'R' (dict-key =
// DictIndexID(4) 'R' db-name 0x00 type 0x00 lower(name) -> Routine JSON;
// type is "PROCEDURE" or "FUNCTION"). Names are case-insensitive and
// procedures and functions have separate name spaces, as in MySQL. Every
// change bumps the catalog version, so plans that call a stored function
// are planned again and compiled routine bodies are rebuilt.
type Routine struct {
	DB   string `json:"db"`
	Name string `json:"name"`
	// Type is PROCEDURE or FUNCTION.
	Type string `json:"type"`
	// Params is the parameter list as written between the parentheses.
	Params []RoutineParam `json:"params,omitempty"`
	// ParamList is the text between the parentheses of the CREATE.
	ParamList string `json:"param_list"`
	// Returns is a function's RETURNS type as written, "" for a
	// procedure; ReturnCol that type as a column (information_schema).
	Returns   string  `json:"returns,omitempty"`
	ReturnCol *Column `json:"return_col,omitempty"`
	// Body is the routine body as written.
	Body string `json:"body"`
	// Characteristics.
	Comment         string `json:"comment,omitempty"`
	Deterministic   bool   `json:"deterministic,omitempty"`
	DataAccess      string `json:"data_access"` // CONTAINS SQL, NO SQL, READS SQL DATA, MODIFIES SQL DATA
	SecurityInvoker bool   `json:"security_invoker,omitempty"`
	// Definer is the account as MySQL prints it: `user`@`host`.
	Definer string `json:"definer"`
	// SQLMode is the sql_mode in force at creation.
	SQLMode string `json:"sql_mode"`
	// CharsetClient, CollationConnection and DBCollation are the
	// session's and the database's at creation.
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
	DBCollation         string `json:"db_collation"`
	// Created and Modified are Unix microseconds.
	Created  int64 `json:"created"`
	Modified int64 `json:"modified"`
}

// RoutineParam is one parameter of a routine.
type RoutineParam struct {
	// Mode is IN, OUT or INOUT ("" for a function's parameters).
	Mode string `json:"mode,omitempty"`
	Name string `json:"name"`
	// Type is the parameter's column type as written, Col that type as
	// a column (information_schema).
	Type string  `json:"type"`
	Col  *Column `json:"col,omitempty"`
}

func routineKey(db, typ, name string) []byte {
	return dictKey('R', db, typ, strings.ToLower(name))
}

// Routine returns the stored procedure or function (typ PROCEDURE or
// FUNCTION) of db with that name (case-insensitive), or nil.
func (c *Catalog) Routine(db, typ, name string) *Routine {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.routines[db][typ+":"+strings.ToLower(name)]
}

// HasRoutines reports whether any stored function exists (expression
// compilation looks functions up only then).
func (c *Catalog) HasRoutines() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.mu.routines) > 0
}

// Routines returns the routines of a database, sorted by type and name.
func (c *Catalog) Routines(db string) []*Routine {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m := c.mu.routines[db]
	out := make([]*Routine, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
	})
	return out
}

// PutRoutine creates or replaces a routine definition.
func (d *DDL) PutRoutine(r *Routine) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode routine: %w", err)
	}
	if err := d.b.Set(routineKey(r.DB, r.Type, r.Name), b); err != nil {
		return fmt.Errorf("put %s %s.%s: %w", r.Type, r.DB, r.Name, err)
	}
	d.putRoutines = append(d.putRoutines, r)
	return nil
}

// DropRoutine removes a routine definition.
func (d *DDL) DropRoutine(db, typ, name string) error {
	if err := d.b.Delete(routineKey(db, typ, name)); err != nil {
		return fmt.Errorf("drop %s %s.%s: %w", typ, db, name, err)
	}
	d.dropRoutines = append(d.dropRoutines, [3]string{db, typ, name})
	return nil
}

// dropDatabaseRoutines removes the entries of every routine of a database
// being dropped (Commit forgets them with the database).
func (d *DDL) dropDatabaseRoutines(db string) error {
	for _, r := range d.c.Routines(db) {
		if err := d.b.Delete(routineKey(db, r.Type, r.Name)); err != nil {
			return fmt.Errorf("drop %s %s.%s: %w", r.Type, db, r.Name, err)
		}
	}
	return nil
}

// loadRoutine adds a routine read from the dictionary.
func (c *Catalog) loadRoutine(val []byte) error {
	r := &Routine{}
	if err := json.Unmarshal(val, r); err != nil {
		return err
	}
	c.putRoutineLocked(r)
	return nil
}

func (c *Catalog) putRoutineLocked(r *Routine) {
	m := c.mu.routines[r.DB]
	if m == nil {
		m = map[string]*Routine{}
		c.mu.routines[r.DB] = m
	}
	m[r.Type+":"+strings.ToLower(r.Name)] = r
}

// applyRoutinesLocked publishes a committed change's routines.
func (d *DDL) applyRoutinesLocked() {
	c := d.c
	for _, k := range d.dropRoutines {
		delete(c.mu.routines[k[0]], k[1]+":"+strings.ToLower(k[2]))
		if len(c.mu.routines[k[0]]) == 0 {
			delete(c.mu.routines, k[0])
		}
	}
	for _, r := range d.putRoutines {
		c.putRoutineLocked(r)
	}
}
