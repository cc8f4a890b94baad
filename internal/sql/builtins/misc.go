package builtins

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Miscellaneous functions evalengine lacks: RAND([seed]), UUID_SHORT(),
// SLEEP(n), BENCHMARK(count, expr).

func init() {
	register("rand", &Func{MinArgs: 0, MaxArgs: 1, Eval: fnRand, Type: typeOf(sqltypes.Float64), Volatile: true})
	register("uuid_short", &Func{MinArgs: 0, MaxArgs: 0, Eval: fnUUIDShort, Type: typeOf(sqltypes.Uint64), Volatile: true})
	register("sleep", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnSleep, Type: typeOf(sqltypes.Int64), Volatile: true})
	register("benchmark", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnBenchmark, Type: typeOf(sqltypes.Int64), Volatile: true})
}

// mysqlRand is MySQL's seeded random number generator (my_rnd), so that
// RAND(n) yields MySQL's sequence.
type mysqlRand struct{ seed1, seed2 uint64 }

const randMax = 0x3FFFFFFF

func newMySQLRand(seed int64) *mysqlRand {
	tmp := uint32(seed)
	return &mysqlRand{
		seed1: uint64(uint32(uint64(tmp)*0x10001+55555555)) % randMax,
		seed2: uint64(uint32(uint64(tmp)*0x10000001)) % randMax,
	}
}

func (r *mysqlRand) next() float64 {
	r.seed1 = (r.seed1*3 + r.seed2) % randMax
	r.seed2 = (r.seed1 + r.seed2 + 33) % randMax
	return float64(r.seed1) / float64(randMax)
}

// seededGen is the generator of one RAND(seed) call site in one statement
// execution (State.rand), so that a constant seed gives MySQL's sequence
// over the rows of the statement; a seed that changes restarts it. The call
// site is identified by the argument slice its caller reuses for every call
// of one compiled expression (see Func.Eval).
type seededGen struct {
	seed int64
	gen  *mysqlRand
}

// seededRand returns the next value of the generator of site in st (a
// fresh generator's first value when st is nil).
func seededRand(st *State, site *sqltypes.Value, seed int64) float64 {
	if st == nil || site == nil {
		return newMySQLRand(seed).next()
	}
	if st.rand == nil {
		st.rand = map[*sqltypes.Value]*seededGen{}
	}
	g := st.rand[site]
	if g == nil || g.seed != seed {
		g = &seededGen{seed: seed, gen: newMySQLRand(seed)}
		st.rand[site] = g
	}
	return g.gen.next()
}

func fnRand(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if len(a) == 0 {
		return sqltypes.NewFloat64(rand.Float64()), nil
	}
	seed := int64(0)
	if !a[0].IsNull() {
		seed = argInt(a[0])
	}
	return sqltypes.NewFloat64(seededRand(env.State(), &a[0], seed)), nil
}

// uuidShort is the UUID_SHORT counter: (server_id & 255) << 56 +
// (server start time in seconds) << 24, incremented by each call.
var uuidShort struct {
	once sync.Once
	n    atomic.Uint64
}

func fnUUIDShort(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	uuidShort.once.Do(func() {
		serverID := uint64(1)
		if v, ok := env.SysVar("server_id"); ok {
			if n, err := strconv.ParseUint(v.ToString(), 10, 64); err == nil {
				serverID = n
			}
		}
		uuidShort.n.Store((serverID&255)<<56 + uint64(time.Now().Unix())<<24)
	})
	return sqltypes.NewUint64(uuidShort.n.Add(1) - 1), nil
}

// fnSleep implements SLEEP(n): 0 after n seconds, 1 when interrupted (the
// statement's context is cancelled). A NULL or negative n is an error in
// strict mode and a warning otherwise.
func fnSleep(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	secs := argFloat(a[0])
	if a[0].IsNull() || secs < 0 {
		if env.StrictMode() {
			return sqltypes.NULL, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to sleep")
		}
		env.Warn(sqlerror.ERWrongArguments, "Incorrect arguments to sleep")
		return sqltypes.NewInt64(0), nil
	}
	if secs == 0 {
		return sqltypes.NewInt64(0), nil
	}
	d := time.Duration(secs * float64(time.Second))
	if secs > 1e9 {
		d = time.Duration(1<<63 - 1)
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return sqltypes.NewInt64(0), nil
	case <-env.Context().Done():
		return sqltypes.NewInt64(1), nil
	}
}

// fnBenchmark implements BENCHMARK(count, expr): the expression was
// evaluated once already as an argument; the result is 0.
func fnBenchmark(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	if n := argInt(a[0]); n < 0 {
		env.Warn(sqlerror.ErrWrongValueForType, "Incorrect count value: '"+strconv.FormatInt(n, 10)+"' for function benchmark")
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(0), nil
}
