package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// proc is a server child process on a loopback port.
type proc struct {
	name    string
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:port
	logPath string
	pprof   string // HOST:PORT of the child's pprof listener, if any
	started time.Time
	done    chan struct{}
	waitErr error
}

// freePort asks the kernel for a free loopback port. Another process could take it before the
// child binds it; the ready check would then time out with the child's error in its log.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// childEnv is the environment of server children: ours without the variables that would change
// the server's configuration or its scheduling (GOMAXPROCS stays the default).
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "CMS_") || k == "PORT" || k == "NODE_ENV" || k == "GOMAXPROCS" || k == "GOGC" || k == "GOMEMLIMIT" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// startProc starts bin with args; {port} in args is replaced by a free port. Output goes to
// logPath.
func startProc(ctx context.Context, name, bin string, args []string, logPath string, env []string) (*proc, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args = append([]string(nil), args...)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "{port}", strconv.Itoa(port))
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdout = logf
	cmd.Stderr = logf
	// On cancellation ask politely first; WaitDelay then kills.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	p := &proc{name: name, cmd: cmd, base: "http://127.0.0.1:" + strconv.Itoa(port), logPath: logPath, done: make(chan struct{})}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	return p, nil
}

// pid returns the child's process id, or 0 for a proc that is not a child (tests).
func (p *proc) pid() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// commandLine returns the command as a shell would show it.
func (p *proc) commandLine() string { return strings.Join(p.cmd.Args, " ") }

// waitReady polls url every millisecond until it answers 200 and returns the time since the
// process was started. Until the server listens, a poll is a refused connection, which costs
// little; a coarser interval would add up to itself to every figure (5 ms was a twentieth of
// the 10,000-entry cold start's target).
func (p *proc) waitReady(ctx context.Context, path string, timeout time.Duration) (time.Duration, error) {
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	deadline := time.Now().Add(timeout)
	for {
		resp, err := client.Get(p.base + path)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Since(p.started), nil
			}
		}
		select {
		case <-p.done:
			return 0, fmt.Errorf("%s exited before it was ready (%v); log %s:\n%s", p.name, p.waitErr, p.logPath, tail(p.logPath, 20))
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Millisecond):
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s not ready after %v; log %s:\n%s", p.name, timeout, p.logPath, tail(p.logPath, 20))
		}
	}
}

// waitSettled polls the readiness endpoint at path until the server reports no background work
// (details.background.pending empty: the first start's index snapshot, full-text snapshot and
// temp sweep), so load scenarios measure the steady state rather than that work. A server that
// reports no such field is taken as settled. It gives up after timeout and then returns what
// was still pending, without an error: the run goes on, with a note. waited is the time spent.
func (p *proc) waitSettled(ctx context.Context, path string, timeout time.Duration) (waited time.Duration, pending []string, err error) {
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	start := time.Now()
	for {
		pending, err = p.pending(client, path)
		if err != nil {
			return time.Since(start), nil, err
		}
		if len(pending) == 0 || time.Since(start) >= timeout {
			return time.Since(start), pending, nil
		}
		select {
		case <-p.done:
			return time.Since(start), nil, fmt.Errorf("%s exited (%v); log %s:\n%s", p.name, p.waitErr, p.logPath, tail(p.logPath, 20))
		case <-ctx.Done():
			return time.Since(start), nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// pending reads details.background.pending from the readiness endpoint.
func (p *proc) pending(client *http.Client, path string) ([]string, error) {
	resp, err := client.Get(p.base + path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var r struct {
		Details struct {
			Background *struct {
				Pending []string `json:"pending"`
			} `json:"background"`
		} `json:"details"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: readiness answer: %w", p.name, err)
	}
	if r.Details.Background == nil {
		return nil, nil
	}
	return r.Details.Background.Pending, nil
}

// stop sends SIGTERM and waits for the exit, killing the process after 15 s.
func (p *proc) stop() error {
	if p.cmd == nil {
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s did not stop within 15s and was killed", p.name)
	}
	var ee *exec.ExitError
	if p.waitErr != nil && !errors.As(p.waitErr, &ee) {
		return p.waitErr
	}
	return nil
}

// memory is what /proc/<pid>/status says about a process's memory, in bytes.
type memory struct {
	RSS, HWM int64
}

// resetPeak resets a process's VmHWM to its current RSS (Linux: "5" to /proc/<pid>/clear_refs),
// so the next readMemory reports the peak since now.
func resetPeak(pid int) error {
	if pid <= 0 {
		return fmt.Errorf("no process")
	}
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

func readMemory(pid int) (memory, error) {
	if pid <= 0 {
		return memory{}, fmt.Errorf("no process")
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return memory{}, err
	}
	defer f.Close()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *int64
		switch k {
		case "VmRSS":
			dst = &m.RSS
		case "VmHWM":
			dst = &m.HWM
		default:
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err == nil {
			*dst = kb << 10
		}
	}
	if m.RSS == 0 {
		return m, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
	}
	return m, sc.Err()
}

// tail returns the last n lines of a file, for error messages.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  " + strings.Join(lines, "\n  ")
}

// clockTicks is USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on every Linux
// architecture Go supports (reading it properly needs sysconf, that is cgo).
const clockTicks = 100

// cpuTime returns the user plus system CPU time a process has used so far, all threads
// included.
func cpuTime(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("no process")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may contain spaces; fields are counted after its ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("odd /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// loadAverage returns the 1-minute load average, or -1 when unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
