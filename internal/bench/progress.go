package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress keeps a live status line on stderr: step n/N, what runs, elapsed
// time and an ETA from the planned durations of the remaining steps, scaled
// by how long finished steps really took against their plan.
type progress struct {
	w        io.Writer
	tty      bool
	start    time.Time
	mu       sync.Mutex
	total    int
	done     int
	planned  time.Duration // planned duration of all steps
	plDone   time.Duration // planned duration of finished steps
	curPlan  time.Duration
	curStart time.Time
	label    string
	stop     chan struct{}
	wg       sync.WaitGroup
	lastLen  int
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now(), stop: make(chan struct{})}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	if p.tty {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-p.stop:
					return
				case <-t.C:
					p.mu.Lock()
					p.drawLocked()
					p.mu.Unlock()
				}
			}
		}()
	}
	return p
}

// plan adds n steps of duration d each to the plan.
func (p *progress) plan(n int, d time.Duration) {
	p.mu.Lock()
	p.total += n
	p.planned += time.Duration(n) * d
	p.mu.Unlock()
}

// begin marks the start of the next planned step of duration d.
func (p *progress) begin(label string, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.label, p.curPlan, p.curStart = label, d, time.Now()
	if !p.tty {
		fmt.Fprintf(p.w, "[%d/%d] %s | elapsed %s | ETA %s\n", p.done+1, p.total, label, fmtDuration(time.Since(p.start)), fmtDuration(p.etaLocked()))
		return
	}
	p.drawLocked()
}

// end marks the current step finished.
func (p *progress) end() {
	p.mu.Lock()
	p.done++
	p.plDone += p.curPlan
	p.curPlan = 0
	p.mu.Unlock()
}

// logf prints a message above the status line.
func (p *progress) logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.lastLen))
	}
	fmt.Fprintf(p.w, format+"\n", args...)
	if p.tty {
		p.drawLocked()
	}
}

// etaLocked estimates the remaining time.
func (p *progress) etaLocked() time.Duration {
	remaining := p.planned - p.plDone
	elapsedDone := time.Duration(0)
	if !p.curStart.IsZero() {
		elapsedDone = p.curStart.Sub(p.start)
	}
	scale := 1.0
	if p.plDone > 0 && elapsedDone > 0 {
		scale = float64(elapsedDone) / float64(p.plDone)
		scale = min(max(scale, 0.5), 3)
	}
	eta := time.Duration(float64(remaining)*scale) - time.Since(p.curStart)
	if p.curStart.IsZero() {
		eta = time.Duration(float64(remaining) * scale)
	}
	return max(eta, 0)
}

func (p *progress) drawLocked() {
	if !p.tty || p.label == "" {
		return
	}
	line := fmt.Sprintf("[%d/%d] %s | step %s | elapsed %s | ETA %s", min(p.done+1, p.total), p.total, p.label,
		fmtDuration(time.Since(p.curStart)), fmtDuration(time.Since(p.start)), fmtDuration(p.etaLocked()))
	pad := ""
	if n := p.lastLen - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.lastLen = len(line)
}

// close stops the ticker and ends the status line.
func (p *progress) close() {
	close(p.stop)
	p.wg.Wait()
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
