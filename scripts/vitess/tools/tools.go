//go:build tools

// Package tools pins the Vitess binaries the two-shard script builds
// (vtgate, vttablet, vtctld, vtctldclient) to the same vitess.io/vitess
// version strata's own go.mod uses, without adding their dependencies to
// strata's module.
package tools

import (
	_ "vitess.io/vitess/go/cmd/vtctld"
	_ "vitess.io/vitess/go/cmd/vtctldclient"
	_ "vitess.io/vitess/go/cmd/vtgate"
	_ "vitess.io/vitess/go/cmd/vttablet"
)
