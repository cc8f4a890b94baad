package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/strata-db/strata/internal/metrics"
	"github.com/strata-db/strata/internal/sql"
)

// serveAdmin starts the admin listener (--admin-addr): /metrics and
// /healthz. It listens before returning, so a port in use fails the start.
func serveAdmin(addr string, eng *sql.Engine, logger *slog.Logger) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("admin listener: %w", err)
	}
	hs := &http.Server{Handler: metrics.NewHandler(metrics.NewRegistry(eng)), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("admin listener", "err", err)
		}
	}()
	logger.Info("admin endpoints", "addr", ln.Addr().String(), "paths", "/metrics /healthz")
	return hs, nil
}
