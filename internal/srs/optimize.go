package srs

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// FitOptions tunes Fit. The zero value is fsrs-rs's recipe (batches of 512 scored answers,
// learning rate 0.04 annealed to 0 along a cosine) with at least 10 passes over the history and
// at least 400 optimizer steps, and every answer weighing the same.
type FitOptions struct {
	Epochs       int // passes over the history; 0 chooses as above
	BatchSize    int
	LearningRate float64
	Seed         uint64
	// Recency weighs later answers more (from 0.25 for the oldest to 1 for the newest), as
	// fsrs-rs does for a learner whose memory drifts; it costs precision for one whose does not.
	Recency bool
	Workers int // goroutines computing each gradient; 0 means GOMAXPROCS
}

// Regularisation: the pull towards the starting weights is that of a prior worth about one
// answer per weight, Σ((w−w0)/σ)² per answer in the history, so it fades as history grows.
const penalty = 1.0

// minSteps is the fewest optimizer steps a fit takes; small histories get more passes.
const minSteps = 400

// FitResult is what Fit found.
type FitResult struct {
	Params     [21]float64
	LossBefore float64 // mean log loss of the default parameters over the whole history
	LossAfter  float64 // the same for Params
	Reviews    int     // answers read
	Cards      int     // cards they belong to
	Scored     int     // answers the loss is computed over (a day or more after the previous one)
}

// paramStddev is the spread of each weight across many learners' fitted parameters (fsrs-rs);
// the regularisation pulls each weight towards its starting value in units of it.
var paramStddev = [21]float64{
	6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25,
	1.03, 0.31, 0.32, 0.14, 0.27,
}

// paramBounds keeps every weight where the formulas stay meaningful (the ranges fsrs-rs clips
// to, with one relearning step and same-day reviews modelled).
var paramBounds = [21][2]float64{
	{0.001, 100}, {0.001, 100}, {0.001, 100}, {0.001, 100},
	{1, 10}, {0.001, 4}, {0.001, 4}, {0.001, 0.75},
	{0, 4.5}, {0, 0.8}, {0.001, 3.5}, {0.001, 5},
	{0.001, 0.25}, {0.001, 0.9}, {0, 4}, {0, 1},
	{1, 6}, {0, 2}, {0, 2}, {0.01, 0.8},
	{0.1, 0.8},
}

// ClipParams returns w with every weight moved into the range the optimizer allows.
func ClipParams(w [21]float64) [21]float64 {
	for i, b := range paramBounds {
		w[i] = math.Min(math.Max(w[i], b[0]), b[1])
	}
	return w
}

// minFitScored is the fewest scored answers Fit trains on; below it the result is the defaults
// with only the initial stabilities estimated, as in fsrs-rs.
const minFitScored = 64

// Fit estimates FSRS-6 parameters from a learner's answers: it starts from the defaults with
// the four initial stabilities estimated directly from each card's first answer, then runs Adam
// over mini-batches of cards, minimising the log loss of the model's recall predictions plus a
// pull towards the starting values. It follows fsrs-rs's training recipe; gradients are central
// differences of the same formulas the scheduler uses, so training and scheduling cannot drift
// apart. The work is proportional to len(reviews)·Epochs; ctx stops it between batches.
func Fit(ctx context.Context, reviews []Answer, opt FitOptions) (FitResult, error) {
	opt = opt.withDefaults()
	l, err := newReviewLog(reviews, opt.Recency)
	if err != nil {
		return FitResult{}, err
	}
	res := FitResult{Reviews: len(reviews), Cards: len(l.cards), Scored: l.targets}
	start := DefaultParams
	initial := l.initialStabilities(start)
	copy(start[:4], initial[:])
	w := start
	if l.targets >= minFitScored {
		w, err = l.train(ctx, start, opt)
		if err != nil {
			return FitResult{}, err
		}
	}
	for i := range w { // four decimals, as FSRS tools show weights
		w[i] = math.Round(w[i]*1e4) / 1e4
	}
	res.Params = ClipParams(w)
	plain, _ := newReviewLog(reviews, false)
	sum, weight := plain.loss(DefaultParams, plain.cards)
	res.LossBefore = sum / weight
	sum, weight = plain.loss(res.Params, plain.cards)
	res.LossAfter = sum / weight
	return res, nil
}

func (o FitOptions) withDefaults() FitOptions {
	if o.BatchSize <= 0 {
		o.BatchSize = 512
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	o.Workers = min(o.Workers, 21)
	if !(o.LearningRate > 0) {
		o.LearningRate = 0.04
	}
	return o
}

// batches shuffles the cards and cuts them into groups holding about size scored answers each.
func (l *reviewLog) batches(size int, rng *rand.Rand) [][]span {
	cards := make([]span, len(l.cards))
	for i, j := range rng.Perm(len(l.cards)) {
		cards[i] = l.cards[j]
	}
	var out [][]span
	var cur []span
	n := 0
	for _, c := range cards {
		k := 0
		for i := c.start + 1; i < c.end; i++ {
			if l.weights[i] > 0 {
				k++
			}
		}
		if k == 0 {
			continue
		}
		if len(cur) > 0 && n+k > size {
			out = append(out, cur)
			cur, n = nil, 0
		}
		cur = append(cur, c)
		n += k
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func (l *reviewLog) train(ctx context.Context, start [21]float64, opt FitOptions) ([21]float64, error) {
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	batches := l.batches(opt.BatchSize, rng)
	if opt.Epochs <= 0 {
		opt.Epochs = max(10, (minSteps+len(batches)-1)/len(batches))
	}
	total := float64(l.targets)
	steps := len(batches) * opt.Epochs
	w := start
	var a adam
	step := 0
	for epoch := 0; epoch < opt.Epochs; epoch++ {
		rng.Shuffle(len(batches), func(i, j int) { batches[i], batches[j] = batches[j], batches[i] })
		for _, b := range batches {
			if err := ctx.Err(); err != nil {
				return w, err
			}
			lr := opt.LearningRate * (1 + math.Cos(math.Pi*float64(step)/float64(steps))) / 2
			step++
			g := l.gradient(w, b, opt.Workers)
			addPenaltyGradient(&g, w, start, penalty/total)
			a.step(&w, g, lr)
			w = ClipParams(w)
		}
	}
	return w, nil
}

// gradient is the gradient of the batch's mean loss with respect to each weight, by central
// differences, the weights shared out among workers goroutines.
func (l *reviewLog) gradient(w [21]float64, cards []span, workers int) (g [21]float64) {
	_, weight := l.loss(w, cards)
	var wg sync.WaitGroup
	for k := range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(w); i += max(workers, 1) {
				h := 1e-6 * math.Max(1, math.Abs(w[i]))
				up, down := w, w
				up[i] += h
				down[i] -= h
				a, _ := l.loss(up, cards)
				b, _ := l.loss(down, cards)
				g[i] = (a - b) / (2 * h) / weight
			}
		}()
	}
	wg.Wait()
	return g
}

// addPenaltyGradient adds the gradient of scale·Σ((w−w0)/σ)².
func addPenaltyGradient(g *[21]float64, w, w0 [21]float64, scale float64) {
	for i := range g {
		g[i] += 2 * (w[i] - w0[i]) / (paramStddev[i] * paramStddev[i]) * scale
	}
}

// adam is the Adam optimizer's state (β1 0.9, β2 0.999, ε 1e-8).
type adam struct {
	m, v [21]float64
	t    int
}

func (a *adam) step(w *[21]float64, g [21]float64, lr float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	for i := range w {
		a.m[i] = b1*a.m[i] + (1-b1)*g[i]
		a.v[i] = b2*a.v[i] + (1-b2)*g[i]*g[i]
		w[i] -= lr * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + eps)
	}
}
