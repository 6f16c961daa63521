// Package views renders HTML with templ. Components take view models and never touch storage;
// card content arrives pre-rendered (and escaped) from the deck package.
package views

import (
	"github.com/a-h/templ"
)

// Page is what the layout needs on every page.
type Page struct {
	Title   string
	User    *UserInfo // nil when signed out
	CSS     []string  // hashed stylesheet URLs
	Scripts []string  // hashed script URLs, loaded deferred (no inline scripts: see the CSP)
	Private bool      // private mode: hide navigation for anonymous visitors
	Notice  string
	ThemeJS string // hashed URL of theme.js, run before the first paint
	// Theme is the signed-in user's saved theme: "light", "dark" or "system"; "" when signed
	// out (the device's own choice, if any, is applied by theme.js).
	Theme string
	Path  string // the request path, to mark the current navigation link
}

// themeAttr is html[data-theme] as the server knows it ("" leaves it to theme.js and CSS).
func (p Page) themeAttr() string {
	if p.Theme == "light" || p.Theme == "dark" {
		return p.Theme
	}
	return ""
}

// current marks the navigation link of the section the page belongs to.
func (p Page) current(prefix string) string {
	if p.Path == prefix || (prefix != "/" && len(p.Path) > len(prefix) && p.Path[:len(prefix)] == prefix && p.Path[len(prefix)] == '/') {
		return "page"
	}
	return ""
}

// UserInfo is the signed-in user as the layout shows them.
type UserInfo struct {
	Name  string
	Admin bool
}

// FormError holds a form's messages: one for the whole form and one per field.
type FormError struct {
	Form   string
	Fields map[string]string
}

// Field returns the message for one field ("" when none).
func (e *FormError) Field(name string) string {
	if e == nil {
		return ""
	}
	return e.Fields[name]
}

// Slot is an optional component a feature plugs into a page (nil renders nothing).
type Slot = templ.Component
