package evalengine

// strata: MySQL 8.0's scalar JSON functions Vitess's evalengine parses but
// does not evaluate (JSON_TYPE, JSON_VALID, JSON_QUOTE, JSON_CONTAINS,
// JSON_OVERLAPS, JSON_SET and its family, JSON_MERGE_PATCH, ...), and
// JSON_DEPTH and JSON_LENGTH, which it evaluated but could not compile.
// Each is a plain function over its evaluated arguments (jsonFunc), called
// the same way by the interpreter (eval, constant folding) and by the VM (one
// instruction popping the arguments), so the two cannot disagree.

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	vtrpcpb "vitess.io/vitess/go/vt/proto/vtrpc"
	"vitess.io/vitess/go/vt/vterrors"
)

// jsonFunc computes a JSON function from its evaluated arguments. It must
// not modify its arguments: a document it changes is cloned first.
type jsonFunc func(args []eval) (eval, error)

// builtinJSONStrata is a call of a jsonFunc with a fixed result type.
type builtinJSONStrata struct {
	CallExpr
	fn  jsonFunc
	typ ctype
	// isValue tells the arguments that are JSON values (JSON_SET's),
	// converted to JSON where they are computed so a boolean stays one.
	isValue func(i int) bool
}

var _ IR = (*builtinJSONStrata)(nil)

func (call *builtinJSONStrata) eval(env *ExpressionEnv) (eval, error) {
	args, err := call.args(env)
	if err != nil {
		return nil, err
	}
	return call.fn(args)
}

func (call *builtinJSONStrata) compile(c *compiler) (ctype, error) {
	for i, arg := range call.Arguments {
		ct, err := arg.compile(c)
		if err != nil {
			return ctype{}, err
		}
		if call.isValue != nil && call.isValue(i) {
			if _, err := c.compileArgToJSON(ct, 1); err != nil {
				return ctype{}, err
			}
		}
	}
	n := len(call.Arguments)
	c.asm.adjustStack(1 - n)
	fn := call.fn
	c.asm.emit(func(env *ExpressionEnv) int {
		base := env.vm.sp - n
		args := make([]eval, n)
		copy(args, env.vm.stack[base:env.vm.sp])
		r, err := fn(args)
		if err != nil {
			env.vm.err = err
			return 1
		}
		if b, ok := r.(*evalInt64); ok && (b == evalBoolTrue || b == evalBoolFalse) {
			// The VM's results live in its arena, never the shared
			// booleans (which its callers may then overwrite).
			r = env.vm.arena.newEvalBool(b == evalBoolTrue)
		}
		env.vm.sp = base + 1
		env.vm.stack[base] = r
		return 1
	}, "FN %s (SP-%d..SP-1)", call.Method, n)
	return call.typ, nil
}

// Result types, as MySQL reports them.
var (
	jsonTypeDoc  = ctype{Type: sqltypes.TypeJSON, Flag: flagNullable, Col: collationJSON}
	jsonTypeInt  = ctype{Type: sqltypes.Int64, Flag: flagNullable, Col: collationNumeric}
	jsonTypeBool = ctype{Type: sqltypes.Int64, Flag: flagNullable | flagIsBoolean, Col: collationNumeric}
	jsonTypeText = ctype{Type: sqltypes.VarChar, Flag: flagNullable, Col: collationJSON}
	jsonTypeLong = ctype{Type: sqltypes.Text, Flag: flagNullable, Col: collationJSON}
)

// newJSONCall returns the call of fn named method (MySQL's upper-case name)
// with args, typed typ.
func newJSONCall(method string, args TupleExpr, fn jsonFunc, typ ctype) IR {
	return &builtinJSONStrata{CallExpr: CallExpr{Arguments: args, Method: method}, fn: fn, typ: typ}
}

// MySQL's errors for JSON arguments.
func errJSONText(arg int, fname string, err error) error {
	return sqlerror.NewSQLErrorf(sqlerror.ERInvalidJSONTextInParams, "22032",
		"Invalid JSON text in argument %d to function %s: \"%s\".", arg, strings.ToLower(fname), err.Error())
}

func errJSONDataType(arg int, fname string) error {
	return sqlerror.NewSQLErrorf(3146, "22032",
		"Invalid data type for JSON data in argument %d to function %s; a JSON string or JSON type is required.", arg, strings.ToLower(fname))
}

func errJSONPathText(err error) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, "Invalid JSON path expression") {
		msg = "Invalid JSON path expression. " + msg
	}
	return sqlerror.NewSQLErrorf(3143, "42000", "%s", msg)
}

var (
	errJSONPathWildcard = sqlerror.NewSQLErrorf(3149, "42000", "In this situation, path expressions may not contain the * and ** tokens or an array range.")
	errJSONPathCell     = sqlerror.NewSQLErrorf(3165, "42000", "A path expression is not a path to a cell in an array.")
)

func errJSONOneOrAll(fname string) error {
	return sqlerror.NewSQLErrorf(3154, "42000", "The oneOrAll argument to %s may take these values: 'one' or 'all'.", strings.ToLower(fname))
}

// jsonDocArg returns argument number i (0-based) as a JSON document: a JSON
// value as it is, a string parsed.
func jsonDocArg(fname string, args []eval, i int) (*json.Value, error) {
	switch e := args[i].(type) {
	case *evalJSON:
		return e, nil
	case *evalBytes:
		var p json.Parser
		v, err := p.ParseBytes(e.bytes)
		if err != nil {
			return nil, errJSONText(i+1, fname, err)
		}
		return v, nil
	default:
		return nil, errJSONDataType(i+1, fname)
	}
}

// jsonPathArg parses argument number i as a JSON path.
func jsonPathArg(args []eval, i int) (*json.Path, error) {
	var text []byte
	switch e := args[i].(type) {
	case *evalBytes:
		text = e.bytes
	default:
		b, err := evalToVarchar(args[i], collations.CollationUtf8mb4ID, true)
		if err != nil {
			return nil, err
		}
		text = b.bytes
	}
	var p json.PathParser
	jp, err := p.ParseBytes(text)
	if err != nil {
		return nil, errJSONPathText(err)
	}
	return jp, nil
}

// anyNull reports whether any argument is SQL NULL.
func anyNull(args []eval) bool {
	for _, a := range args {
		if a == nil {
			return true
		}
	}
	return false
}

// jsonCall builds the call for a JSON function reached through a dedicated
// parser node or by name; ok is false for a name this file does not know.
func jsonCall(name string, args TupleExpr) (IR, bool, error) {
	var fn jsonFunc
	typ := jsonTypeDoc
	arity := func(lo, hi int) error {
		if len(args) < lo || (hi >= 0 && len(args) > hi) {
			return argError(name)
		}
		return nil
	}
	var err error
	switch name {
	case "JSON_DEPTH":
		err, fn, typ = arity(1, 1), jsonDepth, jsonTypeInt
	case "JSON_LENGTH":
		err, fn, typ = arity(1, 2), jsonLength, jsonTypeInt
	case "JSON_TYPE":
		err, fn, typ = arity(1, 1), jsonType, jsonTypeText
	case "JSON_VALID":
		err, fn, typ = arity(1, 1), jsonValid, jsonTypeBool
	case "JSON_QUOTE":
		err, fn, typ = arity(1, 1), jsonQuote, jsonTypeText
	case "JSON_CONTAINS":
		err, fn, typ = arity(2, 3), jsonContains, jsonTypeBool
	case "JSON_OVERLAPS":
		err, fn, typ = arity(2, 2), jsonOverlaps, jsonTypeBool
	case "JSON_PRETTY":
		err, fn, typ = arity(1, 1), jsonPretty, jsonTypeLong
	case "JSON_SET", "JSON_INSERT", "JSON_REPLACE", "JSON_ARRAY_APPEND", "JSON_ARRAY_INSERT":
		if len(args) < 3 || len(args)%2 == 0 {
			return nil, true, argError(name)
		}
		fn = jsonModifier(name)
		ir := newJSONCall(name, args, fn, typ).(*builtinJSONStrata)
		ir.isValue = func(i int) bool { return i >= 2 && i%2 == 0 }
		return ir, true, nil
	case "JSON_SEARCH":
		err, fn = arity(3, -1), jsonSearch
	case "JSON_REMOVE":
		err, fn = arity(2, -1), jsonRemove
	case "JSON_MERGE_PATCH":
		err, fn = arity(2, -1), jsonMergePatch
	case "JSON_MERGE_PRESERVE", "JSON_MERGE":
		err, fn = arity(2, -1), jsonMergePreserve(name)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return newJSONCall(name, args, fn, typ), true, nil
}

func jsonDepth(args []eval) (eval, error) {
	if args[0] == nil {
		return nil, nil
	}
	doc, err := jsonDocArg("JSON_DEPTH", args, 0)
	if err != nil {
		return nil, err
	}
	return newEvalInt64(int64(doc.Depth())), nil
}

// jsonLength is JSON_LENGTH(doc[, path]): the length of the value at path,
// NULL where there is none.
func jsonLength(args []eval) (eval, error) {
	if anyNull(args) {
		return nil, nil
	}
	doc, err := jsonDocArg("JSON_LENGTH", args, 0)
	if err != nil {
		return nil, err
	}
	if len(args) == 2 {
		jp, err := jsonPathArg(args, 1)
		if err != nil {
			return nil, err
		}
		if jp.ContainsWildcards() {
			return nil, errJSONPathWildcard
		}
		doc = jsonSeek(doc, jp)
		if doc == nil {
			return nil, nil
		}
	}
	return newEvalInt64(int64(doc.Len())), nil
}

// jsonSeek returns the one value a wildcard-free path selects, or nil.
func jsonSeek(doc *json.Value, jp *json.Path) *json.Value {
	var found *json.Value
	jp.Match(doc, true, func(v *json.Value) {
		if found == nil {
			found = v
		}
	})
	return found
}

func jsonType(args []eval) (eval, error) {
	if args[0] == nil {
		return nil, nil
	}
	doc, err := jsonDocArg("JSON_TYPE", args, 0)
	if err != nil {
		return nil, err
	}
	return newEvalText([]byte(jsonTypeName(doc)), collationJSON), nil
}

// jsonTypeName is the name JSON_TYPE gives v.
func jsonTypeName(v *json.Value) string {
	switch v.Type() {
	case json.TypeObject:
		return "OBJECT"
	case json.TypeArray:
		return "ARRAY"
	case json.TypeBoolean:
		return "BOOLEAN"
	case json.TypeNull:
		return "NULL"
	case json.TypeNumber:
		switch v.NumberType() {
		case json.NumberTypeSigned:
			return "INTEGER"
		case json.NumberTypeUnsigned:
			return "UNSIGNED INTEGER"
		case json.NumberTypeDecimal:
			return "DECIMAL"
		default:
			return "DOUBLE"
		}
	case json.TypeString:
		return "STRING"
	case json.TypeDate:
		return "DATE"
	case json.TypeTime:
		return "TIME"
	case json.TypeDateTime:
		return "DATETIME"
	case json.TypeBlob:
		return "BLOB"
	case json.TypeBit:
		return "BIT"
	default:
		return "OPAQUE"
	}
}

func jsonValid(args []eval) (eval, error) {
	switch e := args[0].(type) {
	case nil:
		return nil, nil
	case *evalJSON:
		return newEvalBool(true), nil
	case *evalBytes:
		var p json.Parser
		_, err := p.ParseBytes(e.bytes)
		return newEvalBool(err == nil), nil
	default:
		return nil, errJSONDataType(1, "JSON_VALID")
	}
}

func jsonQuote(args []eval) (eval, error) {
	switch e := args[0].(type) {
	case nil:
		return nil, nil
	case *evalBytes:
		if !sqltypes.IsText(e.SQLType()) {
			break
		}
		text, err := charset.Convert(nil, charset.Charset_utf8mb4{}, e.bytes, colldata.Lookup(e.col.Collation).Charset())
		if err != nil {
			return nil, err
		}
		return newEvalText(jsonQuoteString(nil, string(text)), collationJSON), nil
	}
	return nil, vterrors.Errorf(vtrpcpb.Code_UNIMPLEMENTED, "JSON_QUOTE of a non-string argument")
}

// jsonQuoteString appends s as a JSON string literal, escaped as MySQL does
// (", \, and control characters; \b \f \n \r \t by name, others as \u00XX).
func jsonQuoteString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// jsonCmp compares JSON values for JSON_CONTAINS and JSON_OVERLAPS. MySQL's
// manual calls two numbers of different JSON types (INTEGER and DOUBLE, say)
// not comparable, where its comparison calls them equal: a result that
// depends on such an equality is not answered (unsure), rather than
// answered perhaps wrongly.
type jsonCmp struct {
	unsure bool
}

// equal reports whether a and b are equal JSON values (numbers by value).
func (c *jsonCmp) equal(a, b *json.Value) bool {
	switch a.Type() {
	case json.TypeArray:
		aa, _ := a.Array()
		ba, ok := b.Array()
		if !ok || len(aa) != len(ba) {
			return false
		}
		for i := range aa {
			if !c.equal(aa[i], ba[i]) {
				return false
			}
		}
		return true
	case json.TypeObject:
		ao, _ := a.Object()
		bo, ok := b.Object()
		if !ok || ao.Len() != bo.Len() {
			return false
		}
		equal := true
		ao.Visit(func(k string, v *json.Value) {
			if w := bo.Get(k); equal && (w == nil || !c.equal(v, w)) {
				equal = false
			}
		})
		return equal
	}
	if b.Type() != a.Type() {
		return false
	}
	cmp, err := compareJSONValue(a, b)
	if err != nil || cmp != 0 {
		return false
	}
	if a.Type() == json.TypeNumber && a.NumberType() != b.NumberType() {
		c.unsure = true
	}
	return true
}

// errJSONNumberTypes is the answer when a result depends on the equality
// of numbers of different JSON types.
var errJSONNumberTypes = vterrors.Errorf(vtrpcpb.Code_UNIMPLEMENTED, "comparison of JSON numbers of different types")

// result returns b as the function's result, or the error when it depends on
// an unsure comparison.
func (c *jsonCmp) result(b bool) (eval, error) {
	if c.unsure {
		return nil, errJSONNumberTypes
	}
	return newEvalBool(b), nil
}

// jsonContained reports whether candidate is contained in target by
// MySQL's rules: a scalar in an equal scalar, an array's every element in
// some element of a target array, a non-array in some element of a target
// array, an object's every key in the target object with a contained value.
func (c *jsonCmp) contained(target, candidate *json.Value) bool {
	switch target.Type() {
	case json.TypeArray:
		ta, _ := target.Array()
		if ca, ok := candidate.Array(); ok {
			for _, e := range ca {
				if !c.contained(target, e) {
					return false
				}
			}
			return true
		}
		for _, t := range ta {
			if c.contained(t, candidate) {
				return true
			}
		}
		return false
	case json.TypeObject:
		to, _ := target.Object()
		co, ok := candidate.Object()
		if !ok {
			return false
		}
		contained := true
		co.Visit(func(k string, v *json.Value) {
			if t := to.Get(k); contained && (t == nil || !c.contained(t, v)) {
				contained = false
			}
		})
		return contained
	}
	return c.equal(target, candidate)
}

// jsonContains is JSON_CONTAINS(target, candidate[, path]).
func jsonContains(args []eval) (eval, error) {
	if anyNull(args) {
		return nil, nil
	}
	target, err := jsonDocArg("JSON_CONTAINS", args, 0)
	if err != nil {
		return nil, err
	}
	candidate, err := jsonDocArg("JSON_CONTAINS", args, 1)
	if err != nil {
		return nil, err
	}
	if len(args) == 3 {
		jp, err := jsonPathArg(args, 2)
		if err != nil {
			return nil, err
		}
		if jp.ContainsWildcards() {
			return nil, errJSONPathWildcard
		}
		if target = jsonSeek(target, jp); target == nil {
			return nil, nil
		}
	}
	var c jsonCmp
	return c.result(c.contained(target, candidate))
}

// jsonOverlaps is JSON_OVERLAPS(a, b): two objects share a key with equal
// values, two arrays an element; a non-array beside an array is a
// one-element array; two scalars are equal.
func jsonOverlaps(args []eval) (eval, error) {
	if anyNull(args) {
		return nil, nil
	}
	a, err := jsonDocArg("JSON_OVERLAPS", args, 0)
	if err != nil {
		return nil, err
	}
	b, err := jsonDocArg("JSON_OVERLAPS", args, 1)
	if err != nil {
		return nil, err
	}
	var c jsonCmp
	aa, aIsArray := a.Array()
	ba, bIsArray := b.Array()
	switch {
	case aIsArray || bIsArray:
		if !aIsArray {
			aa = []*json.Value{a}
		}
		if !bIsArray {
			ba = []*json.Value{b}
		}
		for _, x := range aa {
			for _, y := range ba {
				if c.equal(x, y) {
					return c.result(true)
				}
			}
		}
		return c.result(false)
	case a.Type() == json.TypeObject && b.Type() == json.TypeObject:
		ao, _ := a.Object()
		bo, _ := b.Object()
		overlap := false
		ao.Visit(func(k string, v *json.Value) {
			if w := bo.Get(k); w != nil && c.equal(v, w) {
				overlap = true
			}
		})
		return c.result(overlap)
	}
	return c.result(c.equal(a, b))
}

// jsonPretty is JSON_PRETTY(doc): two-space indents, one member or element
// a line.
func jsonPretty(args []eval) (eval, error) {
	if args[0] == nil {
		return nil, nil
	}
	doc, err := jsonDocArg("JSON_PRETTY", args, 0)
	if err != nil {
		return nil, err
	}
	return newEvalRaw(sqltypes.Text, appendPretty(nil, doc, 0), collationJSON), nil
}

func appendPretty(dst []byte, v *json.Value, depth int) []byte {
	indent := func(dst []byte, n int) []byte {
		dst = append(dst, '\n')
		for i := 0; i < n; i++ {
			dst = append(dst, ' ', ' ')
		}
		return dst
	}
	switch v.Type() {
	case json.TypeArray:
		a, _ := v.Array()
		if len(a) == 0 {
			return append(dst, '[', ']')
		}
		dst = append(dst, '[')
		for i, e := range a {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = indent(dst, depth+1)
			dst = appendPretty(dst, e, depth+1)
		}
		dst = indent(dst, depth)
		return append(dst, ']')
	case json.TypeObject:
		o, _ := v.Object()
		if o.Len() == 0 {
			return append(dst, '{', '}')
		}
		dst = append(dst, '{')
		i := 0
		o.Visit(func(k string, e *json.Value) {
			if i > 0 {
				dst = append(dst, ',')
			}
			i++
			dst = indent(dst, depth+1)
			dst = json.NewString(k).MarshalTo(dst)
			dst = append(dst, ':', ' ')
			dst = appendPretty(dst, e, depth+1)
		})
		dst = indent(dst, depth)
		return append(dst, '}')
	}
	return v.MarshalTo(dst)
}

// jsonClone copies the arrays and objects of v (scalars are shared: nothing
// modifies them), so a modification function never changes its argument.
func jsonClone(v *json.Value) *json.Value {
	switch v.Type() {
	case json.TypeArray:
		a, _ := v.Array()
		c := make([]*json.Value, len(a))
		for i, e := range a {
			c[i] = jsonClone(e)
		}
		return json.NewArray(c)
	case json.TypeObject:
		o, _ := v.Object()
		var c json.Object
		o.Visit(func(k string, e *json.Value) {
			c.Add(k, jsonClone(e))
		})
		return json.NewObject(c)
	}
	return v
}

// jsonLeg is one leg of a wildcard-free path: an object member or an array
// cell (index from the start, or from the end when fromEnd: [last-n]).
type jsonLeg struct {
	member  bool
	name    string
	index   int
	fromEnd bool
}

// jsonLegs returns the legs of a wildcard-free path, read from its
// canonical text (the json package keeps them unexported).
func jsonLegs(jp *json.Path) ([]jsonLeg, error) {
	s := jp.String()[1:] // after "$"
	var legs []jsonLeg
	for len(s) > 0 {
		switch s[0] {
		case '.':
			s = s[1:]
			if len(s) > 0 && s[0] == '"' {
				q, err := strconv.QuotedPrefix(s)
				if err != nil {
					return nil, errJSONPathText(err)
				}
				name, _ := strconv.Unquote(q)
				legs = append(legs, jsonLeg{member: true, name: name})
				s = s[len(q):]
				continue
			}
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			legs = append(legs, jsonLeg{member: true, name: s[:end]})
			s = s[end:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, errJSONPathText(vterrors.Errorf(vtrpcpb.Code_INVALID_ARGUMENT, "Invalid JSON path expression."))
			}
			cell := s[1:end]
			s = s[end+1:]
			leg := jsonLeg{}
			if strings.HasPrefix(cell, "last") {
				leg.fromEnd = true
				cell = strings.TrimPrefix(cell[4:], "-")
				if cell == "" {
					cell = "0"
				}
			}
			n, err := strconv.Atoi(cell)
			if err != nil {
				return nil, errJSONPathWildcard
			}
			leg.index = n
			legs = append(legs, leg)
		default:
			return nil, errJSONPathWildcard
		}
	}
	return legs, nil
}

// cell resolves an array leg against an array of n elements as MySQL's
// Json_array_index: the position it names (from the end: n-1-index, or 0
// before the start; from the start: at most n) and whether that is an
// element of the array.
func (l jsonLeg) cell(n int) (pos int, within bool) {
	within = l.index < n
	switch {
	case !l.fromEnd:
		return min(l.index, n), within
	case within:
		return n - 1 - l.index, true
	}
	return 0, false
}

// jsonSlot is a place in a document: its value and how to replace it.
type jsonSlot struct {
	v   *json.Value
	set func(*json.Value)
}

// jsonWalk follows legs from slot as MySQL reads a path (a cell 0 or last
// of a non-array is the value itself); ok is false where nothing is there.
func jsonWalk(slot jsonSlot, legs []jsonLeg) (jsonSlot, bool) {
	for _, leg := range legs {
		v := slot.v
		if leg.member {
			o, ok := v.Object()
			if !ok {
				return jsonSlot{}, false
			}
			child := o.Get(leg.name)
			if child == nil {
				return jsonSlot{}, false
			}
			name := leg.name
			slot = jsonSlot{v: child, set: func(nv *json.Value) { o.Set(name, nv, json.Set) }}
			continue
		}
		a, ok := v.Array()
		if !ok {
			if _, within := leg.cell(1); !within {
				return jsonSlot{}, false
			}
			continue
		}
		i, within := leg.cell(len(a))
		if !within {
			return jsonSlot{}, false
		}
		slot = jsonSlot{v: a[i], set: func(nv *json.Value) { v.SetArrayItem(i, nv, json.Set) }}
	}
	return slot, true
}

// jsonModifier returns JSON_SET, JSON_INSERT, JSON_REPLACE,
// JSON_ARRAY_APPEND or JSON_ARRAY_INSERT: (doc, path, value[, path,
// value]...), the pairs applied left to right to a copy of doc.
func jsonModifier(name string) jsonFunc {
	return func(args []eval) (eval, error) {
		if args[0] == nil {
			return nil, nil
		}
		for i := 1; i < len(args); i += 2 {
			if args[i] == nil {
				return nil, nil
			}
		}
		doc, err := jsonDocArg(name, args, 0)
		if err != nil {
			return nil, err
		}
		doc = jsonClone(doc)
		root := jsonSlot{v: doc, set: func(nv *json.Value) { doc = nv }}
		for i := 1; i < len(args); i += 2 {
			jp, err := jsonPathArg(args, i)
			if err != nil {
				return nil, err
			}
			if jp.ContainsWildcards() {
				return nil, errJSONPathWildcard
			}
			legs, err := jsonLegs(jp)
			if err != nil {
				return nil, err
			}
			value, err := argToJSON(args[i+1])
			if err != nil {
				return nil, err
			}
			root.v = doc
			if err := jsonModify(name, root, legs, value); err != nil {
				return nil, err
			}
		}
		return doc, nil
	}
}

// jsonModify applies one (path, value) pair of the function name.
func jsonModify(name string, root jsonSlot, legs []jsonLeg, value *json.Value) error {
	if name == "JSON_ARRAY_APPEND" {
		slot, ok := jsonWalk(root, legs)
		if !ok {
			return nil
		}
		if a, isArray := slot.v.Array(); isArray {
			slot.v.SetArrayItem(len(a), value, json.Set)
		} else {
			slot.set(json.NewArray([]*json.Value{slot.v, value}))
		}
		return nil
	}
	if len(legs) == 0 {
		if name == "JSON_ARRAY_INSERT" {
			return errJSONPathCell
		}
		if name != "JSON_INSERT" {
			root.set(value)
		}
		return nil
	}
	last := legs[len(legs)-1]
	if name == "JSON_ARRAY_INSERT" && last.member {
		return errJSONPathCell
	}
	parent, ok := jsonWalk(root, legs[:len(legs)-1])
	if !ok {
		return nil
	}
	if last.member {
		if o, isObject := parent.v.Object(); isObject {
			switch name {
			case "JSON_SET":
				o.Set(last.name, value, json.Set)
			case "JSON_INSERT":
				o.Set(last.name, value, json.Insert)
			case "JSON_REPLACE":
				o.Set(last.name, value, json.Replace)
			}
		}
		return nil
	}
	a, isArray := parent.v.Array()
	if !isArray {
		// A non-array is a one-element array: cell 0 is the value itself,
		// another cell wraps it.
		if name == "JSON_ARRAY_INSERT" {
			return nil
		}
		pos, within := last.cell(1)
		switch {
		case within && name != "JSON_INSERT":
			parent.set(value)
		case !within && name != "JSON_REPLACE":
			wrapped := []*json.Value{parent.v}
			parent.set(json.NewArray(insertAt(wrapped, pos, value)))
		}
		return nil
	}
	pos, within := last.cell(len(a))
	switch {
	case name == "JSON_ARRAY_INSERT" || (!within && name != "JSON_REPLACE"):
		parent.set(json.NewArray(insertAt(a, pos, value)))
	case within && name != "JSON_INSERT":
		parent.v.SetArrayItem(pos, value, json.Set)
	}
	return nil
}

// insertAt returns a copy of a with v inserted at position pos.
func insertAt(a []*json.Value, pos int, v *json.Value) []*json.Value {
	out := make([]*json.Value, 0, len(a)+1)
	out = append(out, a[:pos]...)
	out = append(out, v)
	return append(out, a[pos:]...)
}

// jsonMergePatch is JSON_MERGE_PATCH(doc, patch...) (RFC 7396). A NULL
// argument makes the result NULL until a later patch that is not an object
// replaces it, as MySQL does.
func jsonMergePatch(args []eval) (eval, error) {
	var doc *json.Value
	for i := range args {
		if args[i] == nil {
			doc = nil
			continue
		}
		patch, err := jsonDocArg("JSON_MERGE_PATCH", args, i)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			doc = jsonClone(patch)
			continue
		}
		if doc == nil && patch.Type() == json.TypeObject {
			continue
		}
		doc = mergePatch(doc, patch)
	}
	if doc == nil {
		return nil, nil
	}
	return doc, nil
}

func mergePatch(target, patch *json.Value) *json.Value {
	po, ok := patch.Object()
	if !ok {
		return jsonClone(patch)
	}
	var out json.Object
	if target != nil {
		if to, ok := target.Object(); ok {
			to.Visit(func(k string, v *json.Value) { out.Add(k, v) })
		}
	}
	res := json.NewObject(out)
	ro, _ := res.Object()
	po.Visit(func(k string, v *json.Value) {
		if v.Type() == json.TypeNull {
			ro.Del(k)
			return
		}
		ro.Set(k, mergePatch(ro.Get(k), v), json.Set)
	})
	return res
}

// jsonMergePreserve is JSON_MERGE_PRESERVE (and the deprecated JSON_MERGE):
// arrays are concatenated, objects merged with common keys' values merged,
// a scalar beside anything is a one-element array.
func jsonMergePreserve(name string) jsonFunc {
	return func(args []eval) (eval, error) {
		if anyNull(args) {
			return nil, nil
		}
		var doc *json.Value
		for i := range args {
			v, err := jsonDocArg(name, args, i)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				doc = jsonClone(v)
				continue
			}
			doc = mergePreserve(doc, jsonClone(v))
		}
		return doc, nil
	}
}

func mergePreserve(a, b *json.Value) *json.Value {
	ao, aIsObject := a.Object()
	bo, bIsObject := b.Object()
	if aIsObject && bIsObject {
		bo.Visit(func(k string, v *json.Value) {
			if old := ao.Get(k); old != nil {
				ao.Set(k, mergePreserve(old, v), json.Set)
			} else {
				ao.Set(k, v, json.Set)
			}
		})
		return a
	}
	var out []*json.Value
	if aa, ok := a.Array(); ok {
		out = append(out, aa...)
	} else {
		out = append(out, a)
	}
	if ba, ok := b.Array(); ok {
		out = append(out, ba...)
	} else {
		out = append(out, b)
	}
	return json.NewArray(out)
}

// jsonSearch is JSON_SEARCH(doc, 'one'|'all', pattern[, escape[, path]]):
// the paths of the string values (not keys) under path that match the LIKE
// pattern, in document order (object members in MySQL's key order: by
// length, then bytes); a JSON string for one, an array for several, NULL
// for none. The pattern compares as utf8mb4_bin unless it comes from a
// column, as MySQL's LIKE against its utf8mb4_bin source string. Several
// paths answer 1235: MySQL's order for them is not reproduced.
func jsonSearch(args []eval) (eval, error) {
	if args[0] == nil || args[1] == nil || args[2] == nil {
		return nil, nil
	}
	for _, p := range args[min(4, len(args)):] {
		if p == nil {
			return nil, nil
		}
	}
	doc, err := jsonDocArg("JSON_SEARCH", args, 0)
	if err != nil {
		return nil, err
	}
	one, err := jsonCheckOneOrAll(args[1])
	if err != nil {
		return nil, err
	}
	var escape rune
	if len(args) > 3 && args[3] != nil {
		e := []rune(evalToBinary(args[3]).string())
		switch {
		case len(e) > 1:
			return nil, sqlerror.NewSQLErrorf(sqlerror.ERWrongArguments, "HY000", "Incorrect arguments to ESCAPE")
		case len(e) == 1:
			escape = e[0]
		}
	}
	if len(args) > 5 {
		return nil, vterrors.Errorf(vtrpcpb.Code_UNIMPLEMENTED, "JSON_SEARCH with more than one path")
	}
	coll := collationJSON.Collation
	pattern, ok := args[2].(*evalBytes)
	if !ok {
		b, err := evalToVarchar(args[2], collations.CollationUtf8mb4ID, true)
		if err != nil {
			return nil, err
		}
		pattern = b
	} else if sqltypes.IsText(pattern.SQLType()) && pattern.col.Coercibility <= collations.CoerceImplicit {
		coll = pattern.col.Collation
	}
	text, err := charset.Convert(nil, colldata.Lookup(coll).Charset(), pattern.bytes, colldata.Lookup(pattern.col.Collation).Charset())
	if err != nil {
		return nil, err
	}
	wc := colldata.Lookup(coll).Wildcard(text, 0, 0, escape)

	selected := map[*json.Value]bool{doc: true}
	if len(args) > 4 {
		jp, err := jsonPathArg(args, 4)
		if err != nil {
			return nil, err
		}
		selected = map[*json.Value]bool{}
		jp.Match(doc, true, func(v *json.Value) { selected[v] = true })
	}

	var found []*json.Value
	var walk func(v *json.Value, path []byte, inside bool) bool
	walk = func(v *json.Value, path []byte, inside bool) bool {
		inside = inside || selected[v]
		switch v.Type() {
		case json.TypeString:
			if s, _ := v.StringBytes(); inside && wc.Match(s) {
				found = append(found, json.NewString(string(path)))
				return one
			}
		case json.TypeArray:
			a, _ := v.Array()
			for i, e := range a {
				p := strconv.AppendInt(append(append([]byte(nil), path...), '['), int64(i), 10)
				if walk(e, append(p, ']'), inside) {
					return true
				}
			}
		case json.TypeObject:
			o, _ := v.Object()
			keys := o.Keys()
			sortMySQLKeys(keys)
			for _, k := range keys {
				p := append(append([]byte(nil), path...), '.')
				if jsonIsIdentifier(k) {
					p = append(p, k...)
				} else {
					p = jsonQuoteString(p, k)
				}
				if walk(o.Get(k), p, inside) {
					return true
				}
			}
		}
		return false
	}
	walk(doc, []byte("$"), false)
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	return json.NewArray(found), nil
}

// sortMySQLKeys sorts object keys as MySQL stores them: shorter first, then
// by bytes.
func sortMySQLKeys(keys []string) {
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
}

// jsonIsIdentifier reports whether a member name prints unquoted in a path
// (an ECMAScript identifier).
func jsonIsIdentifier(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		ok := r == '_' || r == '$' || unicode.IsLetter(r)
		if i > 0 {
			ok = ok || unicode.IsDigit(r)
		}
		if !ok {
			return false
		}
	}
	return true
}

// jsonCheckOneOrAll reads JSON_SEARCH's second argument: true for 'one'.
func jsonCheckOneOrAll(e eval) (bool, error) {
	switch strings.ToLower(evalToBinary(e).string()) {
	case "one":
		return true, nil
	case "all":
		return false, nil
	}
	return false, errJSONOneOrAll("JSON_SEARCH")
}

// jsonRemove is JSON_REMOVE(doc, path...): each path's member or array
// cell removed in turn from a copy of doc; a path to nothing is ignored.
func jsonRemove(args []eval) (eval, error) {
	if anyNull(args) {
		return nil, nil
	}
	doc, err := jsonDocArg("JSON_REMOVE", args, 0)
	if err != nil {
		return nil, err
	}
	doc = jsonClone(doc)
	for i := 1; i < len(args); i++ {
		jp, err := jsonPathArg(args, i)
		if err != nil {
			return nil, err
		}
		if jp.ContainsWildcards() {
			return nil, errJSONPathWildcard
		}
		legs, err := jsonLegs(jp)
		if err != nil {
			return nil, err
		}
		if len(legs) == 0 {
			return nil, errJSONVacuousPath
		}
		parent, ok := jsonWalk(jsonSlot{v: doc, set: func(nv *json.Value) { doc = nv }}, legs[:len(legs)-1])
		if !ok {
			continue
		}
		last := legs[len(legs)-1]
		if last.member {
			if o, isObject := parent.v.Object(); isObject {
				o.Del(last.name)
			}
			continue
		}
		if a, isArray := parent.v.Array(); isArray {
			if pos, within := last.cell(len(a)); within {
				parent.v.DelArrayItem(pos)
			}
		}
	}
	return doc, nil
}

var errJSONVacuousPath = sqlerror.NewSQLErrorf(3153, "42000", "The path expression '$' is not allowed in this context.")
