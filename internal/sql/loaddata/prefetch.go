package loaddata

import "sync"

// Prefetch reads a Reader's rows ahead, on a goroutine of its own, so the
// parsing of the file runs beside what the caller does with the rows (on
// two cores a load's parse and its conversions then overlap). Rows come
// out exactly as Reader.Next gives them, in batches copied out of the
// reader's buffer; Next's fields are valid until the next call.
//
// With a Work function, worker goroutines also process each batch after
// it is parsed (a load converts and encodes its rows there) and the
// caller meets the batches in file order, each with Work's result
// (Result).
//
// The goroutines are the only users of the Reader until Close returns;
// Close stops them and waits, so the caller may then use the underlying
// stream again (a LOCAL transfer is read to its end by its own Close).
type Prefetch struct {
	rd *Reader
	n  int // fields per row

	full chan *batch // parsed batches, in file order
	work chan *batch // parsed batches for the workers
	free chan *batch
	stop chan struct{}
	wg   sync.WaitGroup
	fn   func(b *Batch, prev any) any

	cur    *batch
	i      int // next row of cur
	row    int64
	fields []Field
	err    error // the error after the last row (io.EOF at a clean end)
	closed bool
}

// batch is a run of rows copied from the reader.
type batch struct {
	data   []byte
	fields []batchField
	rows   []batchRow
	err    error // the reader's error after these rows, if any
	// result is Work's result; ready gets a token when it is set.
	result any
	ready  chan struct{}
}

type batchField struct {
	end            int // in data; the field starts where the previous one ended
	null, enclosed bool
}

type batchRow struct {
	end int   // in fields
	num int64 // Reader.Row
	cut bool
}

// Batch is a parsed batch as Work sees it.
type Batch struct {
	b      *batch
	fields []Field
}

// Len is the number of rows in the batch.
func (v *Batch) Len() int { return len(v.b.rows) }

// Row returns row i's fields (valid until the next call), as Reader.Next
// returns them, and its number (Reader.Row).
func (v *Batch) Row(i int) ([]Field, bool, int64) {
	v.fields = v.b.row(v.fields[:0], i)
	r := v.b.rows[i]
	return v.fields, r.cut, r.num
}

// row appends row i's fields to dst.
func (b *batch) row(dst []Field, i int) []Field {
	f0, start := 0, 0
	if i > 0 {
		f0 = b.rows[i-1].end
	}
	if f0 > 0 {
		start = b.fields[f0-1].end
	}
	for _, f := range b.fields[f0:b.rows[i].end] {
		dst = append(dst, Field{Value: b.data[start:f.end:f.end], Null: f.null, Enclosed: f.enclosed})
		start = f.end
	}
	return dst
}

// Batch sizes: a batch is handed over when it holds this many rows or
// bytes (rows larger than that make a batch of their own).
const (
	batchRows  = 1024
	batchBytes = 256 << 10
	batches    = 6
)

// NewPrefetch starts reading rows of n fields from rd ahead of the caller.
func NewPrefetch(rd *Reader, n int) *Prefetch {
	return NewPrefetchWork(rd, n, 0, nil)
}

// NewPrefetchWork is NewPrefetch with workers goroutines calling fn on
// every parsed batch; fn gets the result it returned for an earlier batch
// in the same buffers (nil at first), to reuse its memory. fn must not
// keep the Batch.
func NewPrefetchWork(rd *Reader, n, workers int, fn func(b *Batch, prev any) any) *Prefetch {
	p := &Prefetch{rd: rd, n: n, full: make(chan *batch, batches), free: make(chan *batch, batches), stop: make(chan struct{}), fn: fn}
	for range batches {
		p.free <- &batch{ready: make(chan struct{}, 1)}
	}
	if fn != nil && workers > 0 {
		p.work = make(chan *batch, batches)
		for range workers {
			p.wg.Add(1)
			go p.worker()
		}
	}
	p.wg.Add(1)
	go p.run()
	return p
}

func (p *Prefetch) run() {
	defer p.wg.Done()
	if p.work != nil {
		defer close(p.work)
	}
	for {
		var b *batch
		select {
		case b = <-p.free:
		case <-p.stop:
			return
		}
		b.data, b.fields, b.rows, b.err = b.data[:0], b.fields[:0], b.rows[:0], nil
		for len(b.rows) < batchRows && len(b.data) < batchBytes {
			fields, cut, err := p.rd.Next(p.n)
			if err != nil {
				b.err = err
				break
			}
			for _, f := range fields {
				b.data = append(b.data, f.Value...)
				b.fields = append(b.fields, batchField{end: len(b.data), null: f.Null, enclosed: f.Enclosed})
			}
			b.rows = append(b.rows, batchRow{end: len(b.fields), num: p.rd.Row(), cut: cut})
		}
		// In file order to the caller; to a worker, or ready at once.
		select {
		case p.full <- b:
		case <-p.stop:
			return
		}
		if p.work != nil {
			select {
			case p.work <- b:
			case <-p.stop:
				return
			}
		} else {
			b.ready <- struct{}{}
		}
		if b.err != nil {
			return
		}
	}
}

func (p *Prefetch) worker() {
	defer p.wg.Done()
	var v Batch
	for b := range p.work {
		v.b = b
		b.result = p.fn(&v, b.result)
		b.ready <- struct{}{}
	}
}

// Next returns the next row as Reader.Next does.
func (p *Prefetch) Next() ([]Field, bool, error) {
	for p.cur == nil || p.i >= len(p.cur.rows) {
		if p.cur != nil {
			if p.cur.err != nil {
				p.err = p.cur.err
			}
			p.free <- p.cur
			p.cur = nil
		}
		if p.err != nil {
			return nil, false, p.err
		}
		p.cur, p.i = <-p.full, 0
		<-p.cur.ready
	}
	b := p.cur
	p.fields = b.row(p.fields[:0], p.i)
	r := b.rows[p.i]
	p.i++
	p.row = r.num
	return p.fields, r.cut, nil
}

// Result is the Work result of the batch of the row Next returned last,
// and that row's index in it.
func (p *Prefetch) Result() (any, int) {
	if p.cur == nil {
		return nil, 0
	}
	return p.cur.result, p.i - 1
}

// Row is the number of the row Next returned last (Reader.Row).
func (p *Prefetch) Row() int64 { return p.row }

// Close stops the goroutines and waits for them.
func (p *Prefetch) Close() {
	if p.closed {
		return
	}
	p.closed = true
	close(p.stop)
	p.wg.Wait()
}
