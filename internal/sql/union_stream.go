package sql

import (
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Streaming a UNION ALL. A top-level chain of UNION ALL (no DISTINCT in
// the chain, no ORDER BY, LIMIT and OFFSET on the whole only) whose parts
// are SELECTs that stream on their own (no sort, no row locks, static
// column types) runs its parts one after the other into the client's
// resultSink, as MySQL's Append over Stream results does.
//
// The whole path (unionPlan.run) merges the parts' fields level by level
// (mergeFields: ((p0 ∪ p1) ∪ p2) ...), converts each level's rows to its
// types (conformRows) and then lets reconcileFields adjust the fields to
// the values, on each part (selectPlan.fields) and on each level. The
// stream computes the same merged fields from the parts' static fields
// before the first row and sends each row through the same conversions,
// level by level (conformRow); it is exact when every reconcileFields
// would have changed nothing, i.e. every value fits its field at every
// step (fitsFields). The rows are held back until a batch's worth is
// there: if one of them does not fit, or the result is smaller than a
// batch, the result is computed whole from the rows held, exactly as
// unionPlan.run would. A row that does not fit after a batch was sent
// ends the statement with error 1235 (its metadata is already with the
// client). A LIMIT stops sending but not the parts: every row must be seen
// to know the fields the whole path would give (a part's or an inner
// level's reconcileFields sees rows a LIMIT drops).

// unionStream runs a UNION ALL chain into a streaming resultSink.
type unionStream struct {
	ex  *execCtx
	dst *resultSink
	// levels[j] merges parts 0..j with part j+1 (levels[len-1] is the
	// statement's plan).
	levels []*unionPlan
	parts  []*selectPlan
	// partFields are the parts' static fields, partCols the columns
	// selectPlan.fields reconciles (its exprCols).
	partFields [][]*querypb.Field
	partCols   [][]int
	// fields and types are each level's merged metadata (mergeFields).
	fields [][]*querypb.Field
	types  [][]evalengine.Type
	mode   evalengine.SQLMode

	limit, offset uint64
	skipped, sent uint64

	// streaming: a batch was sent, the fields are fixed. Until then held
	// keeps every part's rows as produced (copied), heldRows/heldBytes
	// their size; whole: some row did not fit, the result is built whole.
	streaming, whole    bool
	held                [][]Row
	heldRows, heldBytes int
	part                int
	// batch holds the rows to send next (batchBytes their value bytes).
	batch      []Row
	batchBytes int
	// slab holds the converted rows' values until their batch is sent.
	slab Row
}

// unionChain returns the levels and parts of a UNION ALL chain that may
// stream, or ok false.
func unionChain(u *unionPlan) (levels []*unionPlan, parts []*selectPlan, ok bool) {
	var rights []*selectPlan
	cur := u
	for {
		if cur.op != parse.Union || cur.distinct || len(cur.order) > 0 ||
			cur != u && (cur.limit != nil || cur.offset != nil) {
			return nil, nil, false
		}
		r, isSel := cur.right.(*selectPlan)
		if !isSel {
			return nil, nil, false
		}
		levels = append(levels, cur)
		rights = append(rights, r)
		switch l := cur.left.(type) {
		case *unionPlan:
			cur = l
			continue
		case *selectPlan:
			parts = append(parts, l)
		default:
			return nil, nil, false
		}
		break
	}
	for i, j := 0, len(levels)-1; i < j; i, j = i+1, j-1 {
		levels[i], levels[j] = levels[j], levels[i]
	}
	for i := len(rights) - 1; i >= 0; i-- {
		parts = append(parts, rights[i])
	}
	for _, p := range parts {
		if p.sortNeed || p.lock != lockNone {
			return nil, nil, false
		}
	}
	return levels, parts, true
}

// runTo executes the plan; a UNION ALL chain that may stream sends its
// rows to dst in batches while it runs (see unionStream), anything else
// is built whole.
func (u *unionPlan) runTo(ex *execCtx, dst *resultSink) (*sqltypes.Result, error) {
	if !dst.streaming() {
		return u.run(ex)
	}
	levels, parts, ok := unionChain(u)
	if !ok {
		return u.run(ex)
	}
	us := &unionStream{ex: ex, dst: dst, levels: levels, parts: parts, limit: 1 << 63,
		mode: evalengine.ParseSQLMode(ex.s.sqlMode.raw)}
	if !us.plan() {
		return u.run(ex)
	}
	return us.run()
}

// plan computes the merged fields from the parts' static fields and
// reports whether the stream can be exact: every column's metadata known
// statically, every conversion one whose result the field describes.
// LIMIT and OFFSET are evaluated here; an error leaves it to the whole
// path, which reports it where unionPlan.run does.
func (us *unionStream) plan() bool {
	ex := us.ex
	top := us.levels[len(us.levels)-1]
	var err error
	if us.limit, us.offset, err = ex.limitOffset(top.limit, top.offset); err != nil {
		return false
	}
	for _, p := range us.parts {
		f := p.fields(ex, nil)
		if p.staticFields == nil {
			return false
		}
		var cols []int
		for i := 0; i < p.visible; i++ {
			if ci := p.projCols[i]; ci < 0 || p.sc.Cols[ci].Field == nil || p.sc.Cols[ci].Col == nil {
				cols = append(cols, i)
			}
		}
		us.partFields = append(us.partFields, f)
		us.partCols = append(us.partCols, cols)
	}
	env := ex.s.eng.Env.CollationEnv()
	acc := us.partFields[0]
	for j, lv := range us.levels {
		r := us.partFields[j+1]
		if len(acc) != len(r) {
			return false
		}
		f, t := mergeFields(env, acc, r, lv.names)
		for c := range f {
			if !conformable(acc[c], r[c], f[c], t[c]) {
				return false
			}
		}
		us.fields = append(us.fields, f)
		us.types = append(us.types, t)
		acc = f
	}
	return true
}

// conformable reports whether the values of fields l and r, converted as
// conformRow does to field f of type t, are of f's wire class: no
// conversion between sides of one type, conversions to text (a failed one
// gives text too), to numbers from numbers, to temporal types from
// temporal types.
func conformable(l, r, f *querypb.Field, t evalengine.Type) bool {
	if !t.Valid() {
		return l.Type == r.Type && l.Decimals == r.Decimals
	}
	class := wireClass(f.Type)
	if class == 's' {
		return true
	}
	for _, side := range []*querypb.Field{l, r} {
		st := side.Type
		switch {
		case st == sqltypes.Null:
		case class == 't' || class == 'T':
			if !sqltypes.IsDateOrTime(st) {
				return false
			}
		default:
			if !sqltypes.IsIntegral(st) && !sqltypes.IsFloat(st) && !sqltypes.IsDecimal(st) {
				return false
			}
		}
	}
	return true
}

// unionRowFits is fitsFields (a variable for tests).
var unionRowFits = fitsFields

// fitsFields reports whether reconcileFields would leave fields unchanged
// for row: every non-NULL value of cols (all columns when cols is nil) of
// its field's wire class, temporal values with no more fractional digits
// than the field's.
func fitsFields(row Row, fields []*querypb.Field, cols []int, all bool) bool {
	check := func(i int) bool {
		v := row[i]
		if v.IsNull() {
			return true
		}
		f := fields[i]
		c := wireClass(v.Type())
		if c != wireClass(f.Type) {
			return false
		}
		return c != 't' && c != 'T' || fracDigits(v.Raw()) <= f.Decimals
	}
	if all {
		for i := range fields {
			if !check(i) {
				return false
			}
		}
		return true
	}
	for _, i := range cols {
		if !check(i) {
			return false
		}
	}
	return true
}

// convert sends a row of part k through the levels' conversions, checking
// it fits at every step; ok false when it does not. Converted rows are
// carved from *slab; keep tells whether LIMIT and OFFSET keep the row.
func (us *unionStream) convert(k int, row Row, slab *Row, keep bool) (Row, bool) {
	if !unionRowFits(row, us.partFields[k], us.partCols[k], false) {
		return nil, false
	}
	// The statement's own reconcileFields sees only the rows LIMIT and
	// OFFSET keep (keep); those of the parts and inner levels see every row.
	for j := max(k-1, 0); j < len(us.levels); j++ {
		row = conformRowTo(slab, row, us.fields[j], us.types[j], us.mode)
		if (keep || j < len(us.levels)-1) && !unionRowFits(row, us.fields[j], nil, true) {
			return nil, false
		}
	}
	return row, true
}

// coerceFast converts v to type t as evalengine.CoerceTo does where that
// only relabels the value's bytes: text or binary to a text or binary type
// (the bytes are kept whatever the collations), a signed integer in its
// canonical form to a signed integer type. ok is false for anything else.
func coerceFast(v sqltypes.Value, t sqltypes.Type) (sqltypes.Value, bool) {
	switch {
	case sqltypes.IsTextOrBinary(t) && (v.IsText() || v.IsBinary()):
		return sqltypes.MakeTrusted(t, v.Raw()), true
	case sqltypes.IsSigned(t) && v.IsSigned() && canonicalInt(v.Raw()):
		return sqltypes.MakeTrusted(t, v.Raw()), true
	}
	return sqltypes.Value{}, false
}

// canonicalInt reports whether raw is a 64-bit signed integer as
// strconv.AppendInt writes it.
func canonicalInt(raw []byte) bool {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && (len(digits) > 1 || len(raw) > 1) {
		return false // 19 digits may overflow: left to evalengine
	}
	for _, b := range digits {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// run runs the parts in order and returns what is left to send.
func (us *unionStream) run() (*sqltypes.Result, error) {
	us.held = make([][]Row, len(us.parts))
	for k, p := range us.parts {
		us.part = k
		in := &resultSink{send: us.receive, fields: us.partFields[k]}
		res, err := p.runTo(us.ex, in)
		if err != nil {
			return nil, err
		}
		if err := us.take(res.Rows); err != nil {
			return nil, err
		}
	}
	if us.streaming {
		if err := us.flush(); err != nil {
			return nil, err
		}
		return &sqltypes.Result{Fields: us.dst.fields}, nil
	}
	// Never streamed: the whole path from the rows held.
	return us.combineHeld()
}

// receive takes a batch a part streamed (its rows are reused once it
// returns).
func (us *unionStream) receive(res *sqltypes.Result) error { return us.take(res.Rows) }

// take handles rows of the current part.
func (us *unionStream) take(rows []Row) error {
	if !us.streaming {
		for _, r := range rows {
			us.held[us.part] = append(us.held[us.part], copyRow(nil, r))
			us.heldRows++
			for _, v := range r {
				us.heldBytes += len(v.Raw())
			}
		}
		if us.whole || us.heldRows < batchRows && us.heldBytes < batchBytes {
			return nil
		}
		// A batch's worth: stream if every row held fits.
		var conv [][]Row
		var slab Row   // not us.slab: a flush below reuses that
		n := uint64(0) // the row's position in the result (none sent yet)
		for k, part := range us.held {
			out := make([]Row, len(part))
			for i, r := range part {
				keep := n >= us.offset && n-us.offset < us.limit
				n++
				c, ok := us.convert(k, r, &slab, keep)
				if !ok {
					us.whole = true
					return nil
				}
				out[i] = c
			}
			conv = append(conv, out)
		}
		us.streaming = true
		us.dst.fields = us.fields[len(us.fields)-1]
		us.held = nil
		for _, part := range conv {
			for _, r := range part {
				if err := us.add(r); err != nil {
					return err
				}
			}
		}
		return us.flush()
	}
	for _, r := range rows {
		keep := us.skipped >= us.offset && us.sent+uint64(len(us.batch)) < us.limit
		c, ok := us.convert(us.part, r, &us.slab, keep)
		if !ok {
			return sqlerr.Unsupported("a UNION ALL whose later rows change the column types of a result already sent")
		}
		if err := us.add(c); err != nil {
			return err
		}
	}
	// The part reuses its rows' memory once this returns.
	return us.flush()
}

// add applies OFFSET and LIMIT to a converted row and sends a full batch.
func (us *unionStream) add(r Row) error {
	if us.skipped < us.offset {
		us.skipped++
		return nil
	}
	if us.sent+uint64(len(us.batch)) >= us.limit {
		return nil
	}
	us.batch = append(us.batch, r)
	for _, v := range r {
		us.batchBytes += len(v.Raw())
	}
	if len(us.batch) >= batchRows || us.batchBytes >= batchBytes {
		return us.flush()
	}
	return nil
}

// flush sends the rows gathered.
func (us *unionStream) flush() error {
	if len(us.batch) == 0 {
		return nil
	}
	err := us.dst.sendRows(us.batch)
	us.sent += uint64(len(us.batch))
	clear(us.batch)
	clear(us.slab)
	us.batch, us.batchBytes, us.slab = us.batch[:0], 0, us.slab[:0]
	return err
}

// combineHeld computes the result as unionPlan.run does from the parts'
// rows held.
func (us *unionStream) combineHeld() (*sqltypes.Result, error) {
	ex := us.ex
	part := func(k int) *sqltypes.Result {
		return &sqltypes.Result{Fields: us.parts[k].fields(ex, us.held[k]), Rows: us.held[k]}
	}
	acc := part(0)
	for j, lv := range us.levels {
		var err error
		if acc, err = lv.combine(ex, acc, part(j+1)); err != nil {
			return nil, err
		}
	}
	return acc, nil
}
