package team

import (
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"time"

	"github.com/dreamwiki/dreamwiki/internal/output"
	"github.com/dreamwiki/dreamwiki/internal/server"
)

// Site builds the team site of opts in memory, nothing written to disk.
func Site(ctx context.Context, opts Options) (*output.Memory, *Report, error) {
	opts.Out = ""
	members, dis, err := load(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	r := report(opts, members, dis)
	files := output.NewMemory()
	stats, err := render(ctx, opts, members, dis, files)
	if err != nil {
		return nil, nil, err
	}
	r.Pages, r.Files = stats.Pages, stats.Files
	return files, r, nil
}

// Serve builds the team site of opts in memory and serves it on ln until
// ctx is done, building it again, whole, after each change to a
// workspace (server.Static); rebuilt is told of each such build. first
// is the report of the first build.
func Serve(ctx context.Context, opts Options, ln net.Listener, log *slog.Logger, first func(*Report), rebuilt func(took time.Duration, err error)) error {
	roots := make([]string, len(opts.Workspaces))
	for i, w := range opts.Workspaces {
		abs, err := filepath.Abs(w.Path)
		if err != nil {
			return err
		}
		roots[i] = abs
	}
	build := func(ctx context.Context) (*output.Memory, error) {
		files, r, err := Site(ctx, opts)
		if err == nil && first != nil {
			first(r)
			first = nil
		}
		return files, err
	}
	s, err := server.NewStatic(ctx, roots, build, log)
	if err != nil {
		return err
	}
	s.Rebuilt = rebuilt
	return s.Serve(ctx, ln)
}
