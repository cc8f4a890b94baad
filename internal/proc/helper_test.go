package proc

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a tiny server instead of running
// tests (see runHelper).
const helperEnv = "PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		runHelper(os.Args[1:])
		return
	}
	os.Exit(m.Run())
}

// runHelper is the helper process, steered by its arguments:
//
//	serve PORT [ignore-term] [term-exit=N] [child]
//	        listen on 127.0.0.1:PORT until SIGTERM, then exit N (default 0);
//	        child starts `sleep 60` in the same process group and prints
//	        "child PID"
//	exit N  exit with status N at once
//	silent  run 60 s without listening
//
// It never outlives 60 s, so a broken test leaves nothing running long.
func runHelper(args []string) {
	fmt.Println("helper starting", args)
	go func() { time.Sleep(60 * time.Second); os.Exit(99) }()
	switch args[0] {
	case "exit":
		code, _ := strconv.Atoi(args[1])
		os.Exit(code)
	case "silent":
		select {}
	case "serve":
	default:
		os.Exit(2)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	termExit := 0
	for _, a := range args[2:] {
		switch {
		case a == "ignore-term":
			signal.Ignore(syscall.SIGTERM)
		case a == "child":
			c := exec.Command("sleep", "60")
			if err := c.Start(); err != nil {
				fmt.Println("helper: start child:", err)
				os.Exit(1)
			}
			fmt.Printf("child %d\n", c.Process.Pid)
		case len(a) > 10 && a[:10] == "term-exit=":
			termExit, _ = strconv.Atoi(a[10:])
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+args[1])
	if err != nil {
		fmt.Println("helper:", err)
		os.Exit(1)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	fmt.Println("helper listening")
	<-sigs
	fmt.Println("helper stopping")
	os.Exit(termExit)
}

// startHelper starts the helper with args, logging to a file in a
// temporary directory, and kills it when the test ends.
func startHelper(t *testing.T, args ...string) *Process {
	t.Helper()
	p, err := Start(Spec{
		Name:    "helper",
		Path:    os.Args[0],
		Args:    args,
		Env:     append(os.Environ(), helperEnv+"=1"),
		LogPath: filepath.Join(t.TempDir(), "helper.log"),
		Banner:  "test: start 1",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	return p
}

// serveHelper starts `helper serve PORT extra...` and returns it with its
// address.
func serveHelper(t *testing.T, extra ...string) (*Process, string) {
	t.Helper()
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p := startHelper(t, append([]string{"serve", strconv.Itoa(port)}, extra...)...)
	return p, net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

// waitExit waits (bounded) until p has been reaped.
func waitExit(t *testing.T, p *Process) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(20 * time.Second):
		t.Fatalf("process %d did not exit", p.PID())
	}
}
