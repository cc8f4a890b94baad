package loaddata

import "sync"

// Prefetch reads a Reader's rows ahead, on a goroutine of its own, so the
// parsing of the file runs beside what the caller does with the rows (on
// two cores a load's parse and its conversions then overlap). Rows come
// out exactly as Reader.Next gives them, in batches copied out of the
// reader's buffer; Next's fields are valid until the next call.
//
// The goroutine is the only user of the Reader until Close returns; Close
// stops it and waits, so the caller may then use the underlying stream
// again (a LOCAL transfer is read to its end by its own Close).
type Prefetch struct {
	rd *Reader
	n  int // fields per row

	full chan *batch
	free chan *batch
	stop chan struct{}
	wg   sync.WaitGroup

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

// Batch sizes: a batch is handed over when it holds this many rows or
// bytes (rows larger than that make a batch of their own).
const (
	batchRows  = 1024
	batchBytes = 256 << 10
	batches    = 4
)

// NewPrefetch starts reading rows of n fields from rd ahead of the caller.
func NewPrefetch(rd *Reader, n int) *Prefetch {
	p := &Prefetch{rd: rd, n: n, full: make(chan *batch, batches), free: make(chan *batch, batches), stop: make(chan struct{})}
	for range batches {
		p.free <- &batch{}
	}
	p.wg.Add(1)
	go p.run()
	return p
}

func (p *Prefetch) run() {
	defer p.wg.Done()
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
		select {
		case p.full <- b:
		case <-p.stop:
			return
		}
		if b.err != nil {
			return
		}
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
	}
	b := p.cur
	r := b.rows[p.i]
	f0, start := 0, 0
	if p.i > 0 {
		f0 = b.rows[p.i-1].end
	}
	if f0 > 0 {
		start = b.fields[f0-1].end
	}
	p.fields = p.fields[:0]
	for _, f := range b.fields[f0:r.end] {
		p.fields = append(p.fields, Field{Value: b.data[start:f.end:f.end], Null: f.null, Enclosed: f.enclosed})
		start = f.end
	}
	p.i++
	p.row = r.num
	return p.fields, r.cut, nil
}

// Row is the number of the row Next returned last (Reader.Row).
func (p *Prefetch) Row() int64 { return p.row }

// Close stops the goroutine and waits for it.
func (p *Prefetch) Close() {
	if p.closed {
		return
	}
	p.closed = true
	close(p.stop)
	p.wg.Wait()
}
