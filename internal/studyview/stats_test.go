package studyview

import "testing"

func TestNiceCeil(t *testing.T) {
	for n, want := range map[int]int{0: 2, 1: 2, 2: 2, 3: 5, 6: 10, 11: 20, 21: 50, 99: 100, 101: 200} {
		if got := niceCeil(n); got != want {
			t.Errorf("niceCeil(%d) = %d, want %d", n, got, want)
		}
	}
}
