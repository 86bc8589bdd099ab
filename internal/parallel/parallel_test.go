package parallel

import (
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
