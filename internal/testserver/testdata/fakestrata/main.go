// Command fakestrata stands in for the strata binary in testserver's own
// tests: it speaks just enough MySQL protocol (through Vitess) to answer
// `SELECT 1`, honours `serve --datadir --port --bind`, records each start in
// DATADIR/starts, and is steered by environment variables:
//
//	FAKESTRATA_EXIT_ON_START=N  exit with status N before listening
//	FAKESTRATA_TERM_EXIT=N      exit with status N on SIGTERM (default 0)
//	FAKESTRATA_IGNORE_TERM=1    ignore SIGTERM
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vtenv"
)

type handler struct {
	mysql.UnimplementedHandler
	env *vtenv.Environment
}

func (h *handler) ComQuery(c *mysql.Conn, query string, callback func(*sqltypes.Result) error) error {
	q := strings.ToLower(strings.TrimSpace(query))
	switch {
	case q == "select 1":
		return callback(&sqltypes.Result{
			Fields: []*querypb.Field{{Name: "1", Type: sqltypes.Int64}},
			Rows:   [][]sqltypes.Value{{sqltypes.NewInt64(1)}},
		})
	case strings.HasPrefix(q, "use "):
		return callback(&sqltypes.Result{})
	}
	return fmt.Errorf("fakestrata: unsupported query %q", query)
}

func (h *handler) ComQueryMulti(c *mysql.Conn, sql string, callback func(sqltypes.QueryResponse, bool, bool) error) error {
	return fmt.Errorf("fakestrata: multi-query unsupported")
}

func (h *handler) ComPrepare(*mysql.Conn, string) ([]*querypb.Field, uint16, error) {
	return nil, 0, fmt.Errorf("fakestrata: prepare unsupported")
}

func (h *handler) ComStmtExecute(*mysql.Conn, *mysql.PrepareData, func(*sqltypes.Result) error) error {
	return fmt.Errorf("fakestrata: execute unsupported")
}

func (h *handler) ComRegisterReplica(*mysql.Conn, string, uint16, string, string) error {
	return fmt.Errorf("fakestrata: unsupported")
}

func (h *handler) ComBinlogDump(*mysql.Conn, string, uint32) error {
	return fmt.Errorf("fakestrata: unsupported")
}

func (h *handler) ComBinlogDumpGTID(*mysql.Conn, string, uint64, replication.GTIDSet, uint16) error {
	return fmt.Errorf("fakestrata: unsupported")
}

func (h *handler) WarningCount(*mysql.Conn) uint16 { return 0 }

func (h *handler) Env() *vtenv.Environment { return h.env }

func main() {
	if len(os.Args) < 2 || os.Args[1] != "serve" {
		fmt.Fprintln(os.Stderr, "usage: fakestrata serve --datadir D --port P --bind A")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	datadir := fs.String("datadir", "./strata-data", "")
	port := fs.Int("port", 3306, "")
	bind := fs.String("bind", "127.0.0.1", "")
	_ = fs.Parse(os.Args[2:])

	if err := os.MkdirAll(*datadir, 0o755); err != nil {
		fail(err)
	}
	f, err := os.OpenFile(filepath.Join(*datadir, "starts"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fail(err)
	}
	fmt.Fprintf(f, "%d %s\n", os.Getpid(), strings.Join(fs.Args(), " "))
	_ = f.Close()
	fmt.Println("fakestrata starting")

	if code, err := strconv.Atoi(os.Getenv("FAKESTRATA_EXIT_ON_START")); err == nil {
		os.Exit(code)
	}
	termExit, _ := strconv.Atoi(os.Getenv("FAKESTRATA_TERM_EXIT"))

	sigs := make(chan os.Signal, 1)
	if os.Getenv("FAKESTRATA_IGNORE_TERM") == "1" {
		signal.Ignore(syscall.SIGTERM)
	} else {
		signal.Notify(sigs, syscall.SIGTERM)
	}

	l, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
		Protocol:           "tcp",
		Address:            net.JoinHostPort(*bind, strconv.Itoa(*port)),
		AuthServer:         mysql.NewAuthServerNone(),
		Handler:            &handler{env: vtenv.NewTestEnv()},
		ConnReadBufferSize: 16 << 10,
	})
	if err != nil {
		fail(err)
	}
	go l.Accept()
	<-sigs
	l.Close()
	fmt.Println("fakestrata stopping")
	os.Exit(termExit)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fakestrata:", err)
	os.Exit(1)
}
