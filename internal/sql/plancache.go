package sql

import (
	"hash/maphash"
	"sync"
	"sync/atomic"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
)

// The engine-wide plan cache.
//
// Every session of an engine shares one cache of parsed and planned
// statements (prepared statements included), keyed by
//
//	(statement text, current database, plan settings, temporary set)
//
// where the text of a text-protocol statement is literal-normalised when
// its constants can be bound as parameters (normkey.go), else as received;
// and stamped with the catalog version the plan was built under (a plan
// whose join order came from statistics also with the statistics version).
// A stale plan is dropped when it is looked up. The temporary set is 0 for
// a session without temporary tables, else an id no other session's key
// carries (temporary.go): a plan over a temporary table stays private.
//
// Plans are handed out exclusively. A plan holds per-execution scratch
// state (the point-lookup key buffer of an access path, the argument
// buffers of strata's function slots, result metadata and DML plans built
// lazily at the first execution, ...), so a plan is checked out
// (planCache.get) by the statement that runs it and returned
// (planCache.put) after the statement ends; while it is out no other
// goroutine can see it. Each key keeps a small pool of idle plans: as many
// copies as statements of that text ran at the same time, not one per
// session. A miss plans a new copy outside any lock.
//
// Nothing in a plan may depend on who runs it: privileges are checked at
// every execution (Session.authorize on the statement), session values
// (user variables, CONNECTION_ID(), DATABASE(), USER(), @@session
// variables) are bind variables filled per execution (bindSessionVars), and
// every setting compilation reads is part of the key (planSettings). A plan
// that captures its planning session (information_schema rows) is marked
// private and never cached.

// Bounds of the cache: idle plans per key, and idle plans per shard (the
// least recently used keys are evicted past it). A sysbench plan is ~4 KB,
// so the whole cache stays under ~20 MB.
const (
	planCacheShards     = 16
	maxPlansPerKey      = 32
	maxPlansPerShard    = 256
	maxPlanKeysPerShard = 256
)

// planKey identifies the statements that can share a plan.
type planKey struct {
	sql string
	db  string
	// settings is interned (Engine.internSettings): equal settings, equal
	// pointer.
	settings *planSettings
	// temp is the session's temporary set id (temporary.go): 0 without
	// temporary tables, else a number no other session's key carries.
	temp uint64
}

// planEntry is the pool of idle plans of one key.
type planEntry struct {
	key planKey
	// version is the catalog version the pooled plans were built under.
	version uint64
	free    []*cachedPlan
	// LRU list of the shard (most recently used first).
	prev, next *planEntry
}

type planShard struct {
	mu      sync.Mutex
	entries map[planKey]*planEntry
	// head is the most recently used entry, tail the least.
	head, tail *planEntry
	// plans counts the idle plans of the shard.
	plans int
}

// planCache is the engine's shared cache; the zero value is ready to use.
type planCache struct {
	seed   maphash.Seed
	once   sync.Once
	shards [planCacheShards]planShard

	// Counters (SHOW STATUS-style; tests read them).
	hits, misses atomic.Uint64
}

func (c *planCache) shard(k *planKey) *planShard {
	c.once.Do(func() { c.seed = maphash.MakeSeed() })
	h := maphash.String(c.seed, k.sql) ^ uint64(len(k.db))
	return &c.shards[h%planCacheShards]
}

// get checks out an idle plan for k that is valid under catalog version
// version and statistics version stats, or returns nil.
func (c *planCache) get(k planKey, version, stats uint64) *cachedPlan {
	return c.lookup(k, version, stats, true)
}

// lookup is get, counting the hit or miss only when count is set.
func (c *planCache) lookup(k planKey, version, stats uint64, count bool) *cachedPlan {
	sh := c.shard(&k)
	sh.mu.Lock()
	e := sh.entries[k]
	if e == nil {
		sh.mu.Unlock()
		if count {
			c.misses.Add(1)
		}
		return nil
	}
	if e.version != version {
		sh.removeLocked(e)
		sh.mu.Unlock()
		if count {
			c.misses.Add(1)
		}
		return nil
	}
	for len(e.free) > 0 {
		cp := e.free[len(e.free)-1]
		e.free[len(e.free)-1] = nil
		e.free = e.free[:len(e.free)-1]
		sh.plans--
		if cp.sel != nil && cp.sel.usesStats && cp.sel.statsVersion != stats {
			continue // planned from older statistics: dropped
		}
		sh.touchLocked(e)
		sh.mu.Unlock()
		if count {
			c.hits.Add(1)
		}
		return cp
	}
	sh.mu.Unlock()
	if count {
		c.misses.Add(1)
	}
	return nil
}

// peek returns an idle plan for k without checking it out (tests).
func (c *planCache) peek(k planKey) *cachedPlan {
	sh := c.shard(&k)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if e := sh.entries[k]; e != nil && len(e.free) > 0 {
		return e.free[len(e.free)-1]
	}
	return nil
}

// put returns a plan to the pool of k once its statement has ended. The
// caller must not use cp afterwards. A plan built under an older catalog
// version than the pool's is dropped; a newer one replaces the pool.
func (c *planCache) put(k planKey, cp *cachedPlan) {
	sh := c.shard(&k)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.entries == nil {
		sh.entries = map[planKey]*planEntry{}
	}
	e := sh.entries[k]
	if e != nil && e.version != cp.version {
		if e.version > cp.version {
			return
		}
		sh.removeLocked(e)
		e = nil
	}
	if e == nil {
		if len(sh.entries) >= maxPlanKeysPerShard {
			sh.removeLocked(sh.tail)
		}
		e = &planEntry{key: k, version: cp.version}
		sh.entries[k] = e
		sh.pushFrontLocked(e)
	} else {
		sh.touchLocked(e)
	}
	if len(e.free) >= maxPlansPerKey {
		return
	}
	e.free = append(e.free, cp)
	sh.plans++
	for sh.plans > maxPlansPerShard && sh.tail != nil {
		if sh.tail == e {
			// The only entry left: drop its oldest idle plan.
			e.free[0] = nil
			e.free = e.free[1:]
			sh.plans--
			continue
		}
		sh.removeLocked(sh.tail)
	}
}

// clear drops every idle plan.
func (c *planCache) clear() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.entries, sh.head, sh.tail, sh.plans = nil, nil, nil, 0
		sh.mu.Unlock()
	}
}

// size returns the number of keys and idle plans held.
func (c *planCache) size() (keys, plans int) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		keys += len(sh.entries)
		plans += sh.plans
		sh.mu.Unlock()
	}
	return keys, plans
}

func (sh *planShard) removeLocked(e *planEntry) {
	delete(sh.entries, e.key)
	sh.plans -= len(e.free)
	e.free = nil
	sh.unlinkLocked(e)
}

func (sh *planShard) unlinkLocked(e *planEntry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		sh.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		sh.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (sh *planShard) pushFrontLocked(e *planEntry) {
	e.next = sh.head
	if sh.head != nil {
		sh.head.prev = e
	}
	sh.head = e
	if sh.tail == nil {
		sh.tail = e
	}
}

func (sh *planShard) touchLocked(e *planEntry) {
	if sh.head == e {
		return
	}
	sh.unlinkLocked(e)
	sh.pushFrontLocked(e)
}

// planKey returns the cache key of sql in the session's current state.
func (s *Session) planKey(sql string) planKey {
	return planKey{sql: sql, db: s.DB, settings: s.plan(), temp: s.temps.setID}
}

// checkoutPlan takes an idle cached plan of sql for this session, or nil.
// The caller runs it and gives it back with returnPlan after the
// statement ends (not on a panic: a plan in an unknown state is dropped).
func (s *Session) checkoutPlan(sql string) *cachedPlan {
	return s.eng.plans.get(s.planKey(sql), s.eng.Cat.Version(), s.eng.Cat.StatsVersion())
}

// returnPlan gives a plan (checked out, or newly built and run) back to
// the engine's cache under the key it was planned under.
func (s *Session) returnPlan(cp *cachedPlan) {
	if cp == nil || cp.stmt == nil || cp.key.sql == "" {
		return
	}
	s.eng.plans.put(cp.key, cp)
}

// peekPlan returns the idle cached plan of sql for the session's current
// key — its literal-normalised key when the text has one (normkey.go) —
// without checking it out (tests).
func (s *Session) peekPlan(sql string) *cachedPlan {
	var n parse.Normalizer
	if n.Normalize(sql) && len(n.Lits) > 0 {
		if cp := s.eng.plans.peek(planKey{sql: string(n.Key), db: s.DB, settings: s.plan(), temp: s.temps.setID}); cp != nil {
			return cp
		}
	}
	return s.eng.plans.peek(s.planKey(sql))
}

// countParams counts the distinct bind variables (?) of a statement.
func countParams(stmt sqlparser.Statement) int {
	seen := map[string]bool{}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if a, ok := n.(*sqlparser.Argument); ok {
			seen[a.Name] = true
		}
		return true, nil
	}, stmt)
	return len(seen)
}

// planCount returns the idle plans the cache holds (SHOW STATUS).
func planCount(c *planCache) int {
	_, n := c.size()
	return n
}
