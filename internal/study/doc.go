// Package study holds the rules of studying that do not depend on HTTP or SQL: the study day
// (which 04:00 a day starts at), the queue of what to show next, and Rate, the one use case
// that turns an answer into a new schedule, used by both study and mock interviews. Storage
// is reached through the small Store interface, which the SQLite adapter implements.
package study
