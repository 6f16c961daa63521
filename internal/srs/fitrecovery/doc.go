// Package fitrecovery holds one test: srs.Fit, given the simulated history of learners whose
// memories are unlike the defaults, recovers parameters that predict a second, unseen history
// nearly as well as the true ones. It is its own package so that it runs without the race
// detector: it is pure arithmetic over a large log, which the detector slows many times over,
// while Fit's workers are race-checked by the srs package's own, smaller tests.
package fitrecovery
