package sql

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Miscellaneous functions evalengine lacks: RAND([seed]), UUID_SHORT(),
// SLEEP(n), BENCHMARK(count, expr).

func init() {
	registerBuiltin("rand", &builtin{minArgs: 0, maxArgs: 1, fn: fnRand, typ: typeOf(sqltypes.Float64), volatile: true})
	registerBuiltin("uuid_short", &builtin{minArgs: 0, maxArgs: 0, fn: fnUUIDShort, typ: typeOf(sqltypes.Uint64), volatile: true})
	registerBuiltin("sleep", &builtin{minArgs: 1, maxArgs: 1, fn: fnSleep, typ: typeOf(sqltypes.Int64), volatile: true})
	registerBuiltin("benchmark", &builtin{minArgs: 2, maxArgs: 2, fn: fnBenchmark, typ: typeOf(sqltypes.Int64), volatile: true})
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

// randStates holds the generators of RAND(seed) per statement execution
// (execCtx) and call site, so that a constant seed gives MySQL's sequence
// over the rows of the statement; a seed that changes restarts it. The call
// site is identified by the argument slice builtinSlot reuses for every
// call of one compiled expression. Entries go away with their execCtx.
var randStates struct {
	sync.Mutex
	m map[weak.Pointer[execCtx]]map[*sqltypes.Value]*seededGen
}

type seededGen struct {
	seed int64
	gen  *mysqlRand
}

func seededRand(ex *execCtx, site *sqltypes.Value, seed int64) float64 {
	if ex == nil || site == nil {
		return newMySQLRand(seed).next()
	}
	key := weak.Make(ex)
	randStates.Lock()
	defer randStates.Unlock()
	if randStates.m == nil {
		randStates.m = map[weak.Pointer[execCtx]]map[*sqltypes.Value]*seededGen{}
	}
	sites := randStates.m[key]
	if sites == nil {
		sites = map[*sqltypes.Value]*seededGen{}
		randStates.m[key] = sites
		runtime.AddCleanup(ex, func(k weak.Pointer[execCtx]) {
			randStates.Lock()
			delete(randStates.m, k)
			randStates.Unlock()
		}, key)
	}
	g := sites[site]
	if g == nil || g.seed != seed {
		g = &seededGen{seed: seed, gen: newMySQLRand(seed)}
		sites[site] = g
	}
	return g.gen.next()
}

func fnRand(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
	if len(a) == 0 {
		return sqltypes.NewFloat64(rand.Float64()), nil
	}
	seed := int64(0)
	if !a[0].IsNull() {
		seed = argInt(a[0])
	}
	return sqltypes.NewFloat64(seededRand(ex, &a[0], seed)), nil
}

// uuidShort is the UUID_SHORT counter: (server_id & 255) << 56 +
// (server start time in seconds) << 24, incremented by each call.
var uuidShort struct {
	once sync.Once
	n    atomic.Uint64
}

func fnUUIDShort(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
	uuidShort.once.Do(func() {
		serverID := uint64(1)
		if ex != nil && ex.s != nil && ex.s.eng != nil {
			if v, ok := ex.s.sysVar("server_id"); ok {
				if n, err := strconv.ParseUint(v.ToString(), 10, 64); err == nil {
					serverID = n
				}
			}
		}
		uuidShort.n.Store((serverID&255)<<56 + uint64(time.Now().Unix())<<24)
	})
	return sqltypes.NewUint64(uuidShort.n.Add(1) - 1), nil
}

func (ex *execCtx) context() context.Context {
	if ex != nil && ex.ctx != nil {
		return ex.ctx
	}
	return context.Background()
}

func (ex *execCtx) strictMode() bool {
	return ex != nil && ex.s != nil && (ex.s.sqlMode.strictTrans || ex.s.sqlMode.strictAll)
}

// fnSleep implements SLEEP(n): 0 after n seconds, 1 when interrupted (the
// statement's context is cancelled). A NULL or negative n is an error in
// strict mode and a warning otherwise.
func fnSleep(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
	secs := argFloat(a[0])
	if a[0].IsNull() || secs < 0 {
		if ex.strictMode() {
			return sqltypes.NULL, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to sleep")
		}
		ex.warnf(sqlerror.ERWrongArguments, "Incorrect arguments to sleep")
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
	case <-ex.context().Done():
		return sqltypes.NewInt64(1), nil
	}
}

// fnBenchmark implements BENCHMARK(count, expr): the expression was
// evaluated once already as an argument; the result is 0.
func fnBenchmark(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	if n := argInt(a[0]); n < 0 {
		ex.warnf(sqlerror.ErrWrongValueForType, "Incorrect count value: '"+strconv.FormatInt(n, 10)+"' for function benchmark")
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(0), nil
}
