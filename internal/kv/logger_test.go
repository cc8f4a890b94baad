package kv

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recoverFatal runs f and returns the *FatalError it panicked with.
func recoverFatal(t *testing.T, f func()) (fe *FatalError) {
	t.Helper()
	defer func() {
		r := recover()
		var ok bool
		if fe, ok = r.(*FatalError); !ok {
			t.Fatalf("recovered %T %v, want *FatalError", r, r)
		}
	}()
	f()
	return nil
}

func TestSlogLoggerFatalfPanics(t *testing.T) {
	l, buf := testLogger(t)
	l.Infof("hello %d", 1)
	l.Errorf("oops %s", "x")
	fe := recoverFatal(t, func() { l.Fatalf("MANIFEST sync failed: %v", errors.New("disk gone")) })
	if fe.Msg != "MANIFEST sync failed: disk gone" {
		t.Errorf("Msg = %q", fe.Msg)
	}
	out := buf.String()
	for _, want := range []string{`msg="hello 1"`, `msg="oops x"`, "MANIFEST sync failed: disk gone", "fatal=true", "component=pebble"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

// exitingLogger stands for a logger whose Fatalf would exit the process.
type exitingLogger struct {
	lines []string
	t     *testing.T
}

func (l *exitingLogger) Infof(format string, args ...any) {
	l.lines = append(l.lines, "I "+fmt.Sprintf(format, args...))
}

func (l *exitingLogger) Errorf(format string, args ...any) {
	l.lines = append(l.lines, "E "+fmt.Sprintf(format, args...))
}

func (l *exitingLogger) Fatalf(string, ...any) {
	l.t.Fatal("wrapped Fatalf reached: it would have exited the process")
}

func TestGuardLoggerNeverCallsWrappedFatalf(t *testing.T) {
	inner := &exitingLogger{t: t}
	g := guardLogger(inner)
	fe := recoverFatal(t, func() { g.Fatalf("commit error: %d", 7) })
	if fe.Msg != "commit error: 7" {
		t.Errorf("Msg = %q", fe.Msg)
	}
	if len(inner.lines) != 1 || inner.lines[0] != "E FATAL: commit error: 7" {
		t.Errorf("wrapped logger lines = %q", inner.lines)
	}
	// The options installed in Pebble carry the guard too.
	o := PebbleOptions(testBudget, nil, inner)
	recoverFatal(t, func() { o.Logger.Fatalf("x") })
	if guardLogger(g) != g {
		t.Error("guardLogger wraps an already guarded logger again")
	}
	if _, ok := guardLogger(nil).(*slogLogger); !ok {
		t.Error("guardLogger(nil) is not the slog logger")
	}
}
