// Package layers holds no code: its test checks the import rules that
// ARCHITECTURE.md states (which package may not import which), so that a
// change that breaks the layering fails go test instead of quietly making
// the document false.
package layers
