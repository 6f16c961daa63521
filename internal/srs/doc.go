// Package srs implements the FSRS-6 spaced-repetition scheduler.
//
// FSRS (Free Spaced Repetition Scheduler) models each card's memory with two numbers:
// stability S, the number of days after which recall probability falls to 90 %, and
// difficulty D in [1, 10]. Retrievability R, the predicted recall probability, decays
// along a power forgetting curve whose shape is the trainable 21st weight (w20) in
// version 6. After each answer the scheduler updates S and D from the rating and the
// time elapsed, then picks the next interval so that R will have fallen to the desired
// retention when the card comes due. New and lapsed cards first pass through short
// learning/relearning steps, as in Anki and py-fsrs.
//
// The package is pure: no I/O, no clock reads (the caller passes "now") and no global
// random state (fuzz is seeded from the card's id and answer count). The same card, rating and
// time always give the same result, which keeps it testable against published reference
// vectors and safe to call from any goroutine.
package srs
