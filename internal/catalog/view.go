package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
)

// View is a stored view: a name in its database's table name space whose
// rows are those of a SELECT.
//
// Views live in the dictionary under kind 'V' (dict-key = DictIndexID(4)
// 'V' db-name 0x00 view-name -> View JSON). They own no index data, so
// creating, replacing and dropping one only writes that entry; every change
// bumps the catalog version, so cached plans that expanded the view are
// planned again.
type View struct {
	DB   string `json:"db"`
	Name string `json:"name"`
	// Select is the canonical text of the view's query: every table name
	// qualified with its database, every select expression named.
	Select string `json:"select"`
	// Columns are the view's column names (its column list, or the names
	// of the select list), in order.
	Columns []string `json:"columns"`
	// ExplicitColumns: the CREATE VIEW named the columns (v (a, b) AS ...).
	ExplicitColumns bool `json:"explicit_columns,omitempty"`
	// Algorithm is UNDEFINED, MERGE or TEMPTABLE.
	Algorithm string `json:"algorithm"`
	// DefinerUser and DefinerHost name the definer account.
	DefinerUser string `json:"definer_user"`
	DefinerHost string `json:"definer_host"`
	// Security is DEFINER or INVOKER.
	Security string `json:"security"`
	// CheckOption is "", CASCADED or LOCAL.
	CheckOption string `json:"check_option,omitempty"`
	// CharsetClient and CollationConnection are the session's
	// character_set_client and collation_connection at creation.
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
	// CreateTime is the creation time (Unix seconds).
	CreateTime int64 `json:"create_time,omitempty"`
}

// View returns the named view or nil.
func (c *Catalog) View(db, name string) *View {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.views[db][name]
}

// Views returns the views of a database, sorted by name.
func (c *Catalog) Views(db string) []*View {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m := c.mu.views[db]
	out := make([]*View, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Exists reports whether db holds a table or a view of that name (they
// share one name space).
func (c *Catalog) Exists(db, name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.tables[db][name] != nil || c.mu.views[db][name] != nil
}

// PutView creates or replaces a view definition.
func (d *DDL) PutView(v *View) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode view: %w", err)
	}
	if err := d.b.Set(dictKey('V', v.DB, v.Name), b); err != nil {
		return fmt.Errorf("put view %s.%s: %w", v.DB, v.Name, err)
	}
	d.putViews = append(d.putViews, v)
	return nil
}

// DropView removes a view definition.
func (d *DDL) DropView(db, name string) error {
	if err := d.b.Delete(dictKey('V', db, name)); err != nil {
		return fmt.Errorf("drop view %s.%s: %w", db, name, err)
	}
	for i := 0; i < len(d.putViews); {
		if v := d.putViews[i]; v.DB == db && v.Name == name {
			d.putViews = append(d.putViews[:i], d.putViews[i+1:]...)
		} else {
			i++
		}
	}
	d.dropViews = append(d.dropViews, [2]string{db, name})
	return nil
}

// dropDatabaseViews removes the entries of every view of a database being
// dropped (Commit forgets the database's views with it).
func (d *DDL) dropDatabaseViews(db string) error {
	for _, v := range d.c.Views(db) {
		if err := d.b.Delete(dictKey('V', db, v.Name)); err != nil {
			return fmt.Errorf("drop view %s.%s: %w", db, v.Name, err)
		}
	}
	return nil
}

// loadView adds a view read from the dictionary.
func (c *Catalog) loadView(val []byte) error {
	v := &View{}
	if err := json.Unmarshal(val, v); err != nil {
		return err
	}
	c.putViewLocked(v)
	return nil
}

func (c *Catalog) putViewLocked(v *View) {
	m := c.mu.views[v.DB]
	if m == nil {
		m = map[string]*View{}
		c.mu.views[v.DB] = m
	}
	m[v.Name] = v
}
