package coltype

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

// FromAST converts a parsed column definition into a catalog.Column, using
// MySQL 8.0's default strict sql_mode to check the DEFAULT value.
func FromAST(def *sqlparser.ColumnDefinition, tableColl collations.ID) (catalog.Column, error) {
	return FromASTMode(def, tableColl, ModeDefault)
}

// FromASTMode is FromAST under the given sql_mode flags (a non-strict mode
// accepts zero-date defaults, as when restoring old dumps).
func FromASTMode(def *sqlparser.ColumnDefinition, tableColl collations.ID, mode Mode) (catalog.Column, error) {
	col := catalog.Column{Name: def.Name.String(), Nullable: true, Scale: 0}
	ct := def.Type
	if ct == nil {
		return col, errWrongFieldSpec(col.Name)
	}
	if tableColl == collations.Unknown {
		tableColl = DefaultCollation
	}
	if err := setType(&col, ct, tableColl); err != nil {
		return col, err
	}
	if err := applyOptions(&col, ct.Options, mode); err != nil {
		return col, err
	}
	return col, nil
}

func length(ct *sqlparser.ColumnType, def int) int {
	if ct.Length != nil {
		return *ct.Length
	}
	return def
}

// setType fills the type fields of col from ct.
func setType(col *catalog.Column, ct *sqlparser.ColumnType, tableColl collations.ID) error {
	name := strings.ToLower(ct.Type)
	col.Collation = collations.CollationBinaryID
	col.Unsigned = ct.Unsigned || ct.Zerofill
	col.Zerofill = ct.Zerofill
	switch name {
	case "bool", "boolean":
		name = "tinyint"
		col.Length = 1
	case "integer", "int4":
		name = "int"
	case "int1":
		name = "tinyint"
	case "int2":
		name = "smallint"
	case "int3", "middleint":
		name = "mediumint"
	case "int8":
		name = "bigint"
	case "real", "float8", "double precision":
		name = "double"
	case "float4":
		name = "float"
	case "numeric", "dec", "fixed":
		name = "decimal"
	}
	if ii := intInfoByName(name); ii != nil {
		col.TypeName = name
		if col.Length == 0 {
			col.Length = length(ct, 0)
		}
		if col.Length > 255 {
			return newErr(erTooBigDisplay, ssSyntax, "Display width out of range for column '"+col.Name+"' (max = 255)")
		}
		col.Type = ii.signed
		if col.Unsigned {
			col.Type = ii.unsigned
		}
		return nil
	}
	switch name {
	case "bit":
		col.TypeName, col.Type = "bit", sqltypes.Bit
		col.Length = length(ct, 1)
		col.Unsigned, col.Zerofill = false, false
		if col.Length < 1 || col.Length > 64 {
			return newErr(erTooBigDisplay, ssSyntax, "Display width out of range for column '"+col.Name+"' (max = 64)")
		}
	case "decimal":
		col.TypeName, col.Type = "decimal", sqltypes.Decimal
		col.Length = length(ct, 10)
		col.Scale = 0
		if ct.Scale != nil {
			col.Scale = *ct.Scale
		}
		if col.Length > 65 {
			return newErr(erTooBigPrecision, ssSyntax, "Too-big precision "+strconv.Itoa(col.Length)+" specified for '"+col.Name+"'. Maximum is 65.")
		}
		if col.Scale > 30 {
			return newErr(erTooBigScale, ssSyntax, "Too big scale "+strconv.Itoa(col.Scale)+" specified for column '"+col.Name+"'. Maximum is 30.")
		}
		if col.Length == 0 && ct.Length != nil {
			col.Length = 10
		}
		if col.Scale > col.Length {
			return newErr(erMBiggerThanD, ssSyntax, "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '"+col.Name+"').")
		}
	case "float", "double":
		col.TypeName = name
		col.Scale = -1
		if ct.Length != nil && ct.Scale == nil {
			// FLOAT(p): precision in bits picks FLOAT or DOUBLE.
			p := *ct.Length
			if p > 53 {
				return errWrongFieldSpec(col.Name)
			}
			if name == "float" && p > 24 {
				col.TypeName = "double"
			}
		} else if ct.Length != nil {
			col.Length, col.Scale = *ct.Length, *ct.Scale
			if col.Length > 255 {
				return newErr(erTooBigDisplay, ssSyntax, "Display width out of range for column '"+col.Name+"' (max = 255)")
			}
			if col.Scale > 30 {
				return newErr(erTooBigScale, ssSyntax, "Too big scale "+strconv.Itoa(col.Scale)+" specified for column '"+col.Name+"'. Maximum is 30.")
			}
			if col.Scale > col.Length {
				return newErr(erMBiggerThanD, ssSyntax, "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '"+col.Name+"').")
			}
		}
		col.Type = sqltypes.Float64
		if col.TypeName == "float" {
			col.Type = sqltypes.Float32
		}
	case "date":
		col.TypeName, col.Type = "date", sqltypes.Date
	case "datetime", "timestamp", "time":
		col.TypeName = name
		col.Type = map[string]sqltypes.Type{"datetime": sqltypes.Datetime, "timestamp": sqltypes.Timestamp, "time": sqltypes.Time}[name]
		col.Scale = length(ct, 0)
		if col.Scale > 6 {
			return newErr(erTooBigPrecision, ssSyntax, "Too-big precision "+strconv.Itoa(col.Scale)+" specified for '"+col.Name+"'. Maximum is 6.")
		}
	case "year":
		col.TypeName, col.Type = "year", sqltypes.Year
		if ct.Length != nil && *ct.Length != 4 {
			return errWrongFieldSpec(col.Name)
		}
		col.Length = 4
		col.Unsigned, col.Zerofill = false, false
	case "json":
		col.TypeName, col.Type = "json", sqltypes.TypeJSON
	case "binary", "varbinary":
		col.TypeName = name
		col.Type = sqltypes.Binary
		col.Length = length(ct, 1)
		max := 255
		if name == "varbinary" {
			col.Type = sqltypes.VarBinary
			max = 65535
			if ct.Length == nil {
				return newErr(sqlerror.ERParseError, ssSyntax, "You have an error in your SQL syntax; varbinary needs a length for column '"+col.Name+"'")
			}
		}
		if col.Length > max {
			return errTooBigFieldLength(col.Name, max)
		}
	case "tinyblob", "blob", "mediumblob", "longblob":
		col.TypeName = name
		if name == "blob" && ct.Length != nil {
			col.TypeName, col.Length = textKind(*ct.Length, false)
		} else {
			col.Length = blobMax(name)
		}
		col.Type = sqltypes.Blob
	case "char", "varchar", "nchar", "nvarchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set":
		return setTextType(col, name, ct, tableColl)
	case "geometry", "point", "linestring", "polygon", "geometrycollection", "multipoint", "multilinestring", "multipolygon", "vector":
		return newErr(erNotSupportedYet, ssSyntax, "This version of MySQL doesn't yet support '"+name+" columns'")
	default:
		return newErr(sqlerror.ERParseError, ssSyntax, "Unknown column type '"+ct.Type+"' for column '"+col.Name+"'")
	}
	return nil
}

// setTextType handles the character types, which carry a collation.
func setTextType(col *catalog.Column, name string, ct *sqlparser.ColumnType, tableColl collations.ID) error {
	csName := ct.Charset.Name
	if name == "nchar" || name == "nvarchar" {
		name = name[1:]
		if csName == "" {
			csName = "utf8mb3"
		}
	}
	collName := ""
	if ct.Options != nil {
		collName = ct.Options.Collate
	}
	coll, err := ResolveCollation(csName, ct.Charset.Binary, collName, tableColl)
	if err != nil {
		return err
	}
	col.Collation = coll
	col.TypeName = name
	binary := coll == collations.CollationBinaryID
	mbLen := MaxCharLen(coll)
	switch name {
	case "char":
		col.Type = sqltypes.Char
		col.Length = length(ct, 1)
		if binary {
			col.Type, col.TypeName = sqltypes.Binary, "binary"
		}
		if col.Length > 255 {
			return errTooBigFieldLength(col.Name, 255)
		}
	case "varchar":
		if ct.Length == nil {
			return newErr(sqlerror.ERParseError, ssSyntax, "You have an error in your SQL syntax; varchar needs a length for column '"+col.Name+"'")
		}
		col.Type = sqltypes.VarChar
		col.Length = *ct.Length
		if binary {
			col.Type, col.TypeName = sqltypes.VarBinary, "varbinary"
		}
		if max := 65535 / mbLen; col.Length > max {
			return errTooBigFieldLength(col.Name, max)
		}
	case "enum", "set":
		col.Type = sqltypes.Enum
		if name == "set" {
			col.Type = sqltypes.Set
		}
		return setEnumValues(col, ct.EnumValues)
	default: // TEXT kinds
		if name == "text" && ct.Length != nil {
			col.TypeName, col.Length = textKind(*ct.Length*mbLen, true)
		} else {
			col.Length = blobMax(name)
		}
		col.Type = sqltypes.Text
		if binary {
			col.Type = sqltypes.Blob
			col.TypeName = strings.Replace(col.TypeName, "text", "blob", 1)
		}
	}
	return nil
}

// setEnumValues decodes and checks ENUM/SET members.
func setEnumValues(col *catalog.Column, quoted []string) error {
	kind := "ENUM"
	if col.Type == sqltypes.Set {
		kind = "SET"
		if len(quoted) > 64 {
			return newErr(sqlerror.ERTooBigSet, ssGeneral, "Too many strings for column "+col.Name+" and SET")
		}
	}
	if len(quoted) > 65535 {
		return newErr(sqlerror.ERTooBigSet, ssGeneral, "Too many strings for column "+col.Name+" and ENUM")
	}
	vals := make([]string, 0, len(quoted))
	for _, q := range quoted {
		v, err := sqltypes.DecodeStringSQL(q)
		if err != nil {
			v = strings.Trim(q, "'")
		}
		// MySQL strips trailing spaces from ENUM and SET members.
		v = strings.TrimRight(v, " ")
		if kind == "SET" && strings.Contains(v, ",") {
			return newErr(sqlerror.ErrorCode(1367), ssGeneral, "Illegal set '"+v+"' value found during parsing")
		}
		for _, prev := range vals {
			if equalInColl(col.Collation, prev, v) {
				return newErr(sqlerror.ERDuplicatedValueInType, ssGeneral,
					"Column '"+col.Name+"' has duplicated value '"+v+"' in "+kind)
			}
		}
		vals = append(vals, v)
	}
	col.EnumValues = vals
	return nil
}

// applyOptions handles NULL, DEFAULT, ON UPDATE, AUTO_INCREMENT and COMMENT.
func applyOptions(col *catalog.Column, o *sqlparser.ColumnTypeOptions, mode Mode) error {
	if o == nil {
		return nil
	}
	if o.As != nil {
		// The expression is checked and put in MySQL's form by the
		// session (generated.go), which compiles expressions.
		switch {
		case o.Default != nil:
			return newErr(sqlerror.ERWrongUsage, ssGeneral, "Incorrect usage of DEFAULT and generated column")
		case o.Autoincrement:
			return newErr(erUnsupportedOnGenerated, ssGeneral, "'AUTO_INCREMENT' is not supported for generated columns.")
		case o.OnUpdate != nil:
			return newErr(erUnsupportedOnGenerated, ssGeneral, "'ON UPDATE' is not supported for generated columns.")
		}
		col.Generated = sqlparser.String(o.As)
		col.GeneratedStored = o.Storage == sqlparser.StoredStorage
	}
	if o.Null != nil {
		col.Nullable = *o.Null
	}
	if o.KeyOpt == sqlparser.ColKeyPrimary {
		col.Nullable = false
	}
	if o.Comment != nil {
		col.Comment = o.Comment.Val
	}
	if o.Autoincrement {
		if !isIntegral(col) && col.Type != sqltypes.Float32 && col.Type != sqltypes.Float64 {
			return errWrongFieldSpec(col.Name)
		}
		col.AutoIncrement = true
		col.Nullable = false
		if o.Default != nil {
			return errInvalidDefault(col.Name)
		}
	}
	if o.OnUpdate != nil {
		expr, ok := nowExpr(o.OnUpdate)
		if !ok || (col.Type != sqltypes.Datetime && col.Type != sqltypes.Timestamp) || expr.fsp != col.Scale {
			return newErr(sqlerror.ERInvalidOnUpdate, ssGeneral, "Invalid ON UPDATE clause for '"+col.Name+"' column")
		}
		col.OnUpdateExpr = expr.String()
	}
	if o.Default != nil {
		return applyDefault(col, o.Default, o.DefaultLiteral, mode)
	}
	return nil
}

func applyDefault(col *catalog.Column, e sqlparser.Expr, literal bool, mode Mode) error {
	if !literal {
		// MySQL 8.0.13 expression default: DEFAULT (expr).
		col.DefaultExpr = "(" + sqlparser.String(e) + ")"
		return nil
	}
	if now, ok := nowExpr(e); ok {
		if (col.Type != sqltypes.Datetime && col.Type != sqltypes.Timestamp) || now.fsp != col.Scale {
			return errInvalidDefault(col.Name)
		}
		col.DefaultExpr = now.String()
		return nil
	}
	v, ok := literalValue(e)
	if !ok {
		return errInvalidDefault(col.Name)
	}
	if v.IsNull() {
		if !col.Nullable {
			return errInvalidDefault(col.Name)
		}
		col.HasDefault, col.DefaultNull, col.Default = true, true, sqltypes.NULL
		return nil
	}
	if isBlobKind(col) {
		return newErr(sqlerror.ERBlobCantHaveDefault, ssSyntax,
			"BLOB, TEXT, GEOMETRY or JSON column '"+col.Name+"' can't have a default value")
	}
	out, w, err := ConvertMode(col, v, mode, 1)
	if err != nil || (w != nil && w.Level != LevelNote) {
		return errInvalidDefault(col.Name)
	}
	col.HasDefault = true
	col.Default = out
	col.DefaultText = out.ToString()
	return nil
}

// nowFunc is a CURRENT_TIMESTAMP default or ON UPDATE clause.
type nowFunc struct{ fsp int }

func (n nowFunc) String() string {
	if n.fsp == 0 {
		return "CURRENT_TIMESTAMP"
	}
	return "CURRENT_TIMESTAMP(" + strconv.Itoa(n.fsp) + ")"
}

func nowExpr(e sqlparser.Expr) (nowFunc, bool) {
	f, ok := e.(*sqlparser.CurTimeFuncExpr)
	if !ok {
		return nowFunc{}, false
	}
	switch f.Name.Lowered() {
	case "current_timestamp", "now", "localtime", "localtimestamp":
		return nowFunc{fsp: f.Fsp}, true
	}
	return nowFunc{}, false
}

// literalValue evaluates a literal default expression.
func literalValue(e sqlparser.Expr) (sqltypes.Value, bool) {
	switch e := e.(type) {
	case *sqlparser.NullVal:
		return sqltypes.NULL, true
	case sqlparser.BoolVal:
		if e {
			return sqltypes.NewInt64(1), true
		}
		return sqltypes.NewInt64(0), true
	case *sqlparser.IntroducerExpr:
		v, ok := literalValue(e.Expr)
		if ok && strings.EqualFold(e.CharacterSet, "_binary") && !v.IsNull() {
			if b, err := literalBytes(v); err == nil {
				return sqltypes.MakeTrusted(sqltypes.VarBinary, b), true
			}
		}
		return v, ok
	case *sqlparser.UnaryExpr:
		if e.Operator != sqlparser.UMinusOp {
			return sqltypes.Value{}, false
		}
		v, ok := literalValue(e.Expr)
		if !ok || !(sqltypes.IsNumber(v.Type()) || v.Type() == sqltypes.Decimal) {
			return sqltypes.Value{}, false
		}
		s := v.RawStr()
		if strings.HasPrefix(s, "-") {
			s = s[1:]
		} else {
			s = "-" + s
		}
		t := v.Type()
		if t == sqltypes.Uint64 {
			t = sqltypes.Decimal
		}
		return sqltypes.MakeTrusted(t, []byte(s)), true
	case *sqlparser.Literal:
		switch e.Type {
		case sqlparser.StrVal:
			return sqltypes.NewVarChar(e.Val), true
		case sqlparser.IntVal:
			if _, err := strconv.ParseInt(e.Val, 10, 64); err == nil {
				return sqltypes.MakeTrusted(sqltypes.Int64, []byte(e.Val)), true
			}
			if _, err := strconv.ParseUint(e.Val, 10, 64); err == nil {
				return sqltypes.MakeTrusted(sqltypes.Uint64, []byte(e.Val)), true
			}
			return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(e.Val)), true
		case sqlparser.DecimalVal:
			return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(e.Val)), true
		case sqlparser.FloatVal:
			return sqltypes.MakeTrusted(sqltypes.Float64, []byte(e.Val)), true
		case sqlparser.HexNum:
			return sqltypes.MakeTrusted(sqltypes.HexNum, []byte(e.Val)), true
		case sqlparser.HexVal:
			return sqltypes.MakeTrusted(sqltypes.HexVal, []byte("X'"+e.Val+"'")), true
		case sqlparser.BitNum:
			return sqltypes.MakeTrusted(sqltypes.BitNum, []byte(e.Val)), true
		case sqlparser.DateVal:
			return sqltypes.MakeTrusted(sqltypes.Date, []byte(e.Val)), true
		case sqlparser.TimeVal:
			return sqltypes.MakeTrusted(sqltypes.Time, []byte(e.Val)), true
		case sqlparser.TimestampVal:
			return sqltypes.MakeTrusted(sqltypes.Datetime, []byte(e.Val)), true
		}
	}
	return sqltypes.Value{}, false
}
