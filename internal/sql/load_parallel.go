package sql

import (
	"runtime"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/loaddata"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/tz"
)

// Converting a bulk load's rows on every core. A row whose fields go
// straight to columns converts and encodes without the session (store
// assignment, the defaults of the other columns, TIMESTAMP to UTC, the
// table's keys), so the prefetcher's workers do that for each parsed
// batch (loadEncoder.work) and the statement's goroutine only adds the
// encoded rows to the bulk loader, in file order. A row that needs anything
// more — a NULL or missing field, a truncated line, a conversion that
// warns or fails — is left to the ordinary path, which then handles it
// exactly as without the workers (its warnings, errors and row numbers).

// loadEncoder converts and encodes rows for the workers.
type loadEncoder struct {
	bulk    *table.BulkLoader
	t       *catalog.Table
	targets []int
	zones   []*tz.Zone // per target: its conversion's time zone
	strict  bool
	// tmpl holds the other columns' defaults (constants).
	tmpl Row
	// tsCols are the TIMESTAMP columns stored in UTC from zone z.
	tsCols []int
	z      *tz.Zone
}

// encodedBatch is a worker's result for one batch: each row's encoding,
// or none (the ordinary path takes it).
type encodedBatch struct {
	enc     []byte
	starts  []int // per row: where its encoding starts in enc
	ends    []int // and ends; -1 for none
	row     Row
	tbuf    []byte
	scratch table.EncodeScratch
}

// loadParallel enables the workers (a variable for tests that compare a
// load with and without them).
var loadParallel = true

// loadEncoder returns the encoder of a bulk load whose rows can be
// converted apart, nil otherwise: every field goes to a column (no
// @variables, SET or character set conversion), no CHECK constraint,
// generated column or AUTO_INCREMENT column, and every other column has a
// constant default that satisfies its NOT NULL.
func (s *Session) loadEncoder(p *loadPlan, bulk *table.BulkLoader, checks *checkSet, b *rowBuilder, tbl *table.Table) (*loadEncoder, error) {
	t := p.t
	if !loadParallel || bulk == nil || !bulk.CanEncode() || len(p.setExprs) > 0 || len(p.vars) > 0 || p.cs != nil || checks != nil || t.AutoIncCol >= 0 {
		return nil, nil
	}
	given := make([]bool, len(t.Columns))
	for _, ti := range p.targets {
		if ti < 0 || given[ti] {
			return nil, nil
		}
		given[ti] = true
	}
	e := &loadEncoder{bulk: bulk, t: t, targets: p.targets, strict: b.strict && !b.ignore, tmpl: make(Row, len(t.Columns))}
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Generated != "" {
			return nil, nil
		}
		if given[i] {
			continue
		}
		if c.DefaultExpr != "" || !c.HasDefault && !c.Nullable {
			return nil, nil
		}
		v, err := b.defaultValue(i)
		if err != nil {
			return nil, err
		}
		if v.IsNull() && !c.Nullable {
			return nil, nil
		}
		e.tmpl[i] = v
	}
	for _, ti := range p.targets {
		e.zones = append(e.zones, s.zoneOf(&t.Columns[ti]))
	}
	e.tsCols, e.z = s.zoneCols(tbl)
	return e, nil
}

// workers is the number of goroutines that convert rows.
func (e *loadEncoder) workers() int { return runtime.GOMAXPROCS(0) }

// work converts and encodes the rows of a batch (on a worker goroutine).
func (e *loadEncoder) work(b *loaddata.Batch, prev any) any {
	eb, _ := prev.(*encodedBatch)
	if eb == nil {
		eb = &encodedBatch{row: make(Row, len(e.t.Columns))}
	}
	eb.enc, eb.starts, eb.ends = eb.enc[:0], eb.starts[:0], eb.ends[:0]
	for i := range b.Len() {
		start := len(eb.enc)
		end := -1
		if e.encodeRow(eb, b, i) {
			end = len(eb.enc)
		} else {
			eb.enc = eb.enc[:start]
		}
		eb.starts, eb.ends = append(eb.starts, start), append(eb.ends, end)
	}
	return eb
}

// encodeRow appends row i's encoding to eb.enc; false when the ordinary
// path must take the row.
func (e *loadEncoder) encodeRow(eb *encodedBatch, b *loaddata.Batch, i int) bool {
	fields, cut, num := b.Row(i)
	if cut || len(fields) != len(e.targets) {
		return false
	}
	row := eb.row
	copy(row, e.tmpl)
	for k, ti := range e.targets {
		f := fields[k]
		if f.Null {
			return false
		}
		out, w, err := coltype.ConvertIn(&e.t.Columns[ti], sqltypes.MakeTrusted(sqltypes.VarChar, f.Value), e.strict, int(num), e.zones[k])
		if err != nil || w != nil || out.IsNull() {
			return false
		}
		row[ti] = out
	}
	// TIMESTAMP values are stored in UTC (Session.toStore).
	eb.tbuf = eb.tbuf[:0]
	for _, c := range e.tsCols {
		if !row[c].IsNull() {
			row[c], eb.tbuf, _ = appendUTC(e.z, eb.tbuf, row[c])
		}
	}
	var err error
	eb.enc, err = e.bulk.Encode(eb.enc, row, &eb.scratch)
	return err == nil
}

// encodedRow returns the encoding of the row the prefetcher returned last,
// nil when it has none.
func encodedRow(pf *loaddata.Prefetch) []byte {
	res, i := pf.Result()
	eb, _ := res.(*encodedBatch)
	if eb == nil || eb.ends[i] < 0 {
		return nil
	}
	return eb.enc[eb.starts[i]:eb.ends[i]]
}
