// Package studyview turns what the store read about a user's study (answers by day, card
// states, a card's progress) into the view values of the progress, study and card pages. Its
// functions are pure: the deck, the states and the clock come in, views values go out.
package studyview
