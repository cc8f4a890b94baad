package vtable

import (
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/tz"
)

// information_schema tables describing schemas, tables and columns:
// SCHEMATA, TABLES, COLUMNS, PARTITIONS, COLUMN_STATISTICS, VIEWS
// (views.go), TRIGGERS (triggers.go), ROUTINES and PARAMETERS
// (routines.go) and the always-empty EVENTS and FILES.

func init() {
	const is = InformationSchema
	define(is, "SCHEMATA", []string{
		"CATALOG_NAME s64", "SCHEMA_NAME s64", "DEFAULT_CHARACTER_SET_NAME s64",
		"DEFAULT_COLLATION_NAME s64", "SQL_PATH bin0?", "DEFAULT_ENCRYPTION s3",
	}, schemataRows)
	define(is, "TABLES", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "TABLE_TYPE s11",
		"ENGINE s64?", "VERSION i?", "ROW_FORMAT s10?", "TABLE_ROWS bu?",
		"AVG_ROW_LENGTH bu?", "DATA_LENGTH bu?", "MAX_DATA_LENGTH bu?",
		"INDEX_LENGTH bu?", "DATA_FREE bu?", "AUTO_INCREMENT bu?", "CREATE_TIME dt",
		"UPDATE_TIME dt?", "CHECK_TIME dt?", "TABLE_COLLATION s64?", "CHECKSUM b?",
		"CREATE_OPTIONS s256?", "TABLE_COMMENT t?",
	}, tablesRows)
	define(is, "COLUMNS", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "COLUMN_NAME s64?",
		"ORDINAL_POSITION iu", "COLUMN_DEFAULT t?", "IS_NULLABLE s3", "DATA_TYPE lt?",
		"CHARACTER_MAXIMUM_LENGTH b?", "CHARACTER_OCTET_LENGTH b?",
		"NUMERIC_PRECISION bu?", "NUMERIC_SCALE bu?", "DATETIME_PRECISION iu?",
		"CHARACTER_SET_NAME s64?", "COLLATION_NAME s64?", "COLUMN_TYPE t",
		"COLUMN_KEY s3", "EXTRA s256?", "PRIVILEGES s154?", "COLUMN_COMMENT t",
		"GENERATION_EXPRESSION lt", "SRS_ID iu?",
	}, columnsRows)
	define(is, "PARTITIONS", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "PARTITION_NAME s64?",
		"SUBPARTITION_NAME s64?", "PARTITION_ORDINAL_POSITION iu?",
		"SUBPARTITION_ORDINAL_POSITION iu?", "PARTITION_METHOD s13?",
		"SUBPARTITION_METHOD s13?", "PARTITION_EXPRESSION s2048?",
		"SUBPARTITION_EXPRESSION s2048?", "PARTITION_DESCRIPTION t?", "TABLE_ROWS bu?",
		"AVG_ROW_LENGTH bu?", "DATA_LENGTH bu?", "MAX_DATA_LENGTH bu?", "INDEX_LENGTH bu?",
		"DATA_FREE bu?", "CREATE_TIME dt", "UPDATE_TIME dt?", "CHECK_TIME dt?",
		"CHECKSUM b?", "PARTITION_COMMENT t", "NODEGROUP s256?", "TABLESPACE_NAME s268?",
	}, partitionsRows)
	define(is, "VIEWS", []string{
		"TABLE_CATALOG s64", "TABLE_SCHEMA s64", "TABLE_NAME s64", "VIEW_DEFINITION lt?",
		"CHECK_OPTION s8?", "IS_UPDATABLE s3?", "DEFINER s288?", "SECURITY_TYPE s7?",
		"CHARACTER_SET_CLIENT s64", "COLLATION_CONNECTION s64",
	}, viewsRows)
	define(is, "ROUTINES", []string{
		"SPECIFIC_NAME s64", "ROUTINE_CATALOG s64", "ROUTINE_SCHEMA s64",
		"ROUTINE_NAME s64", "ROUTINE_TYPE s9", "DATA_TYPE lt?",
		"CHARACTER_MAXIMUM_LENGTH b?", "CHARACTER_OCTET_LENGTH b?",
		"NUMERIC_PRECISION iu?", "NUMERIC_SCALE iu?", "DATETIME_PRECISION iu?",
		"CHARACTER_SET_NAME s64?", "COLLATION_NAME s64?", "DTD_IDENTIFIER lt?",
		"ROUTINE_BODY s8", "ROUTINE_DEFINITION lt?", "EXTERNAL_NAME bin0?",
		"EXTERNAL_LANGUAGE s64", "PARAMETER_STYLE s3", "IS_DETERMINISTIC s3",
		"SQL_DATA_ACCESS s17", "SQL_PATH bin0?", "SECURITY_TYPE s7", "CREATED dt",
		"LAST_ALTERED dt", "SQL_MODE s520", "ROUTINE_COMMENT t", "DEFINER s288",
		"CHARACTER_SET_CLIENT s64", "COLLATION_CONNECTION s64", "DATABASE_COLLATION s64",
	}, routinesRows)
	define(is, "TRIGGERS", []string{
		"TRIGGER_CATALOG s64", "TRIGGER_SCHEMA s64", "TRIGGER_NAME s64",
		"EVENT_MANIPULATION s6", "EVENT_OBJECT_CATALOG s64", "EVENT_OBJECT_SCHEMA s64",
		"EVENT_OBJECT_TABLE s64", "ACTION_ORDER iu", "ACTION_CONDITION bin0?",
		"ACTION_STATEMENT lt", "ACTION_ORIENTATION s3", "ACTION_TIMING s6",
		"ACTION_REFERENCE_OLD_TABLE bin0?", "ACTION_REFERENCE_NEW_TABLE bin0?",
		"ACTION_REFERENCE_OLD_ROW s3", "ACTION_REFERENCE_NEW_ROW s3", "CREATED dt2",
		"SQL_MODE s520", "DEFINER s288", "CHARACTER_SET_CLIENT s64",
		"COLLATION_CONNECTION s64", "DATABASE_COLLATION s64",
	}, triggersRows)
	define(is, "PARAMETERS", []string{
		"SPECIFIC_CATALOG s64", "SPECIFIC_SCHEMA s64", "SPECIFIC_NAME s64",
		"ORDINAL_POSITION bu", "PARAMETER_MODE s5?", "PARAMETER_NAME s64?",
		"DATA_TYPE lt?", "CHARACTER_MAXIMUM_LENGTH b?", "CHARACTER_OCTET_LENGTH b?",
		"NUMERIC_PRECISION iu?", "NUMERIC_SCALE b?", "DATETIME_PRECISION iu?",
		"CHARACTER_SET_NAME s64?", "COLLATION_NAME s64?", "DTD_IDENTIFIER t",
		"ROUTINE_TYPE s9",
	}, parametersRows)
	define(is, "EVENTS", []string{
		"EVENT_CATALOG s64", "EVENT_SCHEMA s64", "EVENT_NAME s64", "DEFINER s288",
		"TIME_ZONE s64", "EVENT_BODY s3", "EVENT_DEFINITION lt", "EVENT_TYPE s9",
		"EXECUTE_AT dt?", "INTERVAL_VALUE s256?", "INTERVAL_FIELD s18?", "SQL_MODE s520",
		"STARTS dt?", "ENDS dt?", "STATUS s21", "ON_COMPLETION s12", "CREATED dt",
		"LAST_ALTERED dt", "LAST_EXECUTED dt?", "EVENT_COMMENT s2048", "ORIGINATOR iu",
		"CHARACTER_SET_CLIENT s64", "COLLATION_CONNECTION s64", "DATABASE_COLLATION s64",
	}, noRows)
	// mysqldump reads FILES (tablespaces; strata has none) and
	// COLUMN_STATISTICS (histograms, histogram.go).
	define(is, "FILES", []string{
		"FILE_ID b?", "FILE_NAME t?", "FILE_TYPE s256?", "TABLESPACE_NAME s268?",
		"TABLE_CATALOG s64", "TABLE_SCHEMA bin0?", "TABLE_NAME bin0?",
		"LOGFILE_GROUP_NAME s256?", "LOGFILE_GROUP_NUMBER b?", "ENGINE s64",
		"FULLTEXT_KEYS bin0?", "DELETED_ROWS bin0?", "UPDATE_COUNT bin0?",
		"FREE_EXTENTS b?", "TOTAL_EXTENTS b?", "EXTENT_SIZE b?", "INITIAL_SIZE b?",
		"MAXIMUM_SIZE b?", "AUTOEXTEND_SIZE b?", "CREATION_TIME bin0?",
		"LAST_UPDATE_TIME bin0?", "LAST_ACCESS_TIME bin0?", "RECOVER_TIME bin0?",
		"TRANSACTION_COUNTER bin0?", "VERSION b?", "ROW_FORMAT s256?", "TABLE_ROWS bin0?",
		"AVG_ROW_LENGTH bin0?", "DATA_LENGTH bin0?", "MAX_DATA_LENGTH bin0?",
		"INDEX_LENGTH bin0?", "DATA_FREE b?", "CREATE_TIME bin0?", "UPDATE_TIME bin0?",
		"CHECK_TIME bin0?", "CHECKSUM bin0?", "STATUS s256?", "EXTRA s256?",
	}, noRows)
	define(is, "COLUMN_STATISTICS", []string{
		"SCHEMA_NAME s64", "TABLE_NAME s64", "COLUMN_NAME s64", "HISTOGRAM lt",
	}, columnStatisticsRows)
}

// sysTime formats a Unix time as a DATETIME value (nil for 0).
// sysTime shows a creation time (Unix seconds; 0 for none) in loc, as
// MySQL 8.0 shows its data dictionary's TIMESTAMP columns.
func sysTime(sec int64, loc *time.Location) any {
	if sec == 0 {
		return nil
	}
	return time.Unix(sec, 0).In(loc).Format(time.DateTime)
}

// schemaCollation returns the default collation of a schema.
func schemaCollation(cat *catalog.Catalog, db string) collations.ID {
	if strings.EqualFold(db, InformationSchema) {
		return textColl
	}
	if d := cat.Database(db); d != nil && d.Collation != collations.Unknown {
		return d.Collation
	}
	return coltype.DefaultCollation
}

func schemataRows(src Source, out *Rows) error {
	for _, db := range SchemaNames(src) {
		coll := schemaCollation(src.Catalog(), db)
		out.Add("def", db, coltype.CharsetName(coll), coltype.CollationName(coll), nil, "NO")
	}
	return nil
}

// tableCollation returns a table's collation (the default when unset).
func tableCollation(t *catalog.Table) collations.ID {
	if t.Collation == collations.Unknown {
		return coltype.DefaultCollation
	}
	return t.Collation
}

func tablesRows(src Source, out *Rows) error {
	start := src.StartTime().Unix()
	for _, db := range SchemaNames(src) {
		for _, t := range tablesForSchema(src, db) {
			if strings.EqualFold(db, InformationSchema) {
				out.Add("def", db, t.Name, "SYSTEM VIEW", nil, 10, nil, nil,
					nil, nil, nil, nil, nil, nil, sysTime(start, src.TimeZone()),
					nil, nil, nil, nil, "", "")
				continue
			}
			var ai any
			if t.AutoIncCol >= 0 {
				if v, ok := src.NextAutoIncrement(t); ok {
					ai = v
				}
			}
			out.Add("def", db, t.Name, "BASE TABLE", "InnoDB", 10, "Dynamic", src.TableRows(t),
				uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), ai, sysTime(t.CreateTime, src.TimeZone()),
				nil, nil, coltype.CollationName(tableCollation(t)), nil, "", t.Comment)
		}
		viewTablesRows(src, db, out)
	}
	return nil
}

func partitionsRows(src Source, out *Rows) error {
	for _, db := range SchemaNames(src) {
		for _, t := range tablesForSchema(src, db) {
			if strings.EqualFold(db, InformationSchema) {
				continue
			}
			out.Add("def", db, t.Name, nil, nil, nil, nil, nil, nil, nil, nil, nil,
				uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0),
				sysTime(t.CreateTime, src.TimeZone()), nil, nil, nil, "", nil, nil)
		}
	}
	return nil
}

func columnsRows(src Source, out *Rows) error {
	sub := src.Subject()
	for _, db := range SchemaNames(src) {
		system := strings.EqualFold(db, InformationSchema)
		for _, t := range tablesForSchema(src, db) {
			for i := range t.Columns {
				c := &t.Columns[i]
				privs, visible := "select,insert,update,references", true
				if !system {
					// Only the columns the account holds some privilege
					// on are listed, with those privileges.
					privs, visible = sub.ColumnPrivText(db, t.Name, c.Name)
				}
				if !visible {
					continue
				}
				addColumnRow(src, out, db, t, i, privs)
			}
		}
		viewColumnsRows(src, db, out)
	}
	return nil
}

// addColumnRow adds the COLUMNS row of column i of t.
func addColumnRow(src Source, out *Rows, db string, t *catalog.Table, i int, privs string) {
	c := &t.Columns[i]
	nullable := "NO"
	if c.Nullable {
		nullable = "YES"
	}
	// DATA_TYPE through COLUMN_TYPE are the type columns ROUTINES and
	// PARAMETERS have too (typeInfo).
	row := append([]any{"def", db, t.Name, c.Name, i + 1, columnDefault(c, src.TimeZone()), nullable}, typeInfo(c)...)
	out.Add(append(row, ColumnKey(t, i), columnExtra(c), privs, c.Comment, c.Generated, nil)...)
}

// hasCharset reports whether a column has a character set (CHAR, VARCHAR,
// TEXT kinds, ENUM, SET).
func hasCharset(c *catalog.Column) bool {
	return c.IsText() || c.Type == sqltypes.Enum || c.Type == sqltypes.Set
}

// columnDefault is COLUMNS.COLUMN_DEFAULT: the literal default as text, the
// default expression, or NULL.
func columnDefault(c *catalog.Column, loc *time.Location) any {
	switch {
	case c.DefaultExpr != "":
		return c.DefaultExpr
	case c.HasDefault && !c.DefaultNull && !c.Default.IsNull():
		if c.Type == sqltypes.Timestamp {
			// An instant, kept in UTC: shown in session time.
			z := tz.Of(loc)
			if b, ok := z.AppendLocal(nil, c.Default.Raw()); ok {
				return string(b)
			}
		}
		return c.Default.ToString()
	}
	return nil
}

// columnExtra is COLUMNS.EXTRA (MySQL 8.0: auto_increment,
// DEFAULT_GENERATED, on update ...).
func columnExtra(c *catalog.Column) string {
	var parts []string
	if c.AutoIncrement {
		parts = append(parts, "auto_increment")
	}
	if c.DefaultExpr != "" {
		parts = append(parts, "DEFAULT_GENERATED")
	}
	if c.OnUpdateExpr != "" {
		parts = append(parts, "on update "+c.OnUpdateExpr)
	}
	if g := GeneratedExtra(c); g != "" {
		parts = append(parts, g)
	}
	return strings.Join(parts, " ")
}

// GeneratedExtra is the EXTRA of a generated column ("VIRTUAL GENERATED"
// or "STORED GENERATED"), "" for another column.
func GeneratedExtra(c *catalog.Column) string {
	switch {
	case c.Generated == "":
		return ""
	case c.GeneratedStored:
		return "STORED GENERATED"
	}
	return "VIRTUAL GENERATED"
}

// charLengths returns CHARACTER_MAXIMUM_LENGTH and CHARACTER_OCTET_LENGTH.
func charLengths(c *catalog.Column) (any, any) {
	mb := int64(1)
	if hasCharset(c) {
		mb = int64(coltype.MaxCharLen(c.Collation))
	}
	switch c.Type {
	case sqltypes.Char, sqltypes.VarChar:
		return int64(c.Length), int64(c.Length) * mb
	case sqltypes.Binary, sqltypes.VarBinary:
		return int64(c.Length), int64(c.Length)
	case sqltypes.Text, sqltypes.Blob:
		// TEXT kinds report their byte capacity in both columns.
		return int64(c.Length), int64(c.Length)
	case sqltypes.Enum, sqltypes.Set:
		n := int64(coltype.EnumSetChars(c))
		return n, n * mb
	}
	return nil, nil
}

// numericPrecision returns NUMERIC_PRECISION and NUMERIC_SCALE.
func numericPrecision(c *catalog.Column) (any, any) {
	switch c.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		return uint64(3), uint64(0)
	case sqltypes.Int16, sqltypes.Uint16:
		return uint64(5), uint64(0)
	case sqltypes.Int24, sqltypes.Uint24:
		return uint64(7), uint64(0)
	case sqltypes.Int32, sqltypes.Uint32:
		return uint64(10), uint64(0)
	case sqltypes.Int64:
		return uint64(19), uint64(0)
	case sqltypes.Uint64:
		return uint64(20), uint64(0)
	case sqltypes.Decimal:
		return uint64(c.Length), uint64(max(c.Scale, 0))
	case sqltypes.Float32, sqltypes.Float64:
		if c.Scale >= 0 && c.Length > 0 {
			return uint64(c.Length), uint64(c.Scale)
		}
		if c.Type == sqltypes.Float32 {
			return uint64(12), nil
		}
		return uint64(22), nil
	case sqltypes.Bit:
		return uint64(c.Length), nil
	}
	return nil, nil
}

// ColumnKey is SHOW COLUMNS' Key and COLUMNS.COLUMN_KEY: PRI, UNI, MUL or
// "".
func ColumnKey(t *catalog.Table, col int) string {
	if !t.HiddenPK {
		for _, ic := range t.Primary().Columns {
			if ic.Col == col {
				return "PRI"
			}
		}
	}
	for _, ix := range t.Indexes[1:] {
		if len(ix.Columns) == 0 || ix.Columns[0].Col != col {
			continue
		}
		if ix.Unique && len(ix.Columns) == 1 && !t.Columns[col].Nullable {
			if t.HiddenPK {
				return "PRI"
			}
			return "UNI"
		}
		if ix.Unique && len(ix.Columns) == 1 {
			return "UNI"
		}
	}
	for _, ix := range t.Indexes[1:] {
		if len(ix.Columns) > 0 && ix.Columns[0].Col == col {
			return "MUL"
		}
	}
	return ""
}
