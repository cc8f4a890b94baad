package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/strata-db/strata/internal/proc"
)

// This file runs one Redmine instance against one engine, as
// scripts/compat/redmine.sh does: Debian's redmine package, a private
// instance directory (database.yml, secret, logs, files) linked under
// /var/lib/redmine, rake db:create db:migrate redmine:load_default_data as
// www-data, the REST API enabled through `rails runner`, and puma.

// redmineDir is where Debian installs Redmine.
const redmineDir = "/usr/share/redmine"

// Puma's shape, the same for every engine: two worker processes (one per
// core of the 2-core machines the study used, so Ruby's global lock does
// not serialise parallel clients) with two threads each — four requests
// in flight, the grid's largest client count.
const (
	pumaWorkers = 2
	pumaThreads = 2
)

// redminePackages are the Debian packages the Redmine load needs.
var redminePackages = []string{"redmine", "ruby-mysql2", "puma"}

// redmineApp is one Redmine instance.
type redmineApp struct {
	dir      string // instance work directory (www-data owns it)
	instance string // REDMINE_INSTANCE, linked as /var/lib/redmine/<instance>
	bundler  string // BUNDLER_VERSION (Debian's ruby-bundler)
	uid, gid int
	dbPort   int // where database.yml points (the timing proxy)
	Port     int // puma's port
	APIKey   string
	puma     *appProcess
}

// dpkgInstalled reports whether pkg is installed.
func dpkgInstalled(pkg string) bool {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Status}", pkg).Output()
	return err == nil && strings.Contains(string(out), "install ok installed")
}

// ensureRedmine installs Debian's Redmine and puma when missing (no
// database configured by the package: dbconfig-no-thanks and a debconf
// preseed, as scripts/compat/redmine.sh does).
func ensureRedmine(in *installer) error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("the Redmine load runs Redmine as www-data and needs root (or --loads sysbench)")
	}
	var need []string
	for _, p := range redminePackages {
		if !dpkgInstalled(p) {
			need = append(need, p)
		}
	}
	if len(need) == 0 {
		return nil
	}
	fmt.Fprintf(in.log, "strata bench: installing Debian packages for the Redmine load: %s\n", strings.Join(need, " "))
	sel := exec.Command("debconf-set-selections")
	sel.Stdin = strings.NewReader("redmine redmine/instances/default/dbconfig-install boolean false\n")
	if out, err := sel.CombinedOutput(); err != nil {
		return fmt.Errorf("debconf-set-selections: %w: %s", err, out)
	}
	if err := in.aptGet("install", "-y", "dbconfig-no-thanks", "ruby-bundler"); err != nil {
		return err
	}
	// Debian 12's ruby3.1 update ships a bundler that does not see Debian's
	// gems; the redmine postinst must use Debian's ruby-bundler.
	os.Setenv("BUNDLER_VERSION", debianBundlerVersion())
	if err := in.aptGet(append([]string{"install", "-y"}, need...)...); err != nil {
		return err
	}
	for _, p := range need {
		if !dpkgInstalled(p) {
			return fmt.Errorf("installed %s but it is not configured", p)
		}
	}
	return nil
}

// debianBundlerVersion is ruby-bundler's upstream version ("2.3.15").
func debianBundlerVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "ruby-bundler").Output()
	if err != nil {
		return ""
	}
	v := string(out)
	if i := strings.IndexByte(v, ':'); i >= 0 {
		v = v[i+1:]
	}
	if i := strings.IndexByte(v, '-'); i >= 0 {
		v = v[:i]
	}
	return v
}

// redmineVersion is the installed package's version.
func redmineVersion() string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "redmine").Output()
	if err != nil {
		return "unknown"
	}
	return string(out)
}

// newRedmineApp prepares an instance in dir whose database.yml points at
// 127.0.0.1:dbPort.
func newRedmineApp(dir string, dbPort int) (*redmineApp, error) {
	u, err := user.Lookup("www-data")
	if err != nil {
		return nil, fmt.Errorf("redmine: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	a := &redmineApp{dir: dir, instance: fmt.Sprintf("strata_bench_%d_%d", os.Getpid(), dbPort), bundler: debianBundlerVersion(),
		uid: uid, gid: gid, dbPort: dbPort}
	inst := filepath.Join(dir, "instance")
	for _, d := range []string{"config", "log", "files", "tmp", "public/plugin_assets"} {
		if err := os.MkdirAll(filepath.Join(inst, d), 0o755); err != nil {
			return nil, fmt.Errorf("redmine instance: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		return nil, fmt.Errorf("redmine instance: %w", err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("redmine secret: %w", err)
	}
	files := map[string]string{
		filepath.Join(inst, "config", "database.yml"):   redmineDatabaseYML(dbPort),
		filepath.Join(inst, "config", "secret_key.txt"): hex.EncodeToString(secret) + "\n",
		filepath.Join(dir, "Gemfile"):                   fmt.Sprintf("eval_gemfile '%s/Gemfile'\ngem 'puma'\n", redmineDir),
		filepath.Join(dir, "schema.rb"):                 "",
		filepath.Join(dir, "setup.rb"):                  redmineSetupRuby,
	}
	for path, body := range files {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return nil, fmt.Errorf("redmine instance: %w", err)
		}
	}
	// www-data owns the instance; the bench's work directory above it
	// (created 0700) must be traversable. Directories above that are
	// left alone: a --workdir www-data cannot reach fails in bundle lock.
	if parent := filepath.Dir(dir); parent != "" {
		if fi, err := os.Stat(parent); err == nil && fi.Mode().Perm()&0o005 != 0o005 {
			if err := os.Chmod(parent, fi.Mode().Perm()|0o005); err != nil {
				return nil, fmt.Errorf("redmine instance: %w", err)
			}
		}
	}
	err = filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
	if err != nil {
		return nil, fmt.Errorf("redmine instance: chown: %w", err)
	}
	link := filepath.Join("/var/lib/redmine", a.instance)
	_ = os.Remove(link)
	if err := os.Symlink(inst, link); err != nil {
		return nil, fmt.Errorf("redmine instance: %w", err)
	}
	return a, nil
}

// redmineDatabaseYML is the instance's database.yml: the engine through
// the timing proxy, Redmine's recommended READ COMMITTED for MySQL — set
// as tx_isolation, the name every engine knows (MariaDB 10.11 has no
// transaction_isolation; strata and MySQL accept both).
func redmineDatabaseYML(port int) string {
	return fmt.Sprintf(`production:
  adapter: mysql2
  host: 127.0.0.1
  port: %d
  username: root
  password: ""
  database: redmine
  encoding: utf8mb4
  connect_timeout: 10
  read_timeout: 120
  write_timeout: 120
  pool: %d
  variables:
    tx_isolation: "READ-COMMITTED"
`, port, pumaThreads+2)
}

// redmineSetupRuby runs through `rails runner`: enables the REST API,
// turns notifications off (no mail server) and prints the admin's API key
// (as scripts/compat/redmine/setup.rb).
const redmineSetupRuby = `Setting.rest_api_enabled = '1'
Setting.default_language = 'en'
Setting.notified_events = []
raise 'rest_api_enabled not saved' unless Setting.find_by(name: 'rest_api_enabled')&.value == '1'
admin = User.find_by!(login: 'admin')
admin.must_change_passwd = false
admin.save!(validate: false)
key = admin.api_key
raise 'admin has no API key' unless key.is_a?(String) && key.size == 40
puts "API_KEY=#{key}"
`

// cmd is a command run as www-data in Redmine's directory with the
// instance's environment.
func (a *redmineApp) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, args[0], args[1:]...)
	c.Dir = redmineDir
	c.Env = a.env()
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL,
		Credential: &syscall.Credential{Uid: uint32(a.uid), Gid: uint32(a.gid)}}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 5 * time.Second
	return c
}

func (a *redmineApp) env() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + filepath.Join(a.dir, "home"), "LANG=C.UTF-8",
		"RAILS_ENV=production", "REDMINE_INSTANCE=" + a.instance, "BUNDLE_GEMFILE=" + filepath.Join(a.dir, "Gemfile"),
		"BUNDLER_VERSION=" + a.bundler, "SCHEMA=" + filepath.Join(a.dir, "schema.rb"), "REDMINE_LANG=en"}
}

// run runs args as www-data with timeout, logging the output to
// dir/<logName>.log; the error carries the output's tail.
func (a *redmineApp) run(ctx context.Context, timeout time.Duration, logName string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := a.cmd(ctx, args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	_ = os.WriteFile(filepath.Join(a.dir, logName+".log"), out.Bytes(), 0o644)
	if err != nil {
		return out.Bytes(), fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, rubyError(out.Bytes()))
	}
	return out.Bytes(), nil
}

// Install creates, migrates and configures the database and returns the
// time of each phase.
func (a *redmineApp) Install(ctx context.Context) (map[string]float64, error) {
	times := map[string]float64{}
	phase := func(name string, timeout time.Duration, args ...string) ([]byte, error) {
		t0 := time.Now()
		out, err := a.run(ctx, timeout, name, args...)
		times[name] = time.Since(t0).Seconds()
		return out, err
	}
	if _, err := phase("bundle-lock", 5*time.Minute, "bundle", "lock", "--local"); err != nil {
		return times, err
	}
	if _, err := phase("migrate", 20*time.Minute, "bundle", "exec", "rake", "db:create", "db:migrate"); err != nil {
		return times, err
	}
	if _, err := phase("default-data", 5*time.Minute, "bundle", "exec", "rake", "redmine:load_default_data"); err != nil {
		return times, err
	}
	out, err := phase("enable-api", 5*time.Minute, "bundle", "exec", "rails", "runner", filepath.Join(a.dir, "setup.rb"))
	if err != nil {
		return times, err
	}
	for _, l := range strings.Split(string(out), "\n") {
		if k, ok := strings.CutPrefix(strings.TrimSpace(l), "API_KEY="); ok && len(k) == 40 {
			a.APIKey = k
		}
	}
	if a.APIKey == "" {
		return times, fmt.Errorf("rails runner printed no API key:\n%s", tail(out, 10))
	}
	return times, nil
}

// Start starts puma and waits until the REST API answers.
func (a *redmineApp) Start(ctx context.Context, timeout time.Duration) error {
	port, err := proc.FreePort()
	if err != nil {
		return err
	}
	a.Port = port
	args := []string{"exec", "puma", "--environment", "production", "--bind", fmt.Sprintf("tcp://127.0.0.1:%d", port),
		"--threads", fmt.Sprintf("%d:%d", pumaThreads, pumaThreads), "--workers", strconv.Itoa(pumaWorkers), redmineDir + "/config.ru"}
	p, err := startAppProcess(a.cmd(context.Background(), append([]string{"bundle"}, args...)...), filepath.Join(a.dir, "puma.log"))
	if err != nil {
		return fmt.Errorf("start puma: %w", err)
	}
	a.puma = p
	return a.waitAPI(ctx, timeout)
}

// waitAPI polls GET /issues.json until it answers 200.
func (a *redmineApp) waitAPI(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: 10 * time.Second}
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if a.puma.Exited() {
			return fmt.Errorf("puma exited:\n%s", a.puma.LogTail(2048))
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/issues.json?limit=1", a.Port), nil)
		req.Header.Set("X-Redmine-API-Key", a.APIKey)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return fmt.Errorf("puma did not answer within %v:\n%s", timeout, a.puma.LogTail(2048))
}

// Close stops puma and removes the instance link (the instance directory
// goes with the work directory).
func (a *redmineApp) Close() error {
	var err error
	if a.puma != nil {
		err = a.puma.Stop(30 * time.Second)
	}
	_ = os.Remove(filepath.Join("/var/lib/redmine", a.instance))
	return err
}

// appProcess is an application server the bench started as www-data
// (a.cmd: its own process group, killed by the kernel if the bench dies —
// the credentials are set before the parent-death signal, so the signal
// survives them, unlike through setpriv).
type appProcess struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// startAppProcess starts cmd with its output appended to logPath.
func startAppProcess(cmd *exec.Cmd, logPath string) (*appProcess, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &appProcess{cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Exited reports whether the process has ended.
func (p *appProcess) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// LogTail is the end of the process's log.
func (p *appProcess) LogTail(n int64) string { return proc.Tail(p.log, n) }

// Stop sends SIGTERM to the process group, then SIGKILL after timeout;
// having to kill it is an error (the exit status after TERM is not).
func (p *appProcess) Stop(timeout time.Duration) error {
	if p.Exited() {
		return nil
	}
	pid := p.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(proc.KillWait):
	}
	return fmt.Errorf("pid %d did not exit within %v of SIGTERM; killed", pid, timeout)
}

// rubyError picks the error message out of a failed Ruby command's
// output: the lines after "rake aborted!" up to the backtrace, else the
// last lines.
func rubyError(out []byte) string {
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "aborted!") {
			continue
		}
		var msg []string
		for _, m := range lines[i+1:] {
			if strings.HasPrefix(strings.TrimSpace(m), "/") || strings.HasPrefix(m, "Tasks:") || len(msg) == 5 {
				break
			}
			msg = append(msg, m)
		}
		if len(msg) > 0 {
			return strings.Join(msg, "\n")
		}
	}
	return tail(out, 8)
}
