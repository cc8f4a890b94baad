package kv

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/cockroachdb/pebble/v2"
)

// Logger receives Pebble's log lines. It is Pebble's logger interface
// (Infof, Errorf, Fatalf). Whatever Logger is supplied, Fatalf is never
// allowed to exit the process: Open and PebbleOptions wrap it so a fatal
// line is logged through Errorf and then raised as a panic of *FatalError.
type Logger = pebble.Logger

// FatalError is the panic value raised when Pebble reports an unrecoverable
// error (for example a failed WAL or MANIFEST write). The DB that raised it
// must not be used again.
type FatalError struct {
	// Msg is the formatted message Pebble passed to Fatalf.
	Msg string
}

// Error implements error.
func (e *FatalError) Error() string { return "pebble fatal error: " + e.Msg }

// NewSlogLogger returns a Logger that writes Pebble's lines to l with the
// attribute component=pebble. A nil l logs text to stderr. Its Fatalf logs at
// error level and panics with *FatalError.
func NewSlogLogger(l *slog.Logger) Logger {
	if l == nil {
		l = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return &slogLogger{l: l.With("component", "pebble")}
}

// slogLogger adapts log/slog to Pebble's Logger interface.
type slogLogger struct {
	l *slog.Logger
}

func (s *slogLogger) Infof(format string, args ...any) {
	s.l.Info(fmt.Sprintf(format, args...))
}

func (s *slogLogger) Errorf(format string, args ...any) {
	s.l.Error(fmt.Sprintf(format, args...))
}

func (s *slogLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.l.Error(msg, "fatal", true)
	fatal(msg)
}

// FatalHook, when set (the server sets it), is called on a fatal storage
// error (a failed WAL write or sync) before the panic. Pebble has already
// applied the failed batch to its memtable, so the process must not go on
// serving: the server's hook logs the reason and exits, and recovery on
// restart replays only what reached the WAL. Tests leave it nil and recover
// the *FatalError panic.
var FatalHook func(msg string)

func fatal(msg string) {
	if FatalHook != nil {
		FatalHook(msg)
	}
	panic(&FatalError{Msg: msg})
}

// fatalGuard wraps any Logger so that Fatalf logs through Errorf and panics
// with *FatalError instead of calling the wrapped Fatalf (which may exit).
type fatalGuard struct {
	Logger
}

func (g fatalGuard) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	g.Logger.Errorf("FATAL: %s", msg)
	fatal(msg)
}

// guardLogger returns a Logger whose Fatalf is guaranteed to panic rather
// than exit; nil means the stderr slog logger.
func guardLogger(l Logger) Logger {
	switch l := l.(type) {
	case nil:
		return NewSlogLogger(nil)
	case *slogLogger, fatalGuard:
		return l
	default:
		return fatalGuard{Logger: l}
	}
}

// eventListener routes the Pebble events an operator needs to see (background
// errors, slow disks, write stalls) to the logger. Flushes and compactions are
// not logged: under load they would flood the log; Metrics covers them.
func eventListener(l Logger) *pebble.EventListener {
	return &pebble.EventListener{
		BackgroundError: func(err error) {
			l.Errorf("background error: %v", err)
		},
		DiskSlow: func(info pebble.DiskSlowInfo) {
			l.Infof("%s", info)
		},
		WriteStallBegin: func(info pebble.WriteStallBeginInfo) {
			l.Infof("%s", info)
		},
		WriteStallEnd: func() {
			l.Infof("write stall ending")
		},
	}
}
