package vtable

import (
	"strings"

	"github.com/strata-db/strata/internal/catalog"
)

// Views in information_schema: their TABLES rows (TABLE_TYPE 'VIEW',
// every storage column NULL, TABLE_COMMENT 'VIEW'), their COLUMNS rows
// (the definitions Source.ViewColumns resolves) and VIEWS.

// ViewInfo is what the SQL layer resolves about a view for
// information_schema.
type ViewInfo struct {
	// Columns describe the view's columns; nil when the view no longer
	// resolves (its tables or columns are gone).
	Columns *catalog.Table
	// Definition is the query as SHOW CREATE VIEW prints it.
	Definition string
	// Updatable: INSERT, UPDATE and DELETE may write through the view.
	Updatable bool
}

// viewsForSchema lists the views of db that src may see.
func viewsForSchema(src Source, db string) []*catalog.View {
	if strings.EqualFold(db, InformationSchema) {
		return nil
	}
	var out []*catalog.View
	for _, v := range src.Catalog().Views(db) {
		if src.CanSeeTable(db, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

// viewTablesRows adds the TABLES rows of db's views.
func viewTablesRows(src Source, db string, out *Rows) {
	for _, v := range viewsForSchema(src, db) {
		out.Add("def", db, v.Name, "VIEW", nil, nil, nil, nil,
			nil, nil, nil, nil, nil, nil, sysTime(v.CreateTime, src.TimeZone()),
			nil, nil, nil, nil, nil, "VIEW")
	}
}

// viewColumnsRows adds the COLUMNS rows of db's views.
func viewColumnsRows(src Source, db string, out *Rows) {
	sub := src.Subject()
	for _, v := range viewsForSchema(src, db) {
		t := src.View(v).Columns
		if t == nil {
			continue
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			privs, visible := sub.ColumnPrivText(db, v.Name, c.Name)
			if !visible {
				continue
			}
			addColumnRow(src, out, db, t, i, privs)
		}
	}
}

// definer is the DEFINER column text: user@host.
func definer(v *catalog.View) string { return v.DefinerUser + "@" + v.DefinerHost }

func viewsRows(src Source, out *Rows) error {
	for _, db := range SchemaNames(src) {
		for _, v := range viewsForSchema(src, db) {
			info := src.View(v)
			check := "NONE"
			if v.CheckOption != "" {
				check = v.CheckOption
			}
			updatable := "NO"
			if info.Updatable {
				updatable = "YES"
			}
			out.Add("def", db, v.Name, info.Definition, check, updatable, definer(v), v.Security,
				v.CharsetClient, v.CollationConnection)
		}
	}
	return nil
}
