package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/strata-db/strata/internal/sql"
)

// NewRegistry returns a registry holding the engine's metrics and Go's
// runtime and process metrics.
func NewRegistry(eng *sql.Engine) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(&collector{eng: eng},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// NewHandler serves the admin endpoints: /metrics (Prometheus' text
// format, from reg) and /healthz ("ok" while the server runs).
func NewHandler(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}
