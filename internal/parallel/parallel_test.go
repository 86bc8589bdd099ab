package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestFor_CallsEveryIndexOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {5, 1}, {5, 0}, {100, 3}, {3, 16}} {
		seen := make([]atomic.Int32, tc.n)
		For(tc.n, tc.workers, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("For(%d, %d): index %d called %d times, want 1", tc.n, tc.workers, i, got)
			}
		}
	}
}

func TestFor_OneWorkerRunsInOrder(t *testing.T) {
	var order []int
	For(5, 1, func(i int) { order = append(order, i) })
	for i, got := range order {
		if got != i {
			t.Fatalf("order = %v, want 0..4", order)
		}
	}
	if len(order) != 5 {
		t.Fatalf("order = %v, want 0..4", order)
	}
}

func TestEach_StopsAtTheFirstErrorAndReturnsIt(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	err := Each(context.Background(), 1000, 1, func(i int) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if err != boom {
		t.Errorf("err = %v, want boom", err)
	}
	if n := calls.Load(); n != 11 {
		t.Errorf("%d calls with one worker, want 11 (none after the error)", n)
	}
}

func TestEach_CancelledContextStartsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	if err := Each(ctx, 100, 4, func(int) error { calls.Add(1); return nil }); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls after cancellation", n)
	}
	if err := Each(context.Background(), 0, 4, func(int) error { return nil }); err != nil {
		t.Errorf("no work: %v", err)
	}
}
