// Package parallel runs independent pieces of work on several goroutines.
// It only schedules: what each piece does, and where its result goes, is
// the caller's business.
package parallel

import (
	"context"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for every i in [0, n) on up to workers goroutines, each
// taking the next index when it finishes the last, and returns once every
// call has returned. With one worker or fewer, or n below 2, it calls fn in
// index order on the calling goroutine. fn must be safe to call concurrently
// for different i; writing to the i-th element of a slice is.
func For(n, workers int, fn func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

// Each calls fn(i) for every i in [0, n) on up to workers goroutines, like
// For, and returns the first error fn returns, or ctx's error: once either
// happens no new call starts (calls under way finish).
func Each(ctx context.Context, n, workers int, fn func(i int) error) error {
	var (
		first error
		once  sync.Once
		stop  atomic.Bool
	)
	fail := func(err error) {
		once.Do(func() { first = err })
		stop.Store(true)
	}
	For(n, workers, func(i int) {
		if stop.Load() {
			return
		}
		if err := ctx.Err(); err != nil {
			fail(err)
			return
		}
		if err := fn(i); err != nil {
			fail(err)
		}
	})
	if first != nil {
		return first
	}
	return ctx.Err()
}
