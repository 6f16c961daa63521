package srs

import (
	"fmt"
	"math"
)

// DefaultParams are the FSRS-6 default weights w0..w20.
var DefaultParams = [21]float64{
	0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
	0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658,
	0.1542,
}

// ParamsFromSlice converts stored weights to an FSRS-6 parameter array. It accepts 21
// weights (FSRS-6) or 19 (FSRS-5, migrated by appending w19 = 0 and w20 = 0.5, which
// reproduces FSRS-5's fixed curve and its lack of a same-day stability damping).
func ParamsFromSlice(w []float64) ([21]float64, error) {
	var p [21]float64
	switch len(w) {
	case 21:
		copy(p[:], w)
	case 19:
		copy(p[:], w)
		p[19], p[20] = 0, 0.5
	default:
		return p, fmt.Errorf("srs: want 21 (FSRS-6) or 19 (FSRS-5) weights, got %d", len(w))
	}
	if err := checkParams(p); err != nil {
		return [21]float64{}, err
	}
	return p, nil
}

// checkParams rejects weights that would make the formulas produce NaN or infinities.
func checkParams(p [21]float64) error {
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("srs: weight w%d is %v, want a finite number", i, v)
		}
	}
	for i := 0; i < 4; i++ {
		if p[i] <= 0 {
			return fmt.Errorf("srs: initial stability w%d = %v, want > 0", i, p[i])
		}
	}
	if p[20] <= 0 {
		return fmt.Errorf("srs: decay w20 = %v, want > 0", p[20])
	}
	return nil
}
