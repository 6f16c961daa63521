package rebalance

import "testing"

// carve sizes a new array by what is left to carve, up to 32,768: a small run (a card's
// figure, kept by the server with its Result) must not hold a 32k-segment array.
func TestCarveSizesArraysByWhatIsLeft(t *testing.T) {
	for _, c := range []struct{ n, left, wantCap int }{
		{10, 30, 30},             // a small run: one array of exactly what it needs
		{10, 100_000, 1 << 15},   // a big one: 32k at a time
		{40_000, 40_000, 40_000}, // a list longer than 32k gets its own
		{0, 0, 0},                // an empty list is not nil
	} {
		var arena []Segment
		got := carve(&arena, c.n, c.left)
		if got == nil || len(got) != 0 || cap(got) != c.n {
			t.Errorf("carve(%d, %d) = len %d cap %d, nil %v", c.n, c.left, len(got), cap(got), got == nil)
		}
		if cap(arena) != c.wantCap {
			t.Errorf("carve(%d, %d) made an array of %d, want %d", c.n, c.left, cap(arena), c.wantCap)
		}
	}
	// Lists after the first share the array while it has room.
	var arena []Segment
	a := carve(&arena, 3, 8)
	b := carve(&arena, 5, 5)
	if cap(arena) != 8 || &a[:1][0] == &b[:1][0] || len(arena) != 8 {
		t.Errorf("two lists: arena len %d cap %d", len(arena), cap(arena))
	}
}
