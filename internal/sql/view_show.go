package sql

import (
	"context"
	"sort"
	"strings"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Views in metadata: SHOW CREATE VIEW (and SHOW CREATE TABLE of a view),
// the column definitions DESCRIBE, SHOW COLUMNS and
// information_schema.COLUMNS list, SHOW TABLES and SHOW TABLE STATUS rows.

// showCreateViewText is SHOW CREATE VIEW's Create View column.
func (s *Session) showCreateViewText(v *catalog.View) string {
	var b strings.Builder
	b.WriteString("CREATE ALGORITHM=")
	b.WriteString(v.Algorithm)
	b.WriteString(" DEFINER=")
	b.WriteString(coltype.QuoteIdent(v.DefinerUser))
	b.WriteByte('@')
	b.WriteString(coltype.QuoteIdent(v.DefinerHost))
	b.WriteString(" SQL SECURITY ")
	b.WriteString(v.Security)
	b.WriteString(" VIEW ")
	if v.DB != s.DB {
		// As MySQL: names are qualified unless in the current database.
		b.WriteString(coltype.QuoteIdent(v.DB))
		b.WriteByte('.')
	}
	b.WriteString(coltype.QuoteIdent(v.Name))
	if v.ExplicitColumns {
		b.WriteString(" (")
		for i, c := range v.Columns {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(coltype.QuoteIdent(c))
		}
		b.WriteByte(')')
	}
	b.WriteString(" AS ")
	b.WriteString(s.viewDefinition(v))
	if v.CheckOption != "" {
		b.WriteString(" WITH ")
		b.WriteString(v.CheckOption)
		b.WriteString(" CHECK OPTION")
	}
	return b.String()
}

// viewDefinition is the view's query as SHOW CREATE VIEW prints it: table
// names of the current database unqualified.
func (s *Session) viewDefinition(v *catalog.View) string {
	sel, err := s.parseViewQuery(v)
	if err != nil || s.DB == "" {
		return v.Select
	}
	return viewText(sel, s.DB)
}

// showCreateView answers SHOW CREATE VIEW and SHOW CREATE TABLE of a view.
func (s *Session) showCreateView(v *catalog.View) *sqltypes.Result {
	return textResult([]string{"View", "Create View", "character_set_client", "collation_connection"},
		[][]string{{v.Name, s.showCreateViewText(v), v.CharsetClient, v.CollationConnection}})
}

// viewTable describes a view's columns as a table definition (DESCRIBE,
// SHOW COLUMNS, information_schema.COLUMNS): a column the view selects
// as it is from a base table keeps that column's definition; any other
// gets the type of its expression, nullable. An invalid view is 1356.
func (s *Session) viewTable(ctx context.Context, v *catalog.View) (*catalog.Table, error) {
	item, err := s.viewSource(ctx, v, v.Name)
	if err != nil {
		return nil, err
	}
	def := &catalog.Table{DB: v.DB, Name: v.Name, HiddenPK: true, AutoIncCol: -1,
		Indexes: []*catalog.Index{{Name: "PRIMARY", Primary: true}}}
	var base []*catalog.Column
	if sel, err := s.parseViewQuery(v); err == nil {
		base = s.viewBaseColumns(ctx, sel)
	}
	for i, c := range item.def.Columns {
		var col catalog.Column
		if i < len(base) && base[i] != nil {
			col = *base[i]
			col.AutoIncrement = false
			col.Generated, col.GeneratedStored = "", false
		} else {
			var t evalengine.Type
			if i < len(item.types) {
				t = item.types[i]
			}
			col = columnOfType(t)
		}
		col.Name = c.Name
		def.Columns = append(def.Columns, col)
	}
	return def, nil
}

// viewBaseColumns returns, per select expression of a single-SELECT view
// query, the base table column it selects as it is (nil for others).
func (s *Session) viewBaseColumns(ctx context.Context, sel sqlparser.TableStatement) []*catalog.Column {
	p, ok := sel.(*sqlparser.Select)
	if !ok || p.SelectExprs == nil {
		return nil
	}
	out := make([]*catalog.Column, len(p.SelectExprs.Exprs))
	for i, e := range p.SelectExprs.Exprs {
		ae, ok := e.(*sqlparser.AliasedExpr)
		if !ok {
			return nil // a star: positions are not known
		}
		col, ok := ae.Expr.(*sqlparser.ColName)
		if !ok {
			continue
		}
		out[i] = s.fromColumn(ctx, p.From, col)
	}
	return out
}

// fromColumn finds the column definition a qualified column reference
// names among a FROM clause's stored tables and views (nil when it is not
// one).
func (s *Session) fromColumn(ctx context.Context, from []sqlparser.TableExpr, col *sqlparser.ColName) *catalog.Column {
	var found *catalog.Column
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.DerivedTable, *sqlparser.Subquery:
			return false, nil
		case *sqlparser.AliasedTableExpr:
			tn, ok := x.Expr.(sqlparser.TableName)
			if !ok {
				return false, nil
			}
			alias := tn.Name.String()
			if x.As.NotEmpty() {
				alias = x.As.String()
			}
			if alias != col.Qualifier.Name.String() {
				return false, nil
			}
			t := s.eng.Cat.Table(tn.Qualifier.String(), tn.Name.String())
			if t == nil {
				v := s.eng.Cat.View(tn.Qualifier.String(), tn.Name.String())
				if v == nil {
					return false, nil
				}
				if t, _ = s.viewTable(ctx, v); t == nil {
					return false, nil
				}
			}
			if ci := t.ColumnIndex(col.Name.String()); ci >= 0 {
				found = &t.Columns[ci]
			}
			return false, nil
		}
		return true, nil
	}, sqlparser.TableExprs(from))
	return found
}

// columnOfType is the column definition of an expression's type.
func columnOfType(t evalengine.Type) catalog.Column {
	c := catalog.Column{Nullable: true, Type: sqltypes.VarChar, TypeName: "varchar", Collation: coltype.DefaultCollation}
	if !t.Valid() {
		return c
	}
	c.Type, c.Collation = t.Type(), t.Collation()
	size, scale := int(t.Size()), int(t.Scale())
	switch c.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		c.TypeName = "tinyint"
	case sqltypes.Int16, sqltypes.Uint16:
		c.TypeName = "smallint"
	case sqltypes.Int24, sqltypes.Uint24:
		c.TypeName = "mediumint"
	case sqltypes.Int32, sqltypes.Uint32:
		c.TypeName = "int"
	case sqltypes.Int64, sqltypes.Uint64:
		c.TypeName = "bigint"
	case sqltypes.Decimal:
		c.TypeName, c.Length, c.Scale = "decimal", max(size, 1), max(scale, 0)
	case sqltypes.Float32:
		c.TypeName, c.Scale = "float", -1
	case sqltypes.Float64:
		c.TypeName, c.Scale = "double", -1
	case sqltypes.Date:
		c.TypeName = "date"
	case sqltypes.Datetime:
		c.TypeName, c.Scale = "datetime", max(scale, 0)
	case sqltypes.Timestamp:
		c.TypeName, c.Scale = "timestamp", max(scale, 0)
	case sqltypes.Time:
		c.TypeName, c.Scale = "time", max(scale, 0)
	case sqltypes.Year:
		c.TypeName = "year"
	case sqltypes.TypeJSON:
		c.TypeName = "json"
	case sqltypes.Char, sqltypes.VarChar:
		c.Type, c.TypeName, c.Length = sqltypes.VarChar, "varchar", max(size, 0)
	case sqltypes.Binary, sqltypes.VarBinary:
		c.Type, c.TypeName, c.Length = sqltypes.VarBinary, "varbinary", max(size, 0)
	case sqltypes.Text:
		c.TypeName = "longtext"
	case sqltypes.Blob:
		c.TypeName = "longblob"
	default:
		c.Type, c.TypeName = sqltypes.VarChar, "varchar"
	}
	switch c.Type {
	case sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64:
		c.Unsigned = true
	}
	if !c.IsText() && c.Type != sqltypes.Enum && c.Type != sqltypes.Set {
		c.Collation = 63
	}
	return c
}

// viewsOf lists the views of a database the session may see.
func (s *Session) viewsOf(db string) []*catalog.View {
	if isSystemSchema(db) {
		return nil
	}
	all := s.eng.Cat.Views(db)
	out := all[:0:0]
	for _, v := range all {
		if s.canSeeTable(db, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

// addViewRows adds the views of db matching like to SHOW [FULL] TABLES
// rows and sorts them by name.
func (s *Session) addViewRows(rows [][]string, db, like string, full bool) [][]string {
	views := s.viewsOf(db)
	if len(views) == 0 {
		return rows
	}
	for _, v := range views {
		if like != "" && !likeMatch(like, v.Name) {
			continue
		}
		r := []string{v.Name}
		if full {
			r = append(r, "VIEW")
		}
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}

// addViewStatusRows adds SHOW TABLE STATUS rows of views (every column
// NULL but Name and Comment 'VIEW') and sorts them by name.
func (s *Session) addViewStatusRows(rows [][]string, db, like string) [][]string {
	views := s.viewsOf(db)
	if len(views) == 0 {
		return rows
	}
	for _, v := range views {
		if like != "" && !likeMatch(like, v.Name) {
			continue
		}
		r := make([]string, 18)
		for i := range r {
			r[i] = nullStr
		}
		r[0], r[11], r[17] = v.Name, unixTime(v.CreateTime), "VIEW"
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] })
	return rows
}

// showCreateViewStmt answers SHOW CREATE VIEW: 1146 for a missing name,
// 1347 for a base table.
func (s *Session) showCreateViewStmt(tn sqlparser.TableName) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(tn.Qualifier)
	if err != nil {
		return nil, err
	}
	name := tn.Name.String()
	if v := s.eng.Cat.View(db, name); v != nil {
		return s.showCreateView(v), nil
	}
	if s.eng.Cat.Table(db, name) != nil {
		return nil, notView(db, name)
	}
	return nil, sqlerr.NoTable(db, name)
}

// View resolves a view for information_schema (vtable.Source).
func (x *sysSource) View(v *catalog.View) vtable.ViewInfo {
	s := x.s
	// information_schema shows the stored text, tables qualified.
	info := vtable.ViewInfo{Definition: v.Select}
	// Resolving plans the view's query: keep the session's planning
	// state as it was.
	savedPrivate := s.planPrivate
	if t, err := s.viewTable(x.ctx, v); err == nil {
		info.Columns = t
	}
	s.planPrivate = savedPrivate
	if sel, err := s.parseViewQuery(v); err == nil {
		info.Updatable = viewUpdatable(v, sel)
	}
	return info
}

// checkView is CHECK TABLE of a view: OK when its query still resolves,
// else the error and "Corrupt", as MySQL reports it.
func (s *Session) checkView(ctx context.Context, v *catalog.View, msg func(typ, text string) []string) [][]string {
	saved := s.planPrivate
	_, err := s.viewSource(ctx, v, v.Name)
	s.planPrivate = saved
	if err != nil {
		return [][]string{msg("Error", sqlerr.From(err).Message), msg("error", "Corrupt")}
	}
	return [][]string{msg("status", "OK")}
}
