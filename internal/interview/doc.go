// Package interview holds the pure rules of a mock interview: which questions to ask (Select), how a
// typed answer maps onto a card's answer bullets and pitfalls (Check), and how an answer is
// scored (Score). It reads no clock and touches no storage, so every rule is unit-testable.
package interview
