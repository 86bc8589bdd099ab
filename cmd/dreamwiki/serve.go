package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamwiki/dreamwiki/internal/demo"
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/server"
	"github.com/dreamwiki/dreamwiki/internal/team"
)

type serveFlags struct {
	demo     bool
	host     string
	port     int
	open     bool
	readOnly bool
	title    string
	asOf     string
	history  string
	quiet    bool
	verbose  bool
}

func newServeCmd(e *env) *cobra.Command {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve [WORKSPACE...]",
		Short: "Serve the wiki locally, rebuild on every edit, dream on demand",
		Long: `Serve builds WORKSPACE (default: the current folder) into memory and serves
the site on http://127.0.0.1:4321/. It watches the workspace: an edit
re-renders only the pages it touches, and open pages reload by themselves
(keeping their scroll position) or show what is wrong with the file until
it is fixed. The Dream button in the header plans a dream, shows its plan
and diff, and applies it; the search box asks the server, and each search
is logged as a recall event (as an agent's searches are).

Several workspaces, or a folder whose dreamwiki.toml has [[workspace]]
entries, are served as the team site build makes of them, rebuilt whole
on every edit (open pages reload, or show the build's error until it is
fixed); its search runs in the browser, and there are no dreams.

--demo serves a writable copy of the embedded demo, deleted on exit.
--read-only turns dreams and recall logging off: nothing is written.
Ctrl-C stops the server.`,
		Example: `  dreamwiki serve --demo --open
  dreamwiki serve ~/.openclaw/workspace
  dreamwiki serve . --port 8080 --read-only
  dreamwiki serve ./ops-agent ./research-agent   # a team site`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.demo && len(args) > 0 {
				return usageError{"--demo serves the embedded demo; leave out the WORKSPACE argument"}
			}
			if f.port < 0 || f.port > 65535 {
				return usageError{fmt.Sprintf("--port %d is not a port; use 1 to 65535 (0 picks a free one)", f.port)}
			}
			bf := &buildFlags{asOf: f.asOf, title: f.title, history: f.history}
			bopts, err := bf.options(e, nil)
			if err != nil {
				return err
			}
			bopts.Progress = nil
			bopts.Demo = f.demo
			t, err := teamOf(args, bopts)
			if err != nil {
				return err
			}
			if t != nil {
				return serveTeam(cmd.Context(), e, f, *t)
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if f.demo {
				tmp, cleanup, err := demoCopy()
				if err != nil {
					return err
				}
				defer cleanup()
				dir = tmp
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return failure{fmt.Sprintf("workspace %q is not a folder", dir)}
			}
			return serve(cmd.Context(), e, f, dir, server.Options{Build: bopts, Version: version})
		},
	}
	cmd.Flags().BoolVar(&f.demo, "demo", false, "serve a writable copy of the embedded demo workspace")
	cmd.Flags().StringVar(&f.host, "host", "127.0.0.1", "address to listen on (anything but loopback exposes the memory to the network)")
	cmd.Flags().IntVar(&f.port, "port", 4321, "port to listen on (0 picks a free one)")
	cmd.Flags().BoolVar(&f.open, "open", false, "open the site in the browser")
	cmd.Flags().BoolVar(&f.readOnly, "read-only", false, "never write to the workspace: no dreams, no recall logging")
	cmd.Flags().StringVar(&f.title, "title", "", "site title (default: from dreamwiki.toml)")
	cmd.Flags().StringVar(&f.asOf, "as-of", "", "judge decay, tiers and permission expiry as of this date, YYYY-MM-DD (default: today)")
	cmd.Flags().StringVar(&f.history, "history", "", historyUsage)
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "print only the address and errors")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "log what the server does (for debugging)")
	return cmd
}

// serve runs the server until ctx is done (Ctrl-C).
func serve(ctx context.Context, e *env, f *serveFlags, dir string, opts server.Options) error {
	ln, err := listen(e, f)
	if err != nil {
		return err
	}
	defer ln.Close()
	opts.Workspace = dir
	opts.ReadOnly = f.readOnly
	if !f.quiet {
		opts.Out = e.stdout
	}
	opts.Log = serveLog(e, f)
	start := time.Now()
	if !f.quiet && isTerminal(e.stderr) {
		fmt.Fprintf(e.stderr, "  building %s…\n", dir)
	}
	s, err := server.New(ctx, opts)
	if err != nil {
		return failure{err.Error()}
	}
	url := "http://" + displayAddr(ln.Addr())
	notes, published := s.Notes()
	first := s.First()
	fmt.Fprintf(e.stdout, "dreamwiki: serving %s at %s\n", dir, url)
	if !f.quiet {
		fmt.Fprintf(e.stdout, "  %d notes (%d published), %d pages, %d files, built in %s\n",
			notes, published, first.Site.Pages, s.Files(), time.Since(start).Round(time.Millisecond))
		if n := first.Diagnostics.Count(diag.Warning); n > 0 {
			check := "dreamwiki check " + dir
			if f.demo {
				check = "dreamwiki check --demo"
			}
			fmt.Fprintf(e.stdout, "  %d problems; '%s' lists them\n", n, check)
		}
		if f.readOnly {
			fmt.Fprintln(e.stdout, "  read-only: dreams and recall logging are off")
		}
		fmt.Fprintln(e.stdout, "  watching for changes; Ctrl-C stops")
	}
	if f.open {
		openBrowser(url, opts.Log)
	}
	err = s.Serve(ctx, ln)
	if !f.quiet {
		fmt.Fprintln(e.stdout, "dreamwiki: stopped")
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return failure{err.Error()}
	}
	return nil
}

// serveTeam serves a team site (internal/team); see serve.
func serveTeam(ctx context.Context, e *env, f *serveFlags, t team.Options) error {
	ln, err := listen(e, f)
	if err != nil {
		return err
	}
	defer ln.Close()
	log := serveLog(e, f)
	url := "http://" + displayAddr(ln.Addr())
	start := time.Now()
	first := func(r *team.Report) {
		fmt.Fprintf(e.stdout, "dreamwiki: serving a team site of %d workspaces at %s\n", len(r.Workspaces), url)
		if !f.quiet {
			fmt.Fprintf(e.stdout, "  %s; %d pages, %d files, built in %s\n", strings.Join(r.Names, ", "), r.Pages, r.Files, time.Since(start).Round(time.Millisecond))
			fmt.Fprintln(e.stdout, "  watching for changes; Ctrl-C stops")
		}
		if f.open {
			openBrowser(url, log)
		}
	}
	rebuilt := func(took time.Duration, err error) {
		switch {
		case err != nil:
			fmt.Fprintf(e.stderr, "dreamwiki: the team site could not be built again (%v); the last build is served\n", err)
		case !f.quiet:
			fmt.Fprintf(e.stdout, "  rebuilt in %s\n", took.Round(time.Millisecond))
		}
	}
	err = team.Serve(ctx, t, ln, log, first, rebuilt)
	if !f.quiet {
		fmt.Fprintln(e.stdout, "dreamwiki: stopped")
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return failure{err.Error()}
	}
	return nil
}

// serveLog is the server's developer log: warnings, or all with --verbose.
func serveLog(e *env, f *serveFlags) *slog.Logger {
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// listen opens the serve flags' address, warning when it is not loopback.
func listen(e *env, f *serveFlags) (net.Listener, error) {
	addr := net.JoinHostPort(f.host, strconv.Itoa(f.port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, failure{fmt.Sprintf("%s is in use (another dreamwiki serve?); choose another port with --port", addr)}
		}
		return nil, failure{fmt.Sprintf("cannot listen on %s: %v", addr, err)}
	}
	if ip := net.ParseIP(f.host); (ip == nil || !ip.IsLoopback()) && f.host != "localhost" {
		fmt.Fprintf(e.stderr, "\n  WARNING: serving on %s, not on loopback. Anyone who can reach this machine\n"+
			"  can read this agent's memory. Use --host 127.0.0.1 unless you mean it.\n\n", f.host)
	}
	return ln, nil
}

// displayAddr writes an address people can click: 127.0.0.1 stays, the
// unspecified address becomes localhost.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port) + "/"
}

// openBrowser opens url with the system's opener, without waiting for
// the browser.
func openBrowser(url string, log *slog.Logger) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		log.Warn("cannot open a browser", "err", err)
		return
	}
	go func() { _ = cmd.Wait() }() // reap the opener, which exits at once
}

// demoCopy writes a writable copy of the embedded demo into a temporary
// folder; cleanup deletes it.
func demoCopy() (dir string, cleanup func(), err error) {
	tmp, err := os.MkdirTemp("", "dreamwiki-demo-")
	if err != nil {
		return "", nil, failure{err.Error()}
	}
	if err := os.CopyFS(tmp, demo.FS()); err != nil {
		os.RemoveAll(tmp)
		return "", nil, failure{"copying the demo: " + err.Error()}
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}
