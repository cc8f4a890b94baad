package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/decimal"
	"vitess.io/vitess/go/mysql/fastparse"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// slideAcc is COUNT, SUM or AVG over frames that slide: as the current
// row advances, rows enter the frame at its end and leave it at its start
// (both bounds only move forward), and a row that leaves is subtracted
// (MySQL's inverse aggregation). A bounded frame then costs O(1) per row
// instead of its size. Exact values are summed as decimals, floating-point
// ones (and strings, by their leading number) as a float; the result is
// a float while the frame holds any of those, as aggState's is.
type slideAcc struct {
	ex     *execCtx
	spec   *aggSpec
	count  int64 // rows (COUNT(*)) or non-NULL values in the frame
	floats int64 // floating-point values in the frame
	f      float64
	dec    decimal.Decimal
	scale  int32 // the most fractional digits of an exact value added
}

// slides reports whether spec can slide: COUNT, SUM and AVG of one
// argument without DISTINCT.
func slides(spec *aggSpec) bool {
	switch spec.name {
	case "count_star":
		return true
	case "count", "sum", "avg":
		return !spec.distinct && len(spec.args) == 1
	}
	return false
}

func (a *slideAcc) reset(ex *execCtx, spec *aggSpec) {
	*a = slideAcc{ex: ex, spec: spec, dec: decimal.NewFromInt(0)}
}

// add adds row to the frame (sign 1) or takes it out (sign -1).
func (a *slideAcc) add(row Row, sign int64) error {
	spec := a.spec
	if spec.name == "count_star" {
		a.count += sign
		return nil
	}
	var v sqltypes.Value
	if spec.argCol >= 0 && spec.argCol < len(row) {
		v = row[spec.argCol]
	} else {
		var err error
		if v, err = a.ex.Eval(spec.args[0], row); err != nil {
			return err
		}
	}
	if v.IsNull() {
		return nil
	}
	a.count += sign
	if spec.name == "count" {
		return nil
	}
	t := v.Type()
	s := v.ToString()
	if sqltypes.IsFloat(t) || sqltypes.IsText(t) || sqltypes.IsBinary(t) {
		x, _ := fastparse.ParseFloat64(s)
		a.floats += sign
		a.f += float64(sign) * x
		return nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return nil
	}
	if dot := strings.IndexByte(s, '.'); dot >= 0 && int32(len(s)-dot-1) > a.scale {
		a.scale = int32(len(s) - dot - 1)
	}
	if sign < 0 {
		a.dec = a.dec.Sub(d)
	} else {
		a.dec = a.dec.Add(d)
	}
	return nil
}

// result is the aggregate of the rows in the frame.
func (a *slideAcc) result() sqltypes.Value {
	spec := a.spec
	switch spec.name {
	case "count", "count_star":
		return sqltypes.NewInt64(a.count)
	}
	if a.count == 0 {
		return sqltypes.NULL
	}
	if a.floats > 0 {
		f, _ := a.dec.Float64()
		f += a.f
		if spec.name == "avg" {
			f /= float64(a.count)
		}
		return sqltypes.NewFloat64(f)
	}
	d, scale := a.dec, a.scale
	if spec.name == "avg" {
		d = d.Div(decimal.NewFromInt(a.count), spec.divPrec)
		scale = min(scale+spec.divPrec, 30)
	}
	return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(d.StringFixed(scale)))
}

// extremeAcc is MIN or MAX over frames that slide: a deque of the rows of
// the frame that can still be its extreme (each one's value beats the
// values of all rows after it), so each row enters and leaves it once. On
// equal values the earlier row stays first, as aggState keeps the first
// extreme it meets.
type extremeAcc struct {
	ex    *execCtx
	spec  *aggSpec
	max   bool
	vals  []sqltypes.Value // the argument of each row of the partition
	colls []collations.ID
	dq    []int // rows of the frame, their values in order (MIN: ascending)
	head  int
}

// slidesExtreme reports whether spec is MIN or MAX without DISTINCT.
func slidesExtreme(spec *aggSpec) bool {
	return (spec.name == "min" || spec.name == "max") && !spec.distinct && len(spec.args) == 1
}

// reset evaluates the argument for the partition's rows.
func (a *extremeAcc) reset(ex *execCtx, spec *aggSpec, part []Row) error {
	a.ex, a.spec, a.max = ex, spec, spec.name == "max"
	a.vals, a.colls = a.vals[:0], a.colls[:0]
	a.dq, a.head = a.dq[:0], 0
	for _, row := range part {
		var v sqltypes.Value
		coll := spec.argColl
		if spec.argCol >= 0 && spec.argCol < len(row) {
			v = row[spec.argCol]
		} else {
			var err error
			if v, coll, err = ex.EvalColl(spec.args[0], row); err != nil {
				return err
			}
			v = cloneValue(v)
		}
		a.vals, a.colls = append(a.vals, v), append(a.colls, coll)
	}
	return nil
}

// enter adds row j (the next after the frame's end) to the frame.
func (a *extremeAcc) enter(j int) error {
	v := a.vals[j]
	if v.IsNull() {
		return nil
	}
	env := a.ex.s.eng.Env.CollationEnv()
	for len(a.dq) > a.head {
		back := a.dq[len(a.dq)-1]
		c, err := evalengine.NullsafeCompare(v, a.vals[back], env, a.colls[j], nil)
		if err != nil {
			return err
		}
		if a.max {
			c = -c
		}
		if c >= 0 {
			break
		}
		a.dq = a.dq[:len(a.dq)-1]
	}
	a.dq = append(a.dq, j)
	return nil
}

// leave drops the rows before lo from the frame.
func (a *extremeAcc) leave(lo int) {
	for a.head < len(a.dq) && a.dq[a.head] < lo {
		a.head++
	}
}

// result is the frame's extreme (NULL for no value).
func (a *extremeAcc) result() sqltypes.Value {
	if a.head == len(a.dq) {
		return sqltypes.NULL
	}
	return a.vals[a.dq[a.head]]
}
