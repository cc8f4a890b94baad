package sql

import (
	"math"

	"vitess.io/vitess/go/mysql/fastparse"
	"vitess.io/vitess/go/sqltypes"
)

// The standard deviation and variance aggregates: STD, STDDEV and
// STDDEV_POP (population standard deviation), STDDEV_SAMP, VARIANCE and
// VAR_POP (population variance), VAR_SAMP. Their result is a DOUBLE,
// NULL over no rows, and NULL for the sample forms over one row. Values
// accumulate as MySQL's variance_fp_recurrence_next does (Welford's
// recurrence on doubles: the running mean in aggState.sumFloat, the sum
// of squared deviations in aggState.m2), so results match MySQL's to the
// last bit; a string counts as its leading number, as in SUM.

// varianceAgg reports whether name is one of these aggregates.
func varianceAgg(name string) bool {
	switch name {
	case "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		return true
	}
	return false
}

// addVariance adds a non-NULL value; st.count already counts it.
func addVariance(st *aggState, v sqltypes.Value) {
	var f float64
	switch {
	case v.IsIntegral() && v.IsSigned():
		n, _ := v.ToInt64()
		f = float64(n)
	case v.IsIntegral():
		n, _ := v.ToUint64()
		f = float64(n)
	default:
		f, _ = fastparse.ParseFloat64(v.ToString())
	}
	if st.count == 1 {
		st.sumFloat, st.m2 = f, 0
		return
	}
	prev := st.sumFloat
	st.sumFloat = prev + (f-prev)/float64(st.count)
	st.m2 += (f - prev) * (f - st.sumFloat)
}

// varianceResult is the aggregate's value for the rows added.
func varianceResult(name string, st *aggState) sqltypes.Value {
	sample := name == "stddev_samp" || name == "var_samp"
	n := st.count
	if sample {
		n--
	}
	if n <= 0 {
		return sqltypes.NULL
	}
	r := st.m2 / float64(n)
	switch name {
	case "std", "stddev", "stddev_pop", "stddev_samp":
		r = math.Sqrt(r)
	}
	return sqltypes.NewFloat64(r)
}
