package server

import (
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/deckload"
)

// Reloader is a DeckSource that can re-read its content (deckload.Holder). The admin page,
// the editor and imports use it.
type Reloader interface {
	DeckSource
	// Reload loads the content again and swaps it in only if it is valid; on error the
	// running deck stays and the error (a deck.ErrorList for bad cards) is returned.
	Reload() error
	// Status describes the deck source and the outcome of the last reload.
	Status() deckload.Status
}

// reloadDecks reloads the deck when it can be; the error is deckload.ErrNotReloadable when not.
func (s *Server) reloadDecks() error {
	rl, ok := s.decks.(Reloader)
	if !ok {
		return deckload.ErrNotReloadable
	}
	return rl.Reload()
}

// reloadDeck is POST /admin/reload: the outcome shows on the admin page.
func (s *Server) reloadDeck(w http.ResponseWriter, r *http.Request) {
	if rl, ok := s.decks.(Reloader); ok && rl.Status().Embedded {
		// Nothing on disk to re-read: cards edited in the app are swapped in as they are saved.
		http.Redirect(w, r, "/admin?reload=embedded#deck", http.StatusSeeOther)
		return
	}
	err := s.reloadDecks()
	switch {
	case err == nil:
		s.log.InfoContext(r.Context(), "deck reloaded", "cards", s.deck().Len(), "by", userFrom(r.Context()).Username)
		http.Redirect(w, r, "/admin?reload=ok#deck", http.StatusSeeOther)
	case errors.Is(err, deckload.ErrNotReloadable):
		http.Redirect(w, r, "/admin?reload=static#deck", http.StatusSeeOther)
	default:
		s.log.WarnContext(r.Context(), "deck reload failed; the running deck stays", "err", err)
		http.Redirect(w, r, "/admin?reload=failed#deck", http.StatusSeeOther)
	}
}
