package srs

import "math"

// initialStabilities estimates S0 for each first rating from the first answer given at least a
// day after each card's first: the stability whose forgetting curve best predicts those recalls.
// Same-day answers in between are ignored here; training corrects for them. A light pull
// towards w's value (worth a few answers) keeps a rating with little data near it.
func (l *reviewLog) initialStabilities(w [21]float64) [4]float64 {
	type obs struct {
		t  float64
		ok bool
	}
	var groups [4][]obs
	for _, c := range l.cards {
		for i := c.start + 1; i < c.end; i++ {
			if l.days[i] >= 1 {
				g := l.ratings[c.start] - 1
				groups[g] = append(groups[g], obs{l.days[i], l.ratings[i] != Again})
				break
			}
		}
	}
	m := newModel(w)
	var out [4]float64
	for g, data := range groups {
		prior := math.Log(w[g])
		cost := func(x float64) float64 {
			s := math.Exp(x)
			c := 2 * (x - prior) * (x - prior)
			for _, o := range data {
				p := math.Min(math.Max(m.retrievability(o.t, s), minProb), maxProb)
				if o.ok {
					c -= math.Log(p)
				} else {
					c -= math.Log(1 - p)
				}
			}
			return c
		}
		out[g] = math.Exp(goldenMin(cost, math.Log(paramBounds[g][0]), math.Log(paramBounds[g][1])))
	}
	return out
}

// goldenMin returns the x in [a, b] minimising a unimodal f, to about 1e-6.
func goldenMin(f func(float64) float64, a, b float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	c, d := b-r*(b-a), a+r*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 1e-6 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}
